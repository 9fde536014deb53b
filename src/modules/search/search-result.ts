import { sqlBool } from '../../common/database/row-values';
import { commonName } from '../../common/views/wire-values';
import type { LastEditRow, TableDetails } from './search-details.repository';
import type { SearchRow } from './search.repository';
import { sqlTime } from '../../common/database/sql-time';

/** What the page's lookups found for one row (see SearchDetailsRepository). */
export interface SearchRowDetails {
  lastEdit?: LastEditRow;
  card?: { dashboard_id: number | null; dashboardcard_count: number };
  table?: TableDetails;
  initialSyncStatus?: string | null;
  /** Cards and dashboards only, as Metabase adds it. */
  canWrite?: boolean;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const nameOf = (u: { first_name: string | null; last_name: string | null; email: string | null } | undefined) =>
  u && u.email !== null ? commonName({ first_name: u.first_name, last_name: u.last_name, email: u.email }) : null;

/**
 * One result of GET /api/search with every key Metabase's search sends (its `all-search-columns`, serialized): keys
 * of other kinds of objects are null, as Metabase's UNION fills them. Not served here: moderation (always null),
 * model indexes (`model_id`, `model_name`, `pk_ref`, `model_index_id`), match `context`, and `scores` (empty).
 */
export function toSearchResult(r: SearchRow, d: SearchRowDetails) {
  const collectionId = r.collection_name === null ? null : num(r.collection_id);
  const creator =
    r.creator_email === null ? undefined : { first_name: r.creator_first_name, last_name: r.creator_last_name, email: r.creator_email };
  const table = d.table;
  const isCollection = r.model === 'collection';
  return {
    model: r.model,
    id: Number(r.id),
    name: r.name,
    description: r.description,
    archived: sqlBool(r.archived),
    // `type` is null for a regular collection (Metabase's CLI requires the key).
    collection: { id: collectionId, name: r.collection_name, authority_level: r.collection_authority_level, type: null },
    collection_id: collectionId,
    collection_position: num(r.collection_position),
    database_id: num(r.database_id),
    table_id: num(r.table_id),
    creator_id: num(r.creator_id),
    creator_common_name: nameOf(creator),
    display: r.display,
    created_at: sqlTime(r.created_at),
    updated_at: sqlTime(r.updated_at),
    bookmark: sqlBool(r.bookmarked),
    last_edited_at: d.lastEdit ? sqlTime(d.lastEdit.timestamp) : null,
    last_editor_id: num(d.lastEdit?.user_id),
    last_editor_common_name: nameOf(d.lastEdit),
    dashboardcard_count: d.card ? d.card.dashboardcard_count : null,
    dashboard_id: d.card ? d.card.dashboard_id : null,
    moderated_status: null,
    location: isCollection ? r.collection_location : null,
    effective_location: isCollection ? r.collection_location : null,
    table_schema: table ? table.schema : null,
    table_name: table ? table.name : null,
    table_description: table ? table.description : null,
    initial_sync_status: table ? table.initial_sync_status : (d.initialSyncStatus ?? null),
    database_name: table ? table.database_name : null,
    model_id: null,
    model_name: null,
    pk_ref: null,
    model_index_id: null,
    context: null,
    scores: [],
    ...(table ? { display_name: table.display_name } : {}),
    ...(d.canWrite !== undefined ? { can_write: d.canWrite } : {}),
  };
}
