import type { InnerQuery, NativeColumn, NativeQuery } from '../../query-engine/mbql/types';
import type { NativeQuestion, RowCondition, TableRestriction } from '../../query-engine/preprocess/row-policies';
import type { FieldRow, PolicyRow } from './row-policies.repository';

/** What deciding a caller's restrictions on one database takes, read by RowSecurityService. */
export interface RestrictionInput {
  /** The policies of the caller's groups on the database's tables. */
  policies: PolicyRow[];
  /** The caller's groups that may read the database (its data access before policies). */
  readers: number[];
  /** The fields of the policies' tables. */
  fields: FieldRow[];
  attributes: Record<string, unknown>;
}

/**
 * The tables restricted for a caller, with the filters that apply. A table is restricted by the policies of the
 * caller's groups that may read the database, unless one of those groups reads it without a policy (Metabase: an
 * unrestricted group lifts the sandbox). Several applying filter policies combine by OR (Metabase refuses two).
 */
export function restrictionsOf(input: RestrictionInput): Map<number, TableRestriction> {
  const readers = new Set(input.readers);
  const byTable = new Map<number, PolicyRow[]>();
  for (const p of input.policies) if (readers.has(p.group_id)) byTable.set(p.table_id, [...(byTable.get(p.table_id) ?? []), p]);
  const out = new Map<number, TableRestriction>();
  for (const [tableId, policies] of byTable) {
    const withPolicy = new Set(policies.map((p) => p.group_id));
    if ([...readers].some((g) => !withPolicy.has(g))) continue;
    const fields = input.fields.filter((f) => f.table_id === tableId);
    const restriction: TableRestriction = { tableId, groups: policies.map((p) => p.group_name), filters: [] };
    try {
      if (policies.some((p) => isNative(p.card_query))) restriction.nativeQuestion = nativeQuestionOf(policies, input.attributes);
      else if (policies.some((p) => p.card_id !== null)) restriction.question = questionOf(policies, fields, input.attributes);
      else restriction.filters = policies.map((p) => ({ group: p.group_name, conditions: conditionsOf(p, fields, input.attributes) }));
    } catch (e) {
      // Only a query that reads the table fails: a policy that cannot be applied never lets its rows through.
      if (!(e instanceof Refusal)) throw e;
      restriction.refusal = e.message;
    }
    out.set(tableId, restriction);
  }
  return out;
}

class Refusal extends Error {}

function isNative(query: unknown): query is { type: 'native'; native: NativeQuery } {
  const q = query as { type?: unknown; native?: { query?: unknown } } | null;
  return !!q && q.type === 'native' && typeof q.native?.query === 'string';
}

/**
 * A SQL question standing in for a table: its attributes fill in its template tags (`["variable" | "dimension",
 * ["template-tag", name]]`). Its SQL cannot be combined with another policy's rows, so it must be the only policy
 * that applies to the table.
 */
function nativeQuestionOf(policies: PolicyRow[], attributes: Record<string, unknown>): NativeQuestion {
  if (policies.length > 1)
    throw new Refusal(
      `The row security policies of groups ${policies.map((p) => p.group_name).join(', ')} on this table cannot be combined: ` +
        'one of them uses a SQL question.',
    );
  const [p] = policies;
  const query = p.card_query as { native: NativeQuery };
  const bindings = Object.entries(p.attribute_remappings).map(([attribute, target]) => {
    const tag = templateTagOf(target);
    if (!tag || !query.native['template-tags']?.[tag.name])
      throw new Refusal(`The row security policy of group ${p.group_name} maps attribute \`${attribute}\` to no variable of its question.`);
    return { tag: tag.name, kind: tag.kind, attribute, value: attributes[attribute] };
  });
  return { group: p.group_name, cardId: p.card_id!, query: query.native, columns: nativeColumns(p.card_columns), bindings };
}

/** A remapping's target in a SQL question: `["variable" | "dimension", ["template-tag", name]]`. */
export function templateTagOf(target: unknown): { kind: 'variable' | 'dimension'; name: string } | undefined {
  if (!Array.isArray(target) || (target[0] !== 'variable' && target[0] !== 'dimension')) return undefined;
  const ref = target[1] as unknown;
  if (!Array.isArray(ref) || ref[0] !== 'template-tag' || typeof ref[1] !== 'string') return undefined;
  return { kind: target[0], name: ref[1] };
}

function nativeColumns(metadata: unknown): NativeColumn[] {
  if (!Array.isArray(metadata)) return [];
  return metadata.filter(
    (c): c is NativeColumn => !!c && typeof (c as NativeColumn).name === 'string' && typeof (c as NativeColumn).base_type === 'string',
  );
}

