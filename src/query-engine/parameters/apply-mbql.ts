import type { Filter, InnerQuery, ParameterValue } from '../mbql/types';
import { ParameterError } from './errors';
import { hasValue, parameterToFilter, type FilterTarget, type ToFilterOptions } from './to-filter';

/**
 * Applies request parameters to an MBQL query: each `["dimension", ref, opts?]` target adds a filter, joined to
 * the existing `filter` with `and`. Refs are `["field", id | name, opts]` or `["expression", name]`.
 *
 * Where: the stage named by `{"stage-number": n}` in the target's options when present (0 = innermost source
 * query, -1 = the outermost, as Metabase counts); an expression ref goes to the stage that defines the
 * expression; a field-id ref goes to the outermost stage where the field is still a column (not when an inner
 * stage aggregated it away or left it out of its `fields`); refs by name go to the outermost stage.
 *
 * `fieldBaseType` (optional) gives a field's base type so category values are typed after the field.
 * Returns a new query; the input is not modified.
 */
export interface ApplyMbqlOptions extends ToFilterOptions {
  fieldBaseType?: (fieldId: number) => string | null | undefined;
}

export function applyParameters(
  query: InnerQuery,
  parameters: readonly ParameterValue[] | undefined,
  opts: ApplyMbqlOptions = {},
): InnerQuery {
  const root = cloneStages(query);
  const stages = stagesOf(root); // innermost first
  for (const param of parameters ?? []) {
    if (!param || typeof param !== 'object') throw new ParameterError('Invalid parameter: expected an object');
    const { ref, stageNumber } = parseDimensionTarget(param.target);
    if (!hasValue(param.value)) continue;
    let stage: InnerQuery;
    if (stageNumber !== undefined) {
      const index = stageNumber < 0 ? stages.length + stageNumber : stageNumber;
      if (!Number.isInteger(index) || index < 0 || index >= stages.length) {
        throw new ParameterError(`Invalid parameter target: the query has no stage ${stageNumber}`);
      }
      stage = stages[index];
    } else if (ref[0] === 'expression') {
      const name = ref[1];
      const defining = [...stages].reverse().find((s) => s.expressions && Object.prototype.hasOwnProperty.call(s.expressions, name));
      if (!defining) throw new ParameterError(`Invalid parameter target: no expression named "${name}"`);
      stage = defining;
    } else if (typeof ref[1] === 'number') {
      const id = ref[1];
      stage = [...stages].reverse().find((s) => fieldAvailable(s, id)) ?? stages[stages.length - 1];
    } else {
      stage = stages[stages.length - 1];
    }
    const baseType = ref[0] === 'field' && typeof ref[1] === 'number' ? opts.fieldBaseType?.(ref[1]) : (ref[2]?.['base-type'] ?? undefined);
    const filter = parameterToFilter({ type: param.type, value: param.value }, ref, { ...opts, baseType: baseType ?? opts.baseType });
    if (filter) stage.filter = addFilter(stage.filter, filter);
  }
  return root;
}

/** `existing AND added`, flattening an existing top-level `and`. */
export function addFilter(existing: Filter | undefined, added: Filter): Filter {
  if (!existing) return added;
  if (existing[0] === 'and') return [...existing, added] as Filter;
  return ['and', existing, added];
}

/** Validates a `["dimension", ref, opts?]` target for an MBQL query. */
export function parseDimensionTarget(target: unknown): { ref: FilterTarget; stageNumber?: number } {
  const show = () => JSON.stringify(target) ?? String(target);
  if (!Array.isArray(target) || target[0] !== 'dimension' || !Array.isArray(target[1])) {
    throw new ParameterError(`Invalid parameter target ${show()}: expected ["dimension", ["field", ...]]`);
  }
  const ref = target[1] as unknown[];
  const extra = target[2];
  let stageNumber: number | undefined;
  if (extra !== undefined && extra !== null) {
    if (typeof extra !== 'object' || Array.isArray(extra)) throw new ParameterError(`Invalid parameter target ${show()}`);
    const n = (extra as Record<string, unknown>)['stage-number'];
    if (n !== undefined) {
      if (typeof n !== 'number' || !Number.isInteger(n)) throw new ParameterError(`Invalid parameter target ${show()}: bad stage-number`);
      stageNumber = n;
    }
  }
  if (target.length > 3) throw new ParameterError(`Invalid parameter target ${show()}`);
  const opts = ref[2];
  const optsOk = opts === undefined || opts === null || (typeof opts === 'object' && !Array.isArray(opts));
  if (ref[0] === 'field' && (typeof ref[1] === 'number' || (typeof ref[1] === 'string' && ref[1] !== '')) && optsOk && ref.length <= 3) {
    return { ref: ['field', ref[1], (opts as FilterTarget[2] & object) ?? null] as FilterTarget, stageNumber };
  }
  if (ref[0] === 'expression' && typeof ref[1] === 'string' && optsOk && ref.length <= 3) {
    return { ref: (opts ? ['expression', ref[1], opts] : ['expression', ref[1]]) as FilterTarget, stageNumber };
  }
  if (ref[0] === 'template-tag') {
    throw new ParameterError(`Invalid parameter target ${show()}: template tags are only for native queries`);
  }
  throw new ParameterError(`Invalid parameter target ${show()}: expected a field or expression reference`);
}

const refersTo = (r: unknown, id: number) => Array.isArray(r) && r[0] === 'field' && r[1] === id;

/** Whether field `id` is a column a filter of `stage` can use: its source stage passes the field through. */
function fieldAvailable(stage: InnerQuery, id: number): boolean {
  const src = stage['source-query'];
  if (!src || stage['source-table'] !== undefined) return true;
  if (src.aggregation?.length || src.breakout?.length) return (src.breakout ?? []).some((r) => refersTo(r, id));
  if (src.fields?.length) {
    const joinFields = (src.joins ?? []).flatMap((j) => (Array.isArray(j.fields) ? j.fields : []));
    if (![...src.fields, ...joinFields].some((r) => refersTo(r, id))) return false;
  }
  return fieldAvailable(src, id);
}

function cloneStages(q: InnerQuery): InnerQuery {
  const copy: InnerQuery = { ...q };
  if (q['source-query']) copy['source-query'] = cloneStages(q['source-query']);
  return copy;
}

function stagesOf(q: InnerQuery): InnerQuery[] {
  const out: InnerQuery[] = [];
  for (let s: InnerQuery | undefined = q; s; s = s['source-query']) out.unshift(s);
  return out;
}
