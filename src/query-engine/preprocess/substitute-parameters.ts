import type { FieldRef } from '../mbql/types';
import { applyParameters } from '../parameters';
import { Stage } from './context';

/**
 * The parameters of an MBQL query become filters (parameters/apply-mbql.ts). The base types of the fields they
 * target are fetched first: applying them is synchronous. Native queries keep their parameters for the
 * substitution of their template tags when they are compiled.
 */
export const substituteParameters: Stage = async (query, ctx) => {
  if (query.type !== 'query' || !query.query || !query.parameters?.length) return query;
  const baseTypes = new Map<number, string>();
  for (const p of query.parameters) {
    const ref = Array.isArray(p.target) && p.target[0] === 'dimension' ? (p.target[1] as FieldRef) : undefined;
    if (Array.isArray(ref) && ref[0] === 'field' && typeof ref[1] === 'number') {
      const f = await ctx.metadata.field(ref[1]);
      if (f) baseTypes.set(f.id, f.baseType);
    }
  }
  return { ...query, query: applyParameters(query.query, query.parameters, { fieldBaseType: (id) => baseTypes.get(id) }) };
};
