import type { DashboardParameter } from '../api/dashboard-view';

/**
 * What a click on a card's value does, as Metabase stores it in the dashcard's `visualization_settings.click_behavior`:
 * filter this dashboard (`crossfilter`: each parameter takes the value of a column of the clicked row), or go to a
 * URL (`{{column}}` replaced by the row's values), a saved question or a dashboard.
 */
export type ClickBehavior =
  | {
      type: 'crossfilter';
      parameterMapping: Record<
        string,
        { id: string; source: { type: 'column'; id: string; name: string }; target: { type: 'parameter'; id: string } }
      >;
    }
  | { type: 'link'; linkType: 'url'; linkTemplate: string }
  | { type: 'link'; linkType: 'question' | 'dashboard'; targetId: number };

export function clickBehaviorOf(settings: Record<string, unknown>): ClickBehavior | null {
  const b = settings.click_behavior as ClickBehavior | undefined;
  if (!b || typeof b !== 'object') return null;
  if (b.type === 'crossfilter' && b.parameterMapping) return b;
  if (b.type === 'link' && b.linkType === 'url' && typeof b.linkTemplate === 'string' && b.linkTemplate) return b;
  if (b.type === 'link' && (b.linkType === 'question' || b.linkType === 'dashboard') && typeof b.targetId === 'number') return b;
  return null;
}

/** What the click leads to: filter values to set, a URL to open, or a path of the application. */
export type ClickAction =
  { kind: 'filter'; values: Record<string, unknown> } | { kind: 'url'; url: string } | { kind: 'path'; path: string };

export function clickAction(
  b: ClickBehavior,
  row: unknown[],
  cols: Array<{ name: string }>,
  parameters: DashboardParameter[],
): ClickAction | null {
  const valueOf = (name: string) => row[cols.findIndex((c) => c.name === name)];
  if (b.type === 'crossfilter') {
    const values: Record<string, unknown> = {};
    for (const m of Object.values(b.parameterMapping)) {
      if (!parameters.some((p) => p.id === m.target.id)) continue;
      const v = valueOf(m.source.id);
      if (v !== undefined && v !== null) values[m.target.id] = [String(v)];
    }
    return Object.keys(values).length ? { kind: 'filter', values } : null;
  }
  if (b.linkType === 'url') {
    const url = b.linkTemplate.replace(/\{\{\s*([^}]+?)\s*\}\}/g, (_, name: string) => encodeURIComponent(String(valueOf(name) ?? '')));
    // Only web and mail links: a template must not become a javascript: URL.
    return /^(https?:|mailto:|\/)/i.test(url) ? { kind: 'url', url } : null;
  }
  return { kind: 'path', path: `/${b.linkType}/${b.targetId}` };
}
