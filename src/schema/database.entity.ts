import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { Engine } from '../query-engine/execute/drivers/driver';

export type InitialSyncStatus = 'incomplete' | 'complete' | 'aborted';

/** A connected warehouse. `details` holds connection settings; its secrets are sealed with SecretBox. */
@Entity('metabase_database')
export class WarehouseDatabase {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 254 })
  name: string;

  @Column({ type: 'varchar', length: 32 })
  engine: Engine;

  @Column({ type: 'simple-json' })
  details: Record<string, unknown>;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: false })
  is_sample: boolean;

  @Column({ type: 'boolean', default: true })
  is_full_sync: boolean;

  @Column({ type: 'boolean', default: true })
  auto_run_queries: boolean;

  @Column({ type: 'varchar', length: 16, default: 'incomplete' })
  initial_sync_status: InitialSyncStatus;

  @Column({ type: 'integer', default: 60 })
  metadata_sync_interval_minutes: number;

  @Column({ type: 'integer', default: 1440 })
  field_values_interval_minutes: number;

  @Column({ type: Date, nullable: true })
  last_metadata_sync_at: Date | null;

  @Column({ type: Date, nullable: true })
  last_field_values_at: Date | null;

  /** Which instance runs this database's sync now, and until when (a lease, so one instance runs it). */
  @Column({ type: 'varchar', length: 64, nullable: true, select: false })
  sync_lease_holder: string | null;

  @Column({ type: Date, nullable: true, select: false })
  sync_lease_until: Date | null;

  @Column({ type: 'integer', nullable: true })
  cache_ttl: number | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  timezone: string | null;

  @Column({ type: 'simple-json', nullable: true })
  settings: Record<string, unknown> | null;

  @Column({ type: 'text', nullable: true })
  points_of_interest: string | null;

  @Column({ type: 'text', nullable: true })
  caveats: string | null;

  @Column({ type: 'integer', nullable: true })
  creator_id: number | null;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
