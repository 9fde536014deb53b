import { iso } from '../users/user.view';
import { maskDetails } from '../warehouse/database-details';
import { WarehouseDatabase } from './database.entity';

/** What each engine can do, as Metabase's clients read `features` to decide what to offer. */
const FEATURES: Record<string, string[]> = {
  postgres: ['basic-aggregations', 'standard-deviation-aggregations', 'expressions', 'native-parameters', 'nested-queries', 'left-join', 'right-join', 'inner-join', 'full-join', 'foreign-keys', 'binning', 'case-sensitivity-string-filter-options', 'percentile-aggregations', 'set-timezone', 'regex', 'schemas'],
  mysql: ['basic-aggregations', 'standard-deviation-aggregations', 'expressions', 'native-parameters', 'nested-queries', 'left-join', 'right-join', 'inner-join', 'foreign-keys', 'binning', 'case-sensitivity-string-filter-options', 'set-timezone', 'regex'],
  sqlite: ['basic-aggregations', 'expressions', 'native-parameters', 'nested-queries', 'left-join', 'inner-join', 'foreign-keys', 'binning', 'case-sensitivity-string-filter-options'],
  duckdb: ['basic-aggregations', 'standard-deviation-aggregations', 'expressions', 'native-parameters', 'nested-queries', 'left-join', 'right-join', 'inner-join', 'full-join', 'foreign-keys', 'binning', 'case-sensitivity-string-filter-options', 'percentile-aggregations', 'regex', 'schemas'],
};

export type DatabaseView = ReturnType<typeof toDatabaseView>;

/** A database as the API shows it. Details (secrets masked) only for admins. */
export function toDatabaseView(db: WarehouseDatabase, opts: { isAdmin: boolean; native: 'write' | 'none' }) {
  return {
    id: db.id,
    name: db.name,
    engine: db.engine,
    description: db.description,
    details: opts.isAdmin ? maskDetails(db.details) : undefined,
    is_sample: db.is_sample,
    is_full_sync: db.is_full_sync,
    is_on_demand: false,
    is_saved_questions: false,
    auto_run_queries: db.auto_run_queries,
    initial_sync_status: db.initial_sync_status,
    cache_ttl: db.cache_ttl,
    timezone: db.timezone,
    settings: db.settings ?? {},
    points_of_interest: db.points_of_interest,
    caveats: db.caveats,
    features: FEATURES[db.engine] ?? [],
    native_permissions: opts.native,
    metadata_sync_interval_minutes: db.metadata_sync_interval_minutes,
    field_values_interval_minutes: db.field_values_interval_minutes,
    last_metadata_sync_at: iso(db.last_metadata_sync_at),
    creator_id: db.creator_id,
    created_at: iso(db.created_at),
    updated_at: iso(db.updated_at),
  };
}
