import type { MetadataSnapshot } from '../compile/contract';
import type { FieldMeta, MetadataProvider, TableMeta } from '../metadata';
import type { InnerQuery } from '../mbql/types';
import { PreprocessError } from './context';

/**
 * Fetches every table and field a resolved query refers to (source and joined tables with their fields, FK
 * targets of implicit joins, fields named anywhere), so compiling is synchronous. Ids that do not exist are
 * reported here, naming the id.
 */
export async function loadMetadata(query: InnerQuery, provider: MetadataProvider, dbId: number): Promise<MetadataSnapshot> {
  const tables = new Map<number, TableMeta>();
  const fields = new Map<number, FieldMeta>();
  const tableFields = new Map<number, FieldMeta[]>();

  const addTable = async (id: number) => {
    if (tables.has(id)) return;
    const t = await provider.table(id);
    if (!t || t.dbId !== dbId) throw new PreprocessError(`Table ${id} does not exist in database ${dbId}.`);
    tables.set(id, t);
    const own = await provider.tableFields(id);
    tableFields.set(id, own);
    own.forEach((f) => fields.set(f.id, f));
  };
  const addField = async (id: number) => {
    if (fields.has(id)) return;
    const f = await provider.field(id);
    if (!f) throw new PreprocessError(`Field ${id} does not exist.`);
    await addTable(f.tableId);
    fields.set(id, f);
  };

  const ids = { tables: new Set<number>(), fields: new Set<number>() };
  collect(query, ids);
  for (const id of ids.tables) await addTable(id);
  for (const id of ids.fields) await addField(id);
  // Implicit joins (the add-implicit-joins stage) and FK remapping reach the target table of every FK a query names
  // through `source-field`.
  for (const f of [...fields.values()]) if (f.fkTargetFieldId) await addField(f.fkTargetFieldId);

  return {
    table: (id) => need(tables.get(id), `Table ${id}`),
    field: (id) => need(fields.get(id), `Field ${id}`),
    tableFields: (id) => need(tableFields.get(id), `Table ${id}`),
  };
}

function collect(node: unknown, ids: { tables: Set<number>; fields: Set<number> }): void {
  if (Array.isArray(node)) {
    if (node[0] === 'field' && typeof node[1] === 'number') {
      ids.fields.add(node[1]);
      const sourceField = (node[2] as { 'source-field'?: number } | null)?.['source-field'];
      if (typeof sourceField === 'number') ids.fields.add(sourceField);
    }
    node.forEach((n) => collect(n, ids));
  } else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'source-table' && typeof v === 'number') ids.tables.add(v);
      else collect(v, ids);
    }
  }
}

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new PreprocessError(`${what} is not part of this query's metadata.`);
  return v;
}
