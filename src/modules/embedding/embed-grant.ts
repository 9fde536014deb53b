import { MessageError } from '../../common/errors/api-errors';
import type { CardRow } from '../../schema/card.rows';
import type { SentValue } from '../dashboard-queries';
import type { ReadableDashboard } from '../dashboards';
import { sharedParameters } from '../public-sharing';
import { mergeEmbedParams, viewerValues } from './embed-params';
import type { EmbedGrant } from './embed-token.guard';
import type { StoredParameter } from './embed-views';

export function cardOf(grant: EmbedGrant): CardRow {
  if (!grant.card) throw new Error('Card route behind a dashboard token');
  return grant.card;
}

export function dashboardOf(grant: EmbedGrant): ReadableDashboard {
  if (!grant.dashboard) throw new Error('Dashboard route behind a card token');
  return grant.dashboard;
}

/** The card's parameters (stored, or derived from its template tags), by slug. */
export function cardParameters(card: CardRow): StoredParameter[] {
  return (sharedParameters(card) as StoredParameter[]).filter((p) => p && typeof p.id === 'string');
}

/** The dashboard's parameters. */
export function dashboardParameters(found: ReadableDashboard): StoredParameter[] {
  return (found.dashboard.parameters_list as StoredParameter[]).filter((p) => p && typeof p.id === 'string');
}

/** Types whose values are lists (Metabase's operator parameters): a lone value from the query string is wrapped. */
const isOperator = (type: unknown) => typeof type === 'string' && /^(number|string)\//.test(type);

/**
 * The card's parameters with the values of the token and the viewer (`?slug=value` or `parameters`), after the
 * whitelist's rules: `[{id, type, target, slug, value}]` for the card query.
 */
export function cardRunParameters(grant: EmbedGrant, query: Record<string, unknown>): Array<Record<string, unknown>> {
  const merged = mergeEmbedParams(grant.whitelist, grant.claims.params, viewerValues(query));
  const out: Array<Record<string, unknown>> = [];
  for (const p of cardParameters(cardOf(grant))) {
    if (typeof p.slug !== 'string' || !Object.prototype.hasOwnProperty.call(merged, p.slug)) continue;
    const value = merged[p.slug];
    out.push({
      id: p.id,
      type: p.type ?? 'category',
      target: p.target,
      slug: p.slug,
      value: isOperator(p.type) && !Array.isArray(value) ? [value] : value,
    });
  }
  return out;
}

/** Merged slug -> value onto the dashboard's parameter ids; a slug the dashboard lacks is refused (as Metabase). */
export function toDashboardValues(found: ReadableDashboard, merged: Record<string, unknown>): SentValue[] {
  const params = dashboardParameters(found);
  return Object.entries(merged).map(([slug, value]) => {
    const p = params.find((x) => x.slug === slug);
    if (!p) throw new MessageError(`No matching parameter with slug ${JSON.stringify(slug)}.`);
    return { id: p.id, value };
  });
}

/** The dashboard's values from the token and the viewer, after the whitelist's rules, as `[{id, value}]`. */
export function dashboardRunValues(grant: EmbedGrant, query: Record<string, unknown>): SentValue[] {
  return toDashboardValues(dashboardOf(grant), mergeEmbedParams(grant.whitelist, grant.claims.params, viewerValues(query)));
}
