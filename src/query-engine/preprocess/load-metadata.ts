import type { MetadataSnapshot } from '../compile/contract';
import type { FieldMeta, MetadataProvider, TableMeta } from '../metadata';
import type { InnerQuery } from '../mbql/types';
import { levelPath } from '../mbql/places';
import { PreprocessError } from './context';

/**
 * Fetches every table and field a resolved query refers to (source and joined tables with their fields, FK
 * targets of implicit joins, fields named anywhere), so compiling is synchronous. Ids that do not exist are
 * reported here, naming the id, and placed (PreprocessError.at) where the query first names them.
 */
export async function loadMetadata(query: InnerQuery, provider: MetadataProvider, dbId: number): Promise<MetadataSnapshot> {
  const tables = new Map<number, TableMeta>();
  const fields = new Map<number, FieldMeta>();
  const tableFields = new Map<number, FieldMeta[]>();

  const addTable = async (id: number, at?: string) => {
    if (tables.has(id)) return;
    const t = await provider.table(id);
    if (!t || t.dbId !== dbId) throw new PreprocessError(`Table ${id} does not exist in database ${dbId}.`, undefined, at);
    tables.set(id, t);
    const own = await provider.tableFields(id);
    tableFields.set(id, own);
    own.forEach((f) => fields.set(f.id, f));
  };
  const addField = async (id: number, at?: string) => {
    if (fields.has(id)) return;
    const f = await provider.field(id);
    if (!f) throw new PreprocessError(`Field ${id} does not exist.`, undefined, at);
    await addTable(f.tableId, at);
    fields.set(id, f);
  };

  const ids: Ids = { tables: new Map(), fields: new Map() };
  collectLevel(query as unknown as Record<string, unknown>, 'query', ids);
  for (const [id, at] of ids.tables) await addTable(id, at);
  for (const [id, at] of ids.fields) await addField(id, at);
  // Implicit joins (the add-implicit-joins stage) and FK remapping reach the target table of every FK a query names
  // through `source-field`.
  for (const f of [...fields.values()]) if (f.fkTargetFieldId) await addField(f.fkTargetFieldId);

  return {
    table: (id) => need(tables.get(id), `Table ${id}`),
    field: (id) => need(fields.get(id), `Field ${id}`),
    tableFields: (id) => need(tableFields.get(id), `Table ${id}`),
  };
}

/** Table and field ids, in the order they are first named, each with the legacy path of that place. */
interface Ids {
  tables: Map<number, string>;
  fields: Map<number, string>;
}

const LISTS = new Set(['breakout', 'aggregation', 'fields', 'order-by']);

/**
 * The ids of a query level (or join), each clause at its own place: `query.breakout[0]`, `query.filter.and[1]`,
 * `query.expressions.Net`, `query.joins[0].condition`, a source query at its level path.
 */
function collectLevel(level: Record<string, unknown>, path: string, ids: Ids): void {
  for (const [k, v] of Object.entries(level)) {
    const at = `${path}.${k}`;
    if (k === 'source-query' && isMap(v)) collectLevel(v, levelPath(v, path, 'source-query'), ids);
    else if (k === 'joins' && Array.isArray(v))
      v.forEach((j, i) => (isMap(j) ? collectLevel(j, `${at}[${i}]`, ids) : collect(j, ids, `${at}[${i}]`)));
    else if (LISTS.has(k) && Array.isArray(v)) v.forEach((x, i) => collect(x, ids, `${at}[${i}]`));
    else if ((k === 'filter' || k === 'condition') && Array.isArray(v) && v[0] === 'and' && v.length > 2)
      v.slice(1).forEach((x, i) => collect(x, ids, `${at}.and[${i}]`));
    else if (k === 'expressions' && isMap(v)) Object.entries(v).forEach(([name, e]) => collect(e, ids, `${at}.${name}`));
    else collect({ [k]: v }, ids, at);
  }
}

function collect(node: unknown, ids: Ids, at: string): void {
  const note = (to: Map<number, string>, id: number) => {
    if (!to.has(id)) to.set(id, at);
  };
  if (Array.isArray(node)) {
    if (node[0] === 'field' && typeof node[1] === 'number') {
      note(ids.fields, node[1]);
      const sourceField = (node[2] as { 'source-field'?: number } | null)?.['source-field'];
      if (typeof sourceField === 'number') note(ids.fields, sourceField);
    }
    node.forEach((n) => collect(n, ids, at));
  } else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'source-table' && typeof v === 'number') note(ids.tables, v);
      else collect(v, ids, at);
    }
  }
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new PreprocessError(`${what} is not part of this query's metadata.`);
  return v;
}
