import type { MetadataSnapshot } from '../compile/contract';
import type { FieldMeta, TableMeta } from '../metadata';
import type { Expr, FieldOptions, InnerQuery, Join } from '../mbql/types';
import { levelPath } from '../mbql/places';
import { PreprocessError } from './context';

/**
 * Metabase's `add-implicit-joins`: on each query level (source queries and the source queries of joins each on
 * their own), every distinct foreign key that `["field", id, {"source-field": fk}]` refs go through becomes one
 * explicit join appended to the level's joins,
 *
 *   {"source-table": <table of id>, "alias": "<TABLE>__via__<FK>", "strategy": "left-join", "fields": "none",
 *    "condition": ["=", ["field", fk, null], ["field", <pk>, {"join-alias": alias}]], "fk-field-id": fk, "qp/implicit-join": true}
 *
 * and each such ref gains `"join-alias": alias` (keeping `source-field`, which the result column's `field_ref`,
 * display name `User → State` and `fk_field_id` come from: compile/fields.ts). The pk is the FK's target field, else
 * the target table's primary key. Joins come in the order their first ref is compiled (join conditions, breakouts,
 * aggregations, fields, filter, order-by; an expression where it is first referred to), so the SQL reads as it did
 * when the compiler added them. Levels without `source-field` refs are left as they are.
 */
export function addImplicitJoins(query: InnerQuery, meta: MetadataSnapshot): InnerQuery {
  return mentionsSourceField(query) ? eachLevel(query, (level) => addToLevel(level, meta)) : query;
}

/**
 * Depth-first over a query level, its source query and the source queries of its joins (mapInnerQueries, synchronous).
 * An error about a clause of a level is placed in it (PreprocessError.at: `query.source-query.breakout`).
 */
function eachLevel(q: InnerQuery, fn: (level: InnerQuery) => InnerQuery, path = 'query'): InnerQuery {
  const out: InnerQuery = { ...q };
  if (q['source-query']) out['source-query'] = eachLevel(q['source-query'], fn, levelPath(q['source-query'], path, 'source-query'));
  if (Array.isArray(q.joins)) {
    out.joins = q.joins.map((j, i) =>
      j['source-query']
        ? { ...j, 'source-query': eachLevel(j['source-query'], fn, levelPath(j['source-query'], `${path}.joins[${i}]`, 'source-query')) }
        : j,
    );
  }
  try {
    return fn(out);
  } catch (e) {
    if (e instanceof PreprocessError && e.clause !== undefined && e.at === undefined) e.at = `${path}.${e.clause}`;
    throw e;
  }
}

