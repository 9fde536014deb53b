import type { Parameter, ParamValues } from './types';

/** A value counts when set: not null/undefined, not an empty string or list. */
export function isSet(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return false;
  return !(Array.isArray(v) && v.length === 0);
}

/** The public API's `parameters`: the set values as `[{id, type, target, slug, value}]` (a question's need the target). */
export function publicParameters(values: ParamValues, parameters: Parameter[]): string {
  const sent = parameters
    .filter((p) => isSet(values[p.id]))
    .map((p) => ({ id: p.id, type: p.type, ...(p.target !== undefined ? { target: p.target } : {}), slug: p.slug, value: values[p.id] }));
  return JSON.stringify(sent);
}

/** The embed API's `parameters`: `{slug: value}` of the set values (the token's locked ones are the server's business). */
export function embedParameters(values: ParamValues, parameters: Parameter[]): string {
  const sent: Record<string, unknown> = {};
  for (const p of parameters) if (isSet(values[p.id])) sent[p.slug] = values[p.id];
  return JSON.stringify(sent);
}

/** Other parameters' values as chain-filter constraints of a values request: `?<id>=<value>` (lists repeated). */
export function constraintQuery(values: ParamValues, except: string): string {
  const q = new URLSearchParams();
  for (const [id, v] of Object.entries(values)) {
    if (id === except || !isSet(v)) continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(id, String(one));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}
