import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** How a field is displayed: `internal` remaps values through FieldValues, `external` through another field (FK). */
@Entity('dimension')
export class Dimension {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer', unique: true })
  field_id: number;

  @Column({ type: 'varchar', length: 254 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  type: 'internal' | 'external';

  @Column({ type: 'integer', nullable: true })
  human_readable_field_id: number | null;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
