import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type SyncKind = 'metadata' | 'field-values';
export type SyncStatus = 'running' | 'succeeded' | 'failed';

/** One sync of one database: when, by which instance, and how it ended. */
@Entity('sync_run')
export class SyncRun {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  db_id: number;

  @Column({ type: 'varchar', length: 16 })
  kind: SyncKind;

  @Column({ type: 'varchar', length: 16 })
  status: SyncStatus;

  @Column({ type: 'varchar', length: 64 })
  instance: string;

  @Column({ type: Date })
  started_at: Date;

  @Column({ type: Date, nullable: true })
  ended_at: Date | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'simple-json', nullable: true })
  summary: Record<string, number> | null;
}
