import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** The distinct values of a low-cardinality field, with optional human-readable remappings. */
@Entity('metabase_fieldvalues')
export class FieldValues {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer', unique: true })
  field_id: number;

  @Column({ type: 'simple-json' })
  values: unknown[];

  @Column({ type: 'simple-json', nullable: true })
  human_readable_values: string[] | null;

  @Column({ type: 'boolean', default: false })
  has_more_values: boolean;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
