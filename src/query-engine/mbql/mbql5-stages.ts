import { clause, type Scope } from './mbql5-clauses';
import { isClause, isLibKey, isMap, kebab, kebabKeys, list, preview } from './mbql5-syntax';
import { InvalidQueryError } from './validate';

/**
 * The stages of an MBQL 5 query (and of its joins) in legacy form: the first stage is the source and each later
 * stage wraps the previous one as its `source-query`; expressions named by their options become the legacy map; a
 * list of filters or join conditions becomes one `and`. Every legacy place made is recorded in `places` with the
 * place as it was sent, for the errors of later checks (mbql5.ts placeAsSent).
 */

/** [legacy path prefix, MBQL 5 path prefix] pairs. */
export type Places = Array<[string, string]>;

/** Stages (of a query or a join) nested inside out: the last stage is the outermost inner query. */
export function chain(stages: unknown[], at: string, legacyAt: string, places: Places): Record<string, unknown> {
  let inner: Record<string, unknown> | undefined;
  stages.forEach((s, i) => {
    const path = `${at}[${i}]`;
    const stage = stageMap(s, path);
    if (isNativeStage(stage)) throw new InvalidQueryError('a native stage can only be the first and only stage.', path);
    const legacyPath = legacyAt + '.source-query'.repeat(stages.length - 1 - i);
    places.push([legacyPath, path]);
    const converted = convertStage(stage, path, legacyPath, i === 0, places);
    inner = inner ? { ...converted, 'source-query': inner } : converted;
  });
  return inner!;
}

function convertStage(raw: Record<string, unknown>, at: string, legacyAt: string, first: boolean, places: Places): Record<string, unknown> {
  const stage = kebabKeys(raw);
  const out: Record<string, unknown> = {};
  if (stage['source-table'] !== undefined || stage['source-card'] !== undefined) {
    if (!first) throw new InvalidQueryError('only the first stage has a source ("source-table" or "source-card").', at);
    if (stage['source-card'] !== undefined) {
      const card = stage['source-card'];
      if (!(Number.isInteger(card) && (card as number) > 0))
        throw new InvalidQueryError(`must be the id of a card, not ${preview(card)}.`, `${at}.source-card`);
      out['source-table'] = `card__${card}`;
      places.push([`${legacyAt}.source-table`, `${at}.source-card`]);
    } else {
      out['source-table'] = stage['source-table'];
    }
  }
  const scope: Scope = { expressions: new Set(), aggregations: new Map() };
  const expressions = list(stage.expressions, `${at}.expressions`);
  expressions.forEach((e, i) => {
    const name = isClause(e) && isMap(e[1]) ? e[1]['lib/expression-name'] : undefined;
    if (typeof name !== 'string' || name === '')
      throw new InvalidQueryError('an expression needs its name in the "lib/expression-name" option.', `${at}.expressions[${i}]`);
    if (scope.expressions.has(name)) throw new InvalidQueryError(`the expression name "${name}" is used twice.`, `${at}.expressions[${i}]`);
    scope.expressions.add(name);
  });
  const aggregations = list(stage.aggregation, `${at}.aggregation`);
  aggregations.forEach((a, i) => {
    const uuid = isClause(a) && isMap(a[1]) ? a[1]['lib/uuid'] : undefined;
    if (typeof uuid === 'string') scope.aggregations.set(uuid, i);
  });
  const joins = list(stage.joins, `${at}.joins`);
  if (joins.length) out.joins = joins.map((j, i) => convertJoin(j, `${at}.joins[${i}]`, `${legacyAt}.joins[${i}]`, scope, places));
  if (expressions.length) {
    out.expressions = Object.fromEntries(
      expressions.map((e, i) => {
        const name = (e as [string, Record<string, unknown>])[1]['lib/expression-name'] as string;
        places.push([`${legacyAt}.expressions.${name}`, `${at}.expressions[${i}]`]);
        return [name, clause(e, `${at}.expressions[${i}]`, scope)];
      }),
    );
  }
  for (const key of ['fields', 'breakout'] as const) {
    const refs = list(stage[key], `${at}.${key}`);
    if (refs.length) out[key] = refs.map((r, i) => clause(r, `${at}.${key}[${i}]`, scope));
  }
  const filters = list(stage.filters, `${at}.filters`);
  if (filters.length) out.filter = conjunction(filters, `${at}.filters`, `${legacyAt}.filter`, scope, places);
  if (aggregations.length) out.aggregation = aggregations.map((a, i) => aggregation(a, `${at}.aggregation[${i}]`, scope));
  const orderBy = list(stage['order-by'], `${at}.order-by`);
  if (orderBy.length) {
    out['order-by'] = orderBy.map((o, i) => {
      const path = `${at}.order-by[${i}]`;
      const dir = isClause(o) ? kebab(o[0]) : undefined;
      if (!isClause(o) || (dir !== 'asc' && dir !== 'desc') || !isMap(o[1]) || o.length !== 3)
        throw new InvalidQueryError(`expected ["asc" | "desc", {options}, ref], got ${preview(o)}.`, path);
      return [dir, clause(o[2], path, scope)];
    });
  }
  if (stage.limit !== undefined && stage.limit !== null) out.limit = stage.limit;
  if (stage.page !== undefined && stage.page !== null) out.page = stage.page;
  return out;
}

