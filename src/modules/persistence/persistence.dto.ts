import { Transform } from 'class-transformer';
import { IsString } from 'class-validator';
import { Bool, NonNegativeInt, Nullable, PositiveInt } from '../../common/validation/validators';
import type { PersistedListRow } from './persistence.repository';

/** Query-string integers; longer than 9 digits stays a string and fails. */
const IntString = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value));

export class ListPersistedQuery {
  @Nullable()
  @IntString()
  @PositiveInt()
  limit?: number;

  @Nullable()
  @IntString()
  @NonNegativeInt()
  offset?: number;
}

/** POST /api/persist/enable. */
export class EnablePersistenceDto {
  @Bool()
  state: boolean;
}

/** POST /api/persist/set-refresh-schedule. */
export class RefreshScheduleDto {
  @IsString({ message: 'value must be a string.' })
  cron: string;
}

/** SQLite's raw rows hold UTC as `YYYY-MM-DD HH:MM:SS` text without a zone: read as UTC, not local time. */
const iso = (d: Date | string | null | undefined) => {
  if (d === null || d === undefined) return null;
  return new Date(
    typeof d === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/.test(d) ? `${d.replace(' ', 'T')}Z` : d,
  ).toISOString();
};

/** One persisted model as Metabase's /api/persist answers it. `nextRefresh`: when the scheduler will rebuild it. */
export function mapPersisted(row: PersistedListRow, nextRefresh: Date | null) {
  const definition = row.definition ? (JSON.parse(row.definition) as { 'field-definitions'?: Array<{ 'field-name': string }> }) : null;
  return {
    id: row.id,
    database_id: row.database_id,
    database_name: row.database_name ?? null,
    card_id: row.card_id,
    card_name: row.card_name ?? null,
    collection_id: row.collection_id ?? null,
    question_slug: row.question_slug,
    schema_name: row.schema_name,
    table_name: row.table_name,
    definition,
    columns: (definition?.['field-definitions'] ?? []).map((f) => f['field-name']),
    query_hash: row.query_hash,
    active: row.active,
    state: row.state,
    refresh_begin: iso(row.refresh_begin),
    refresh_end: iso(row.refresh_end),
    state_change_at: iso(row.state_change_at),
    error: row.error,
    creator_id: row.creator_id,
    created_at: iso(row.created_at),
    'next-refresh-time': iso(nextRefresh),
  };
}

export type PersistedView = ReturnType<typeof mapPersisted>;
