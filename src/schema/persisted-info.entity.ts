import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Metabase's states of a persisted model. */
export type PersistedState = 'creating' | 'persisted' | 'refreshing' | 'error' | 'deletable' | 'off';

/** A model whose result is stored as a table in its warehouse (Metabase's `persisted_info`). */
@Entity('persisted_info')
export class PersistedInfo {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  database_id: number;

  @Column({ type: 'integer' })
  card_id: number;

  @Column({ type: 'varchar', length: 254, nullable: true })
  question_slug: string | null;

  @Column({ type: 'varchar', length: 254 })
  schema_name: string;

  @Column({ type: 'varchar', length: 254 })
  table_name: string;

  /** JSON: `{"field-definitions": [{"field-name", "base-type"}]}`, the columns of the table as last built. */
  @Column({ type: 'text', nullable: true })
  definition: string | null;

  /** Hash of the card's dataset_query the table was built from: another hash means the table is stale. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  query_hash: string | null;

  /** True while the table holds a complete result that queries may read. */
  @Column({ type: 'boolean', default: false })
  active: boolean;

  @Column({ type: 'varchar', length: 32 })
  state: PersistedState;

  @Column({ type: Date, nullable: true })
  refresh_begin: Date | null;

  @Column({ type: Date, nullable: true })
  refresh_end: Date | null;

  @Column({ type: Date, nullable: true })
  state_change_at: Date | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'integer', nullable: true })
  creator_id: number | null;

  @Column({ type: Date })
  created_at: Date;

  @Column({ type: 'varchar', length: 128, nullable: true })
  lease_holder: string | null;

  @Column({
    type: 'bigint',
    nullable: true,
    transformer: { to: (v: number | null) => v, from: (v: string | number | null) => (v === null ? null : Number(v)) },
  })
  lease_until: number | null;
}
