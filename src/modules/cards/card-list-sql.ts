/** How a value becomes JSON: a number, a string, a boolean, stored JSON text, an instant, or a built object. */
type Kind = 'num' | 'str' | 'bool' | 'json' | 'time' | 'obj';
type Field = [key: string, expr: string, kind: Kind];

/**
 * One JSON object from a list of fields. SQLite builds it with json_object. On Postgres the object is concatenated
 * as text: json_build_object would parse every stored JSON column again (`::json`), which made up most of the time
 * of a listing of 40,000 cards. Stored JSON columns are only ever written by this module as JSON.stringify output.
 */
function objectSql(pg: boolean, fields: Field[]): string {
  if (!pg) {
    const value = ([, e, kind]: Field) =>
      kind === 'bool'
        ? `CASE WHEN ${e} THEN json('true') ELSE json('false') END`
        : kind === 'json'
          ? `json(${e})`
          : kind === 'time'
            ? `strftime('%Y-%m-%dT%H:%M:%fZ', ${e})`
            : e;
    return `json_object(${fields.map((f) => `'${f[0]}', ${value(f)}`).join(', ')})`;
  }
  const value = ([, e, kind]: Field) =>
    kind === 'num'
      ? `COALESCE((${e})::text, 'null')`
      : kind === 'str'
        ? `COALESCE(to_json(${e})::text, 'null')`
        : kind === 'bool'
          ? `CASE WHEN ${e} THEN 'true' ELSE 'false' END`
          : kind === 'time'
            ? `COALESCE('"' || to_char(${e} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`
            : `COALESCE(${e}, 'null')`;
  return `('{' || ${fields.map((f, i) => `'${i ? ',' : ''}"${f[0]}":' || ${value(f)}`).join(' || ')} || '}')`;
}

/**
 * The JSON expression and the FROM of GET /api/card/: each card's JSON built by the app database itself, so that a
 * listing of tens of thousands of cards costs the server one string per card. The keys are those of GET /api/card/:id
 * but for what needs more queries per card (`last-edit-info`, query timings, effective ancestors); `can_write` is
 * added after.
 */
export function cardListSql(pg: boolean): { json: string; from: string } {
  const name = `COALESCE(NULLIF(TRIM(COALESCE(TRIM(u.first_name), '') || ' ' || COALESCE(TRIM(u.last_name), '')), ''), u.email)`;
  const creator = objectSql(pg, [
    ['id', 'u.id', 'num'],
    ['email', 'u.email', 'str'],
    ['first_name', 'u.first_name', 'str'],
    ['last_name', 'u.last_name', 'str'],
    ['common_name', name, 'str'],
    ['is_superuser', 'u.is_superuser', 'bool'],
    ['is_qbnewb', 'u.is_qbnewb', 'bool'],
    ['date_joined', 'u.date_joined', 'time'],
    ['last_login', 'u.last_login', 'time'],
  ]);
  const collection = objectSql(pg, [
    ['id', 'col.id', 'num'],
    ['name', 'col.name', 'str'],
    ['location', 'col.location', 'str'],
    ['personal_owner_id', 'col.personal_owner_id', 'num'],
    ['authority_level', 'col.authority_level', 'str'],
    ['archived', 'col.archived', 'bool'],
  ]);
  const card = objectSql(pg, [
    ['id', 'c.id', 'num'],
    ['name', 'c.name', 'str'],
    ['description', 'c.description', 'str'],
    ['display', 'c.display', 'str'],
    ['type', 'c.type', 'str'],
    ['dataset', "c.type = 'model'", 'bool'],
    ['query_type', 'c.query_type', 'str'],
    ['database_id', 'c.database_id', 'num'],
    ['table_id', 'c.table_id', 'num'],
    ['source_card_id', 'c.source_card_id', 'num'],
    ['dashboard_id', 'c.dashboard_id', 'num'],
    ['collection_id', 'c.collection_id', 'num'],
    ['collection_position', 'c.collection_position', 'num'],
    ['collection_preview', 'c.collection_preview', 'bool'],
    ['cache_ttl', 'c.cache_ttl', 'num'],
    ['archived', 'c.archived', 'bool'],
    ['enable_embedding', 'c.enable_embedding', 'bool'],
    ['public_uuid', 'c.public_uuid', 'str'],
    ['made_public_by_id', 'c.made_public_by_id', 'num'],
    ['creator_id', 'c.creator_id', 'num'],
    ['creator', pg ? 'cu.creator_json' : `CASE WHEN u.id IS NULL THEN NULL ELSE ${creator} END`, 'obj'],
    ['entity_id', 'c.entity_id', 'str'],
    ['view_count', 'c.view_count', 'num'],
    ['last_used_at', 'c.last_used_at', 'time'],
    ['created_at', 'c.created_at', 'time'],
    ['updated_at', 'c.updated_at', 'time'],
    ['collection', `CASE WHEN col.id IS NULL THEN NULL ELSE ${collection} END`, 'obj'],
    ['dataset_query', 'c.dataset_query', 'json'],
    ['visualization_settings', 'c.visualization_settings', 'json'],
    ['parameters', "COALESCE(c.parameters, '[]')", 'json'],
    ['parameter_mappings', "COALESCE(c.parameter_mappings, '[]')", 'json'],
    ['embedding_params', 'c.embedding_params', 'json'],
    ['result_metadata', 'c.result_metadata', 'json'],
  ]);
  // On Postgres the creator's object is built in a lateral subquery: the planner computes it where it reads the user,
  // so a listing of 40,000 cards by a few users builds a few creator objects instead of one per card (a fifth of the
  // time).
  const from = pg
    ? `LEFT JOIN LATERAL (SELECT ${creator} AS creator_json FROM core_user u WHERE u.id = c.creator_id) cu ON TRUE`
    : 'LEFT JOIN core_user u ON u.id = c.creator_id';
  return { json: card, from: `FROM report_card c LEFT JOIN collection col ON col.id = c.collection_id ${from}` };
}
