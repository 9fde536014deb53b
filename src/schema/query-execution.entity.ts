import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One run of a query (also a cache hit or a failure): the execution log behind `average_execution_time`. */
@Entity('query_execution')
export class QueryExecution {
  @PrimaryGeneratedColumn()
  id: number;

  /** sha256 of the dataset query with its parameters (see queryHash). */
  @Column({ type: 'varchar', length: 64 })
  hash: string;

  @Column({ type: Date })
  started_at: Date;

  /** Milliseconds. */
  @Column({ type: 'integer' })
  running_time: number;

  @Column({ type: 'integer' })
  result_rows: number;

  @Column({ type: 'boolean', default: false })
  native: boolean;

  @Column({ type: 'varchar', length: 32 })
  context: string;

  @Column({ type: 'integer', nullable: true })
  executor_id: number | null;

  @Column({ type: 'integer', nullable: true })
  card_id: number | null;

  @Column({ type: 'integer', nullable: true })
  dashboard_id: number | null;

  @Column({ type: 'integer', nullable: true })
  database_id: number | null;

  /** The engine's message for a failed run; null for a success. */
  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'boolean', default: false })
  cache_hit: boolean;
}
