import type { FieldRef } from '../mbql/types';
import { validateParameterRef } from '../mbql/validate';
import { applyParameters, hasValue } from '../parameters';
import { Stage } from './context';

/**
 * The parameters of an MBQL query become filters (parameters/apply-mbql.ts); their target references are validated
 * first, as the query's own were. The base types of the fields they target are fetched first: applying them is
 * synchronous. Native queries keep their parameters for the substitution of their template tags when they are
 * compiled.
 */
export const substituteParameters: Stage = async (query, ctx) => {
  if (query.type !== 'query' || !query.query || !query.parameters?.length) return query;
  const baseTypes = new Map<number, string>();
  // Array.from: `parameters` is as sent (a string is refused by applyParameters, item by item).
  for (const [i, p] of Array.from(query.parameters).entries()) {
    const ref = Array.isArray(p?.target) && p.target[0] === 'dimension' ? (p.target[1] as FieldRef) : undefined;
    // The reference becomes part of the query's filter: checked as the query's own references were (validate.ts).
    if (Array.isArray(ref) && (ref[0] === 'field' || ref[0] === 'expression') && hasValue(p.value))
      validateParameterRef(ref, `parameters[${i}].target`);
    if (Array.isArray(ref) && ref[0] === 'field' && typeof ref[1] === 'number') {
      const f = await ctx.metadata.field(ref[1]);
      if (f) baseTypes.set(f.id, f.baseType);
    }
  }
  return { ...query, query: applyParameters(query.query, query.parameters, { fieldBaseType: (id) => baseTypes.get(id) }) };
};