function convertJoin(raw: unknown, at: string, legacyAt: string, parent: Scope, places: Places): Record<string, unknown> {
  if (!isMap(raw)) throw new InvalidQueryError(`expected a join map, got ${preview(raw)}.`, at);
  const join = kebabKeys(raw);
  places.push([legacyAt, at]);
  const out: Record<string, unknown> = {};
  const stages = join.stages;
  if (!Array.isArray(stages) || stages.length === 0) throw new InvalidQueryError('a join needs a non-empty list of "stages".', at);
  const only = stages.length === 1 && isMap(stages[0]) ? kebabKeys(stages[0]) : undefined;
  const sourceOnly = only && Object.keys(only).every((k) => isLibKey(k) || k === 'source-table' || k === 'source-card');
  if (sourceOnly && only['source-card'] === undefined && only['source-table'] !== undefined) {
    out['source-table'] = only['source-table'];
    places.push([`${legacyAt}.source-table`, `${at}.stages[0].source-table`]);
  } else if (sourceOnly && only['source-card'] !== undefined) {
    const converted = convertStage(only, `${at}.stages[0]`, legacyAt, true, places);
    out['source-table'] = converted['source-table'];
  } else {
    out['source-query'] = chain(stages, `${at}.stages`, `${legacyAt}.source-query`, places);
  }
  if (join.alias !== undefined) out.alias = join.alias;
  if (join.strategy !== undefined) out.strategy = join.strategy;
  const conditions = list(join.conditions, `${at}.conditions`);
  if (!conditions.length) throw new InvalidQueryError('a join needs at least one condition in "conditions".', `${at}.conditions`);
  out.condition = conjunction(conditions, `${at}.conditions`, `${legacyAt}.condition`, parent, places);
  if (Array.isArray(join.fields)) out.fields = join.fields.map((r, i) => clause(r, `${at}.fields[${i}]`, parent));
  else if (join.fields !== undefined) out.fields = join.fields;
  return out;
}

/** A list of filters (ANDed) as the one legacy filter. */
function conjunction(items: unknown[], at: string, legacyAt: string, scope: Scope, places: Places): unknown {
  const converted = items.map((f, i) => clause(f, `${at}[${i}]`, scope));
  if (converted.length === 1) {
    places.push([legacyAt, `${at}[0]`]);
    return converted[0];
  }
  places.push([legacyAt, at]);
  items.forEach((_f, i) => places.push([`${legacyAt}.and[${i}]`, `${at}[${i}]`]));
  return ['and', ...converted];
}

/** An aggregation: its `name` / `display-name` options become the legacy `aggregation-options` wrapper. */
function aggregation(a: unknown, at: string, scope: Scope): unknown {
  const converted = clause(a, at, scope);
  const opts = isClause(a) && isMap(a[1]) ? kebabKeys(a[1]) : {};
  const named = Object.fromEntries(['name', 'display-name'].filter((k) => typeof opts[k] === 'string').map((k) => [k, opts[k]]));
  return Object.keys(named).length ? ['aggregation-options', converted, named] : converted;
}

export function nativeOf(stage: Record<string, unknown>, at: string): Record<string, unknown> {
  const s = kebabKeys(stage);
  if (typeof s.native !== 'string' || s.native.trim() === '')
    throw new InvalidQueryError('a native stage needs its SQL as a non-blank "native" string.', `${at}.native`);
  const tags = s['template-tags'];
  if (!isMap(tags)) return { query: s.native, ...(tags !== undefined ? { 'template-tags': tags } : {}) };
  // A field filter's `dimension` may come as an MBQL 5 field ref too.
  const scope: Scope = { expressions: new Set(), aggregations: new Map() };
  const converted = Object.fromEntries(
    Object.entries(tags).map(([name, tag]) => {
      const dim = isMap(tag) ? tag.dimension : undefined;
      if (!isClause(dim) || !isMap(dim[1])) return [name, tag];
      return [name, { ...(tag as Record<string, unknown>), dimension: clause(dim, `${at}.template-tags.${name}.dimension`, scope) }];
    }),
  );
  return { query: s.native, 'template-tags': converted };
}

export function stageMap(s: unknown, at: string): Record<string, unknown> {
  if (!isMap(s)) throw new InvalidQueryError(`expected a stage map, got ${preview(s)}.`, at);
  const type = s['lib/type'];
  if (type !== undefined && type !== 'mbql.stage/mbql' && type !== 'mbql.stage/native') {
    throw new InvalidQueryError(`unknown stage type ${preview(type)} (expected "mbql.stage/mbql" or "mbql.stage/native").`, at);
  }
  return s;
}

export function isNativeStage(s: Record<string, unknown>): boolean {
  return s['lib/type'] === 'mbql.stage/native' || (s['lib/type'] === undefined && s.native !== undefined);
}
