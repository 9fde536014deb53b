import type { EmbeddingParams } from './embed-params';

/** A parameter of a card or dashboard as stored (or derived from a template tag). */
export interface StoredParameter {
  id: string;
  type?: string;
  slug?: string;
  target?: unknown;
  [key: string]: unknown;
}

/** What a viewer may set: parameters the whitelist has `enabled` and the token does not set (Metabase's GET trimming). */
export function viewerSettable<T extends Record<string, unknown>>(
  params: T[],
  whitelist: EmbeddingParams,
  tokenParams: Record<string, unknown>,
): T[] {
  return params.filter(
    (p) => typeof p.slug === 'string' && whitelist[p.slug] === 'enabled' && !Object.prototype.hasOwnProperty.call(tokenParams, p.slug),
  );
}

interface DashboardView {
  parameters: unknown;
  dashcards: Array<{ parameter_mappings: Array<{ parameter_id?: unknown }> } & Record<string, unknown>>;
}

/**
 * The public shape of a dashboard with only the parameters a viewer may set, and each dashcard's mappings of the
 * others dropped (Metabase's `remove-locked-parameters`): nothing on the wire says a locked or token value exists.
 */
export function embedDashboardView<V extends DashboardView>(view: V, shown: Array<{ id: string }>): V {
  const ids = new Set(shown.map((p) => p.id));
  return {
    ...view,
    parameters: shown,
    dashcards: view.dashcards.map((dc) => ({
      ...dc,
      parameter_mappings: dc.parameter_mappings.filter((m) => typeof m.parameter_id === 'string' && ids.has(m.parameter_id)),
    })),
  };
}
