import type { DashboardParameter, SentParameter } from '../api/dashboard-types';

export type FilterValues = Record<string, unknown>;

/** A value counts when set: not null, not an empty string or list. */
export function isSet(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return false;
  return !(Array.isArray(v) && v.length === 0);
}

/** The starting values: each parameter's default. */
export function defaultValues(parameters: DashboardParameter[]): FilterValues {
  const out: FilterValues = {};
  for (const p of parameters) if (isSet(p.default)) out[p.id] = p.default;
  return out;
}

/** What a card's query is sent: the set values, `[{id, type, value}]` (the server maps them through the dashcard). */
export function sentParameters(parameters: DashboardParameter[], values: FilterValues): SentParameter[] {
  return parameters.filter((p) => isSet(values[p.id])).map((p) => ({ id: p.id, type: p.type, value: values[p.id] }));
}

/** A required filter without a value keeps its cards from running (the server would refuse them). */
export function missingRequired(parameters: DashboardParameter[], values: FilterValues): DashboardParameter[] {
  return parameters.filter((p) => p.required === true && !isSet(values[p.id]));
}

/**
 * The chain-filter constraints of a values request: the values of the parameters linked to this one
 * (`filteringParameters`), or, when it names none, of every other parameter (Metabase's default).
 */
export function constraints(p: DashboardParameter, parameters: DashboardParameter[], values: FilterValues): Record<string, string[]> {
  const linked = p.filteringParameters;
  const out: Record<string, string[]> = {};
  for (const other of parameters) {
    if (other.id === p.id || !isSet(values[other.id])) continue;
    if (linked && !linked.includes(other.id)) continue;
    const v = values[other.id];
    out[other.id] = (Array.isArray(v) ? v : [v]).map(String);
  }
  return out;
}

/**
 * The values a dashboard's URL gives, by slug (`?category=Home&category=Toys`, as Metabase links filtered dashboards):
 * a list for list and number filters, one value for a date. A slug given empty clears the filter's default; a slug
 * not given keeps it.
 */
export function valuesFromUrl(parameters: DashboardParameter[], search: URLSearchParams): FilterValues {
  const out = defaultValues(parameters);
  for (const p of parameters) {
    if (!search.has(p.slug)) continue;
    const given = search.getAll(p.slug).filter((v) => v !== '');
    const kind = widgetKind(p.type);
    if (given.length === 0) delete out[p.id];
    else if (kind === 'date') out[p.id] = given[0];
    else if (kind === 'number') {
      const nums = given.map(Number).filter((n) => Number.isFinite(n));
      if (nums.length) out[p.id] = nums;
      else delete out[p.id];
    } else out[p.id] = given;
  }
  return out;
}

/**
 * The URL's query for these values: each set filter by its slug, an emptied default as an empty slug (so the link
 * opens with it cleared), other keys of `current` kept.
 */
export function urlWithValues(parameters: DashboardParameter[], values: FilterValues, current: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const p of parameters) {
    next.delete(p.slug);
    const v = values[p.id];
    if (isSet(v)) for (const one of Array.isArray(v) ? v : [v]) next.append(p.slug, String(one));
    else if (isSet(p.default)) next.set(p.slug, '');
  }
  return next;
}

/** Which widget a parameter type gets. */
export type WidgetKind = 'list' | 'number' | 'date' | 'text';
export function widgetKind(type: string): WidgetKind {
  if (type.startsWith('date/')) return 'date';
  if (type === 'number' || type.startsWith('number/')) return 'number';
  if (type === 'category' || type === 'id' || type.startsWith('string/') || type.startsWith('location/') || type.startsWith('id/'))
    return 'list';
  return 'text';
}

/** The filter types the editor offers, as Metabase's "Add a filter" menu groups them. */
export const FILTER_TYPES: Array<{ type: string; sectionId: string; label: string }> = [
  { type: 'string/=', sectionId: 'string', label: 'Text or category' },
  { type: 'category', sectionId: 'string', label: 'Category' },
  { type: 'string/=', sectionId: 'location', label: 'Location' },
  { type: 'id', sectionId: 'id', label: 'ID' },
  { type: 'number/=', sectionId: 'number', label: 'Number' },
  { type: 'number/between', sectionId: 'number', label: 'Number between' },
  { type: 'date/all-options', sectionId: 'date', label: 'Date' },
  { type: 'date/single', sectionId: 'date', label: 'Single date' },
];

/** A slug from a name, as Metabase makes parameter slugs. */
export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'filter'
  );
}

/** A URL's dashboard id from `:id-slug` (`12-sales-overview` is 12); NaN when it starts with no number. */
export function idFromSlug(slug: string | undefined): number {
  const m = /^(\d+)/.exec(slug ?? '');
  return m ? Number(m[1]) : NaN;
}