/**
 * The question standing in for a table. Several policies combine as the UNION of their questions when the questions
 * return the same columns from the same rows, differing only in their filters (and a filter policy counts as the
 * whole table): one query whose rows pass any policy's filter. Otherwise they are refused, naming the groups. A
 * native question (whose SQL could not be filtered) is refused.
 */
function questionOf(policies: PolicyRow[], fields: FieldRow[], attributes: Record<string, unknown>): TableRestriction['question'] {
  const groups = policies.map((p) => p.group_name);
  const queries = policies.map((p) => {
    const query = p.card_query as { type?: unknown; query?: unknown } | null;
    if (p.card_id === null || !query || query.type !== 'query' || !query.query || typeof query.query !== 'object') {
      if (p.card_id !== null)
        throw new Refusal(
          `The row security policy of group ${p.group_name} uses a question that no longer exists or is not a query builder question.`,
        );
      return null;
    }
    return query.query as InnerQuery;
  });
  const shapes = queries.map((q) => (q ? JSON.stringify({ ...q, filter: undefined }) : null));
  const [first] = queries;
  if (policies.length > 1 && (!first || shapes.some((s) => s !== shapes[0]) || !unionable(first)))
    throw new Refusal(
      `The row security policies of groups ${groups.join(', ')} on this table return different columns or rows; ` +
        'they cannot be combined.',
    );
  const { filter: _filter, ...query } = first!;
  return {
    groups,
    cardIds: policies.map((p) => p.card_id!),
    query,
    parts: policies.map((p, i) => ({
      group: p.group_name,
      ...(queries[i]!.filter ? { filter: queries[i]!.filter } : {}),
      conditions: conditionsOf(p, fields, attributes),
    })),
  };
}

/** A question whose rows are its source's rows, one for one: the union of two such differs only in the filter. */
function unionable(q: InnerQuery): boolean {
  return !q.aggregation?.length && !q.breakout?.length && q.limit === undefined && !q.page && !q.joins?.length && !q['source-query'];
}

function conditionsOf(p: PolicyRow, fields: FieldRow[], attributes: Record<string, unknown>): RowCondition[] {
  return Object.entries(p.attribute_remappings).map(([attribute, target]) => {
    const field = fieldOf(target, fields);
    if (!field)
      throw new Refusal(`The row security policy of group ${p.group_name} maps attribute \`${attribute}\` to no column of its table.`);
    return { fieldId: field.id, column: field.name, baseType: field.base_type, attribute, value: attributes[attribute] };
  });
}

/** A remapping's target: a column name, a field id, or `["dimension", ["field", id or name, opts]]`. */
export function fieldOf(target: unknown, fields: FieldRow[]): FieldRow | undefined {
  if (typeof target === 'string')
    return fields.find((f) => f.name === target) ?? fields.find((f) => f.name.toLowerCase() === target.toLowerCase());
  if (typeof target === 'number') return fields.find((f) => f.id === target);
  if (Array.isArray(target) && target[0] === 'dimension' && Array.isArray(target[1]) && target[1][0] === 'field')
    return fieldOf(target[1][1], fields);
  return undefined;
}

/** The restrictions as one canonical text: results (cache, shared runs) are shared only between callers with the same. */
export function restrictionsKey(map: ReadonlyMap<number, TableRestriction>): string {
  if (map.size === 0) return '';
  const tables = [...map.values()]
    .sort((a, b) => a.tableId - b.tableId)
    .map((r) => [
      r.tableId,
      r.refusal ?? null,
      r.question
        ? [
            r.question.cardIds,
            r.question.query,
            r.question.parts.map((p) => [p.filter ?? null, p.conditions.map((c) => [c.fieldId, c.value ?? null])]),
          ]
        : null,
      r.filters.map((f) => f.conditions.map((c) => [c.fieldId, c.value ?? null])),
      r.nativeQuestion
        ? [r.nativeQuestion.cardId, r.nativeQuestion.query, r.nativeQuestion.bindings.map((b) => [b.tag, b.kind, b.value ?? null])]
        : null,
    ]);
  return JSON.stringify(tables);
}

/**
 * The fields of its table a question policy leaves visible (Metabase: those of the question's `fields` clause), or
 * null for all of them: a question without `fields` returns its table's columns, one that aggregates only its
 * breakouts.
 */
export function questionFieldIds(query: InnerQuery): number[] | null {
  const ids = (refs: unknown) =>
    Array.isArray(refs)
      ? refs.filter((r) => Array.isArray(r) && r[0] === 'field' && typeof r[1] === 'number').map((r) => r[1] as number)
      : [];
  if (Array.isArray(query.fields)) return ids(query.fields);
  if (Array.isArray(query.aggregation) && query.aggregation.length) return ids(query.breakout);
  return Array.isArray(query.breakout) && query.breakout.length ? ids(query.breakout) : null;
}