function addToLevel(level: InnerQuery, meta: MetadataSnapshot): InnerQuery {
  if (!levelMentionsSourceField(level)) return level;
  const explicit = level.joins ?? [];
  const implicit: Join[] = [];
  const byAlias = new Map<string, Join>(explicit.map((j) => [j.alias, j]));
  const expressions = level.expressions ?? {};
  const rewritten = new Map<string, Expr>();

  /** The alias of the implicit join a ref goes through, added on its first ref. */
  const joinFor = (ref: unknown[], opts: FieldOptions, clause: string): string => {
    const fk = fieldMeta(meta, opts['source-field'], clause);
    const target = fieldMeta(meta, ref[1], clause);
    const table = tableMeta(meta, target.tableId, clause);
    const alias = `${table.name}__via__${fk.name}`;
    const existing = byAlias.get(alias);
    if (existing) {
      if (existing['qp/implicit-join'] === true && existing['fk-field-id'] === fk.id) return alias;
      throw new PreprocessError(
        `The alias ${JSON.stringify(alias)} of the implicit join through field ${fk.id} is the alias of another join${where(clause)}.`,
        clause,
      );
    }
    const pk =
      fk.fkTargetFieldId !== null
        ? fieldMeta(meta, fk.fkTargetFieldId, clause)
        : meta.tableFields(table.id).find((f) => f.semanticType === 'type/PK');
    if (!pk) throw new PreprocessError(`Field ${fk.id} is not a foreign key${where(clause)}.`, clause);
    const join: Join = {
      'source-table': table.id,
      alias,
      condition: ['=', ['field', fk.id, null], ['field', pk.id, { 'join-alias': alias }]],
      strategy: 'left-join',
      fields: 'none',
      'fk-field-id': fk.id,
      'qp/implicit-join': true,
    };
    implicit.push(join);
    byAlias.set(alias, join);
    return alias;
  };

  const rewrite = <T>(node: T, clause: string): T => {
    if (Array.isArray(node)) {
      if (node[0] === 'field') {
        const opts = node[2] as FieldOptions | null | undefined;
        if (!opts || typeof opts !== 'object' || opts['source-field'] === undefined || opts['join-alias'] !== undefined) return node;
        return ['field', node[1], { ...opts, 'join-alias': joinFor(node, opts, clause) }] as T;
      }
      // An expression is compiled where it is referred to: its implicit joins come at its first reference.
      if (node[0] === 'expression' && typeof node[1] === 'string') expression(node[1], clause);
      return node.map((n: unknown) => rewrite(n, clause)) as T;
    }
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, rewrite(v, clause)])) as T;
    return node;
  };
  const expression = (name: string, clause: string): void => {
    if (rewritten.has(name) || !Object.prototype.hasOwnProperty.call(expressions, name)) return;
    rewritten.set(name, expressions[name]); // an expression referring to itself stops here (the compiler reports it)
    rewritten.set(name, rewrite(expressions[name], clause));
  };

  // The order the compiler reads a level in (level.ts compile): join conditions; breakouts and aggregations, or the
  // fields (every expression when none are listed) and the join fields; the filter; the order-by.
  const out: InnerQuery = { ...level };
  const joins = explicit.map((j) => ({ ...j, condition: rewrite(j.condition, 'joins') }));
  if (level.breakout !== undefined) out.breakout = rewrite(level.breakout, 'breakout');
  if (level.aggregation !== undefined) out.aggregation = rewrite(level.aggregation, 'aggregation');
  if (level.fields !== undefined) out.fields = rewrite(level.fields, 'fields');
  const aggregated = Boolean(level.aggregation?.length || level.breakout?.length);
  if (!aggregated && !level.fields?.length) Object.keys(expressions).forEach((name) => expression(name, 'fields'));
  joins.forEach((j) => {
    if (Array.isArray(j.fields)) j.fields = rewrite(j.fields, 'joins');
  });
  if (level.filter !== undefined) out.filter = rewrite(level.filter, 'filter');
  if (level['order-by'] !== undefined) out['order-by'] = rewrite(level['order-by'], 'order-by');
  Object.keys(expressions).forEach((name) => expression(name, 'expressions'));
  if (level.expressions) out.expressions = Object.fromEntries(Object.keys(expressions).map((name) => [name, rewritten.get(name)!]));
  if (joins.length || implicit.length) out.joins = [...joins, ...implicit];
  return out;
}

function mentionsSourceField(query: InnerQuery): boolean {
  return JSON.stringify(query).includes('"source-field"');
}

/** A `source-field` ref of this level (not of its source query, nor of a join's source query). */
function levelMentionsSourceField(level: InnerQuery): boolean {
  const own = { ...level, 'source-query': undefined, joins: level.joins?.map((j) => ({ ...j, 'source-query': undefined })) };
  return mentionsSourceField(own);
}

function fieldMeta(meta: MetadataSnapshot, id: unknown, clause: string): FieldMeta {
  if (typeof id !== 'number' || !Number.isInteger(id))
    throw new PreprocessError(`Invalid field id ${JSON.stringify(id) ?? String(id)}${where(clause)}.`, clause);
  try {
    return meta.field(id);
  } catch {
    throw new PreprocessError(`Unknown field ${id}${where(clause)}.`, clause);
  }
}

function tableMeta(meta: MetadataSnapshot, id: number, clause: string): TableMeta {
  try {
    return meta.table(id);
  } catch {
    throw new PreprocessError(`Unknown table ${id}${where(clause)}.`, clause);
  }
}

function where(clause: string): string {
  return ` in "${clause}"`;
}
