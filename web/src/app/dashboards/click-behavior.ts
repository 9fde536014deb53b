import type { DashboardParameter } from '../api/dashboard-types';

/** Which column of the clicked row sets which parameter (of this dashboard, or of the dashboard a link opens). */
export type ParameterMapping = Record<
  string,
  { id: string; source: { type: 'column'; id: string; name: string }; target: { type: 'parameter'; id: string } }
>;

/**
 * What a click on a card's value does, as Metabase stores it in the dashcard's `visualization_settings.click_behavior`:
 * filter this dashboard (`crossfilter`: each parameter takes the value of a column of the clicked row), or go to a
 * URL (`{{column}}` replaced by the row's values), a saved question or a dashboard (its filters set from the row).
 */
export type ClickBehavior =
  | { type: 'crossfilter'; parameterMapping: ParameterMapping }
  | { type: 'link'; linkType: 'url'; linkTemplate: string }
  | { type: 'link'; linkType: 'question'; targetId: number }
  | { type: 'link'; linkType: 'dashboard'; targetId: number; parameterMapping?: ParameterMapping };

/** The mapping from parameter ids to the columns that set them, as the click behaviour stores it. */
export function mappingOf(columns: Record<string, string | null>): ParameterMapping {
  const out: ParameterMapping = {};
  for (const [id, column] of Object.entries(columns))
    if (column) out[id] = { id, source: { type: 'column', id: column, name: column }, target: { type: 'parameter', id } };
  return out;
}

export function clickBehaviorOf(settings: Record<string, unknown>): ClickBehavior | null {
  const b = settings.click_behavior as ClickBehavior | undefined;
  if (!b || typeof b !== 'object') return null;
  if (b.type === 'crossfilter' && b.parameterMapping) return b;
  if (b.type === 'link' && b.linkType === 'url' && typeof b.linkTemplate === 'string' && b.linkTemplate) return b;
  if (b.type === 'link' && (b.linkType === 'question' || b.linkType === 'dashboard') && typeof b.targetId === 'number') return b;
  return null;
}

/**
 * What the click leads to: filter values to set, a URL to open, a path of the application, or a dashboard opened
 * with values for its filters (by their ids: the page finds their slugs).
 */
export type ClickAction =
  | { kind: 'filter'; values: Record<string, unknown> }
  | { kind: 'url'; url: string }
  | { kind: 'path'; path: string }
  | { kind: 'dashboard'; id: number; values: Record<string, string[]> };

export function clickAction(
  b: ClickBehavior,
  row: unknown[],
  cols: Array<{ name: string }>,
  parameters: DashboardParameter[],
): ClickAction | null {
  const valueOf = (name: string) => row[cols.findIndex((c) => c.name === name)];
  const valuesOf = (mapping: ParameterMapping, known: (id: string) => boolean) => {
    const values: Record<string, string[]> = {};
    for (const m of Object.values(mapping)) {
      if (!known(m.target.id)) continue;
      const v = valueOf(m.source.id);
      if (v !== undefined && v !== null) values[m.target.id] = [String(v)];
    }
    return values;
  };
  if (b.type === 'crossfilter') {
    const values = valuesOf(b.parameterMapping, (id) => parameters.some((p) => p.id === id));
    return Object.keys(values).length ? { kind: 'filter', values } : null;
  }
  if (b.linkType === 'dashboard') return { kind: 'dashboard', id: b.targetId, values: valuesOf(b.parameterMapping ?? {}, () => true) };
  if (b.linkType === 'url') {
    const url = b.linkTemplate.replace(/\{\{\s*([^}]+?)\s*\}\}/g, (_, name: string) => encodeURIComponent(String(valueOf(name) ?? '')));
    // Only web and mail links: a template must not become a javascript: URL.
    return /^(https?:|mailto:|\/)/i.test(url) ? { kind: 'url', url } : null;
  }
  return { kind: 'path', path: `/${b.linkType}/${b.targetId}` };
}
