/**
 * The SELECT of GET /api/card/: each card's JSON built by the app database itself (json_build_object on Postgres,
 * json_object on SQLite), so that a listing of tens of thousands of cards costs the server one string per card. The
 * keys are those of GET /api/card/:id but for what needs more queries per card (`last-edit-info`, query timings,
 * effective ancestors); `can_write` is added per card after.
 */
export function cardListSelect(pg: boolean): string {
  const obj = pg ? 'json_build_object' : 'json_object';
  const bool = (e: string) => (pg ? `(${e})` : `CASE WHEN ${e} THEN json('true') ELSE json('false') END`);
  const time = (e: string) => (pg ? `to_char(${e} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : `strftime('%Y-%m-%dT%H:%M:%fZ', ${e})`);
  const json = (e: string) => (pg ? `(${e})::json` : `json(${e})`);
  const name = `COALESCE(NULLIF(TRIM(COALESCE(TRIM(u.first_name), '') || ' ' || COALESCE(TRIM(u.last_name), '')), ''), u.email)`;
  const creator = `CASE WHEN u.id IS NULL THEN NULL ELSE ${obj}('id', u.id, 'email', u.email, 'first_name', u.first_name, 'last_name', u.last_name, 'common_name', ${name},
    'is_superuser', ${bool('u.is_superuser')}, 'is_qbnewb', ${bool('u.is_qbnewb')}, 'date_joined', ${time('u.date_joined')}, 'last_login', ${time('u.last_login')}) END`;
  const collection = `CASE WHEN col.id IS NULL THEN NULL ELSE ${obj}('id', col.id, 'name', col.name, 'location', col.location, 'personal_owner_id', col.personal_owner_id, 'authority_level', col.authority_level, 'archived', ${bool('col.archived')}) END`;
  const card = `${obj}(
    'id', c.id, 'name', c.name, 'description', c.description, 'display', c.display, 'type', c.type, 'dataset', ${bool("c.type = 'model'")},
    'query_type', c.query_type, 'database_id', c.database_id, 'table_id', c.table_id, 'source_card_id', c.source_card_id,
    'collection_id', c.collection_id, 'collection_position', c.collection_position, 'collection_preview', ${bool('c.collection_preview')},
    'cache_ttl', c.cache_ttl, 'archived', ${bool('c.archived')}, 'enable_embedding', ${bool('c.enable_embedding')}, 'public_uuid', c.public_uuid,
    'made_public_by_id', c.made_public_by_id, 'creator_id', c.creator_id, 'creator', ${creator}, 'entity_id', c.entity_id, 'view_count', c.view_count,
    'last_used_at', ${time('c.last_used_at')}, 'created_at', ${time('c.created_at')}, 'updated_at', ${time('c.updated_at')},
    'collection', ${collection}, 'dataset_query', ${json('c.dataset_query')}, 'visualization_settings', ${json('c.visualization_settings')},
    'parameters', ${json("COALESCE(c.parameters, '[]')")}, 'parameter_mappings', ${json("COALESCE(c.parameter_mappings, '[]')")},
    'embedding_params', ${json('c.embedding_params')}, 'result_metadata', ${json('c.result_metadata')})`;
  return `SELECT ${pg ? `(${card})::text` : card} AS card_json, c.collection_id, col.location AS coll_location, col.personal_owner_id AS coll_personal_owner_id
FROM report_card c
LEFT JOIN collection col ON col.id = c.collection_id
LEFT JOIN core_user u ON u.id = c.creator_id`;
}

/** One card of a listing: its JSON and what `can_write` needs. */
export interface CardJsonRow {
  card_json: string;
  collection_id: number | null;
  coll_location: string | null;
  coll_personal_owner_id: number | null;
}
