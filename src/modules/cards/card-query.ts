import { isMbql5Query } from '../../query-engine/mbql/mbql5';
import { normalizeDatasetQuery } from '../../query-engine/mbql/normalize';
import type { DatasetQuery, InnerQuery } from '../../query-engine/mbql/types';

/** What a card keeps about its query besides the query itself: for filters, listings and permission checks. */
export interface DerivedQuery {
  database_id: number | null;
  table_id: number | null;
  query_type: 'query' | 'native' | null;
  source_card_id: number | null;
  /** `card_reference` rows: what the query refers to. */
  references: Array<{ kind: 'card' | 'segment' | 'metric' | 'table'; ref_id: number }>;
}

/** The query in the legacy form the engine runs (MBQL 5 converted); null when it does not normalize. */
export function legacyQuery(sent: unknown): DatasetQuery | null {
  try {
    return normalizeDatasetQuery(sent);
  } catch {
    return null;
  }
}

/** `database_id`, `table_id`, `query_type`, the source card and the references of a query as sent (legacy or MBQL 5). */
export function deriveQuery(sent: unknown): DerivedQuery {
  const raw = sent as Record<string, unknown>;
  const dbRaw = raw?.database;
  const database_id = Number.isInteger(dbRaw) && (dbRaw as number) > 0 ? (dbRaw as number) : null;
  const q = legacyQuery(sent);
  const out: DerivedQuery = { database_id, table_id: null, query_type: null, source_card_id: null, references: [] };
  if (!q) {
    out.query_type = isMbql5Query(sent) ? null : raw?.type === 'native' ? 'native' : raw?.type === 'query' ? 'query' : null;
    return out;
  }
  out.query_type = q.type === 'native' ? 'native' : 'query';
  const refs = new Map<string, DerivedQuery['references'][number]>();
  const add = (kind: DerivedQuery['references'][number]['kind'], id: unknown) => {
    if (Number.isInteger(id) && (id as number) > 0) refs.set(`${kind}:${id}`, { kind, ref_id: id as number });
  };
  const source = (st: unknown) => {
    if (typeof st === 'number') add('table', st);
    else if (typeof st === 'string' && /^card__\d+$/.test(st)) add('card', Number(st.slice(6)));
  };
  const walk = (node: unknown, inTags: boolean): void => {
    if (Array.isArray(node)) {
      if (node[0] === 'segment') add('segment', node[1]);
      if (node[0] === 'metric') add('metric', node[1]);
      node.forEach((n) => walk(n, inTags));
    } else if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      if (inTags && o.type === 'card') add('card', o['card-id']);
      for (const [k, v] of Object.entries(o)) {
        if (k === 'source-table') source(v);
        else walk(v, inTags || k === 'template-tags');
      }
    }
  };
  walk(q.type === 'native' ? q.native : q.query, false);
  if (q.type === 'query' && q.query) {
    let inner: InnerQuery = q.query;
    while (inner['source-query']) inner = inner['source-query'];
    const st = inner['source-table'];
    if (typeof st === 'number') out.table_id = st;
    else if (typeof st === 'string' && /^card__\d+$/.test(st)) out.source_card_id = Number(st.slice(6));
  }
  out.references = [...refs.values()];
  return out;
}
