import type { Parameter, ParamValues } from '../api/types';

export type WidgetKind = 'date' | 'number' | 'list' | 'text';

/** Which widget a parameter type gets: dates, numbers, lists of values (categories, strings, locations, IDs). */
export function widgetKind(p: Parameter): WidgetKind {
  const type = p.type ?? '';
  if (type.startsWith('date/')) return 'date';
  if (type.startsWith('number/') || type === 'number') return 'number';
  if (type === 'category' || type.startsWith('string/') || type.startsWith('location/') || type === 'id' || type.startsWith('id/'))
    return 'list';
  return 'text';
}

/** A value from strings (a `#slug=value` default, an input): dates one string, numbers numbers, the rest a list. */
export function fromStrings(p: Parameter, strings: string[]): unknown {
  const clean = strings.map((s) => s.trim()).filter(Boolean);
  if (clean.length === 0) return null;
  switch (widgetKind(p)) {
    case 'date':
      return clean[0];
    case 'number': {
      const nums = clean
        .flatMap((s) => s.split(','))
        .map(Number)
        .filter((n) => Number.isFinite(n));
      return nums.length ? nums : null;
    }
    default:
      return clean;
  }
}

/** The starting values: each parameter's default, overridden by the page's `#slug=value` defaults. */
export function initialValues(parameters: Parameter[], defaults: Record<string, string[]>): ParamValues {
  const out: ParamValues = {};
  for (const p of parameters) {
    if (p.default !== undefined && p.default !== null) out[p.id] = p.default;
    if (defaults[p.slug]) out[p.id] = fromStrings(p, defaults[p.slug]);
  }
  return out;
}

/** A value as a widget shows it when closed. */
export function describe(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(String).join(', ');
  return String(v);
}
