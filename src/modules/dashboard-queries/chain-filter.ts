import type { DatasetQuery } from '../../query-engine/mbql/types';

/** What the FK path finder knows of a field. */
export interface FieldNode {
  id: number;
  table_id: number;
  fk_target_field_id: number | null;
}

/** One hop of a join path: from a field of the table reached so far to a field of the next table. */
export interface Hop {
  fromField: number;
  toField: number;
  toTable: number;
}

/** Metabase's chain filter gives up on paths longer than this (its `max-results` of joins). */
export const MAX_HOPS = 3;

/**
 * The shortest foreign-key path from one table to another (breadth first over FK edges, both directions), as
 * Metabase's chain filter finds it; [] for the same table, null when none within MAX_HOPS.
 */
export function findPath(fields: FieldNode[], from: number, to: number): Hop[] | null {
  if (from === to) return [];
  const byId = new Map(fields.map((f) => [f.id, f]));
  const edges = new Map<number, Hop[]>();
  const add = (table: number, hop: Hop) => {
    const list = edges.get(table) ?? [];
    list.push(hop);
    edges.set(table, list);
  };
  for (const f of [...fields].sort((a, b) => a.id - b.id)) {
    const target = f.fk_target_field_id === null ? undefined : byId.get(f.fk_target_field_id);
    if (!target || target.table_id === f.table_id) continue;
    add(f.table_id, { fromField: f.id, toField: target.id, toTable: target.table_id });
    add(target.table_id, { fromField: target.id, toField: f.id, toTable: f.table_id });
  }
  const seen = new Set([from]);
  let frontier: Array<{ table: number; path: Hop[] }> = [{ table: from, path: [] }];
  while (frontier.length) {
    const next: typeof frontier = [];
    for (const { table, path } of frontier) {
      if (path.length >= MAX_HOPS) continue;
      for (const hop of edges.get(table) ?? []) {
        if (seen.has(hop.toTable)) continue;
        const p = [...path, hop];
        if (hop.toTable === to) return p;
        seen.add(hop.toTable);
        next.push({ table: hop.toTable, path: p });
      }
    }
    frontier = next;
  }
  return null;
}

/** A constraint of a chain filter: another parameter's value on a field, with that parameter's type. */
export interface Constraint {
  fieldId: number;
  tableId: number;
  type: string;
  value: unknown;
}

/**
 * The MBQL query of a chain filter's values: the distinct values of `field` in its table, joined along the FK path to
 * each constraining field's table (constraints without a path are left out, as Metabase does), each constraint a
 * parameter on the joined field (so the query engine turns its value into a filter of its type), one row over `max`.
 */
export function chainFilterQuery(
  databaseId: number,
  field: { id: number; table_id: number },
  constraints: Array<Constraint & { path: Hop[] }>,
  max: number,
  search?: string,
): DatasetQuery {
  const joins: unknown[] = [];
  const aliases = new Map<string, string>();
  const parameters: unknown[] = [];
  for (const c of constraints) {
    let alias: string | null = null;
    let key = '';
    for (const hop of c.path) {
      key += `/${hop.fromField}>${hop.toField}`;
      let next = aliases.get(key);
      if (!next) {
        next = `__chain_${aliases.size + 1}`;
        aliases.set(key, next);
        const from = ['field', hop.fromField, alias ? { 'join-alias': alias } : null];
        joins.push({
          'source-table': hop.toTable,
          alias: next,
          strategy: 'inner-join',
          fields: 'none',
          condition: ['=', from, ['field', hop.toField, { 'join-alias': next }]],
        });
      }
      alias = next;
    }
    const ref = ['field', c.fieldId, alias ? { 'join-alias': alias } : null];
    parameters.push({ type: c.type, target: ['dimension', ref], value: c.value });
  }
  const ref = ['field', field.id, null];
  const filters: unknown[] = [['not-null', ref]];
  if (search !== undefined) filters.push(['contains', ['concat', ref], search, { 'case-sensitive': false }]);
  return {
    database: databaseId,
    type: 'query',
    query: {
      'source-table': field.table_id,
      ...(joins.length ? { joins } : {}),
      breakout: [ref],
      filter: filters.length === 1 ? filters[0] : ['and', ...filters],
      'order-by': [['asc', ref]],
      limit: max + 1,
    },
    ...(parameters.length ? { parameters } : {}),
  } as unknown as DatasetQuery;
}
