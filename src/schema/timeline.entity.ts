import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A timeline: a named set of events shown on the time series charts of the questions in its collection. */
@Entity('timeline')
export class Timeline {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 128, default: 'star' })
  icon: string;

  /** null: the Root collection. */
  @Column({ type: 'integer', nullable: true })
  collection_id: number | null;

  @Column({ type: 'boolean', default: false })
  archived: boolean;

  @Column({ type: 'boolean', default: false })
  default: boolean;

  @Column({ type: 'integer' })
  creator_id: number;

  @Column({ type: 'varchar', length: 21, nullable: true })
  entity_id: string | null;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
