import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One saved state of a card, dashboard, metric or segment: `object` is the full snapshot as JSON. */
@Entity('revision')
export class Revision {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 32 })
  model: string;

  @Column({ type: 'integer' })
  model_id: number;

  @Column({ type: 'integer', nullable: true })
  user_id: number | null;

  @Column({ type: 'text' })
  object: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text', nullable: true })
  message: string | null;

  @Column({ type: 'boolean', default: false })
  is_creation: boolean;

  @Column({ type: 'boolean', default: false })
  is_reversion: boolean;

  @Column({ type: 'boolean', default: false })
  most_recent: boolean;

  @CreateDateColumn()
  timestamp: Date;
}
