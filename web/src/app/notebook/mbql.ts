import type { Mbql5Query } from './types';

/**
 * The shapes of MBQL 5 the notebook reads and writes (COMPAT.md "dataset_query (MBQL 5)"; the server's reading is
 * src/query-engine/mbql/mbql5*.ts): clauses `[name, {options}, ...args]` with a fresh `lib/uuid` each, one stage map.
 */
export type Clause = [string, Record<string, unknown>, ...unknown[]];
export type Stage = Record<string, unknown>;

/** A join as MBQL 5 writes it (mbql5-stages.ts convertJoin reads `stages`, `conditions`, `alias`, `strategy`, `fields`). */
export interface Join {
  'lib/type': 'mbql/join';
  stages: Stage[];
  conditions: Clause[];
  alias: string;
  strategy: JoinStrategy;
  fields: 'all' | 'none' | Clause[];
}
export type JoinStrategy = 'left-join' | 'inner-join' | 'right-join' | 'full-join';

let counter = 0;
/** A random id per clause: it means nothing to the result, it only has to be unique (aggregations are referred to by it). */
export function uuid(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  counter += 1;
  return `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
}

export function isClause(v: unknown): v is Clause {
  return Array.isArray(v) && typeof v[0] === 'string' && isMap(v[1]);
}

export function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `[name, {lib/uuid, ...options}, ...args]`. */
export function clause(name: string, options: Record<string, unknown>, ...args: unknown[]): Clause {
  return [name, { 'lib/uuid': uuid(), ...options }, ...args];
}

/** The clause with a new uuid (a copy of a column's ref put into the query a second time must not share its id). */
export function fresh(c: Clause): Clause {
  return [c[0], { ...c[1], 'lib/uuid': uuid() }, ...c.slice(2)];
}

/** The same reference with other options (`temporal-unit`, `binning`); undefined removes an option. */
export function withOptions(c: Clause, options: Record<string, unknown>): Clause {
  const next: Record<string, unknown> = { ...c[1] };
  for (const [k, v] of Object.entries(options)) {
    if (v === undefined) delete next[k];
    else next[k] = v;
  }
  return [c[0], next, ...c.slice(2)];
}

/**
 * What a column reference points at, whatever its uuid and bucketing: `field:12@Products` (joined), `field:20<13`
 * (through the foreign key 13), `field:TOTAL`, `expression:Total`. Two refs with the same key are the same column.
 */
export function refKey(ref: unknown): string {
  if (!isClause(ref)) return '';
  const [kind, opts, id] = ref;
  const alias = typeof opts['join-alias'] === 'string' ? `@${opts['join-alias']}` : '';
  const via = opts['source-field'] !== undefined && opts['source-field'] !== null ? `<${String(opts['source-field'])}` : '';
  return `${kind}:${String(id)}${alias}${via}`;
}

export function newQuery(database: number, source: { table: number } | { card: number }): Mbql5Query {
  const stage: Stage = { 'lib/type': 'mbql.stage/mbql' };
  if ('table' in source) stage['source-table'] = source.table;
  else stage['source-card'] = source.card;
  return { 'lib/type': 'mbql/query', database, stages: [stage] };
}

/** The first stage: the one with the data (source) and the joins. */
export function firstStage(q: Mbql5Query): Stage {
  return stageAt(q, 0);
}

export function stageAt(q: Mbql5Query, index: number): Stage {
  return q.stages[index] ?? { 'lib/type': 'mbql.stage/mbql' };
}

/** The query with stage `index` changed; keys set to undefined, or to an empty list, are removed. */
export function updateStage(q: Mbql5Query, changes: Stage, index = 0): Mbql5Query {
  const stage: Stage = { ...stageAt(q, index) };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || (Array.isArray(v) && v.length === 0)) delete stage[k];
    else stage[k] = v;
  }
  const stages = [...q.stages];
  stages[index] = stage;
  return { ...q, stages };
}

/** A list of clauses of the first stage (`filters`, `expressions`, `aggregation`, `breakout`, `order-by`). */
export function clauses(stage: Stage, key: string): Clause[] {
  const v = stage[key];
  return Array.isArray(v) ? (v.filter(isClause) as Clause[]) : [];
}

export function joinsOf(stage: Stage): Join[] {
  return Array.isArray(stage.joins) ? (stage.joins as Join[]) : [];
}

/**
 * What a join reads, as `GET /api/table/:id/query_metadata` names it: its one stage's table id, or `card__<id>` for a
 * saved question or model; undefined for a nested query (whose columns the notebook does not know).
 */
export function joinTable(j: Join): number | string | undefined {
  const only = j.stages?.length === 1 ? j.stages[0] : undefined;
  if (typeof only?.['source-card'] === 'number') return `card__${only['source-card']}`;
  return typeof only?.['source-table'] === 'number' ? (only['source-table'] as number) : undefined;
}

export function expressionName(c: Clause): string {
  return typeof c[1]['lib/expression-name'] === 'string' ? (c[1]['lib/expression-name'] as string) : '';
}

const DEPENDENT_KEYS = ['expressions', 'filters', 'aggregation', 'breakout', 'order-by', 'fields'];

/** Whether a clause uses, anywhere inside it, a reference `is` picks. */
export function uses(c: unknown, is: (ref: Clause) => boolean): boolean {
  if (!Array.isArray(c)) return false;
  if (isClause(c) && (c[0] === 'field' || c[0] === 'expression' || c[0] === 'aggregation') && is(c)) return true;
  return c.some((x) => uses(x, is));
}

/**
 * The stage's changes that drop every clause using what goes away (a join's columns, a custom column), as Metabase
 * drops them: a filter or grouping on a removed join would only make the query fail. Sorts by a dropped metric go too.
 */
export function withoutDependents(stage: Stage, is: (ref: Clause) => boolean): Stage {
  const changes: Stage = {};
  const dropped = new Set<string>();
  for (const key of DEPENDENT_KEYS) {
    const list = clauses(stage, key);
    const kept = list.filter((c) => !uses(key === 'expressions' ? c.slice(2) : c, is));
    if (key === 'aggregation') for (const c of list) if (!kept.includes(c)) dropped.add(String(c[1]['lib/uuid']));
    if (kept.length !== list.length) changes[key] = kept;
  }
  if (dropped.size) {
    const orderBy = (changes['order-by'] as Clause[] | undefined) ?? clauses(stage, 'order-by');
    changes['order-by'] = orderBy.filter((o) => !uses(o, (r) => r[0] === 'aggregation' && dropped.has(String(r[2]))));
  }
  return changes;
}

/** Every reference to custom column `from` renamed to `to` (a renamed custom column keeps its uses). */
export function renameExpressionRefs<T>(c: T, from: string, to: string): T {
  if (!Array.isArray(c)) return c;
  if (isClause(c) && c[0] === 'expression' && c[2] === from) return [c[0], c[1], to, ...c.slice(3)] as T;
  return c.map((x) => renameExpressionRefs(x, from, to)) as T;
}
