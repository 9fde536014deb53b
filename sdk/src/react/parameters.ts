/** A parameter of a card or a dashboard, as the API answers it. */
export interface ApiParameter {
  id: string;
  slug?: string;
  name?: string;
  type: string;
  target?: unknown;
  default?: unknown;
}

export type ParameterValue = string | number | boolean | null | Array<string | number | boolean>;
/** By slug: `{ category: ['Gizmo'] }`. */
export type ParameterValues = Record<string, ParameterValue>;

const keyOf = (p: ApiParameter) => p.slug ?? p.id;

/** The values in force: the parameter's default, overridden by the given values (by slug, or id). */
export function effectiveValues(params: ApiParameter[], values: ParameterValues): Record<string, ParameterValue> {
  const out: Record<string, ParameterValue> = {};
  for (const p of params) {
    const key = keyOf(p);
    const v = key in values ? values[key] : p.id in values ? values[p.id] : (p.default as ParameterValue | undefined);
    if (v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0) && v !== '') out[key] = v;
  }
  return out;
}

/** The `parameters` of a card query: `{id, type, target, value}` for each parameter with a value. */
export function cardQueryParameters(params: ApiParameter[], values: ParameterValues) {
  const v = effectiveValues(params, values);
  return params.filter((p) => keyOf(p) in v).map((p) => ({ id: p.id, type: p.type, target: p.target, value: v[keyOf(p)] }));
}

/** The `parameters` of a dashcard query: `{id, value}` of the dashboard's parameters. */
export function dashboardQueryParameters(params: ApiParameter[], values: ParameterValues) {
  const v = effectiveValues(params, values);
  return params.filter((p) => keyOf(p) in v).map((p) => ({ id: p.id, value: v[keyOf(p)] }));
}

export function visibleParameters(params: ApiParameter[], hidden: string[] | undefined): ApiParameter[] {
  const h = new Set(hidden ?? []);
  return params.filter((p) => !h.has(keyOf(p)) && !h.has(p.id));
}

export { keyOf as parameterKey };
