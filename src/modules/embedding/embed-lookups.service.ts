import { Injectable } from '@nestjs/common';
import { parseJson } from '../../common/database/stored-json';
import { MessageError } from '../../common/errors/api-errors';
import { targetField } from '../cards';
import type { CardRow } from '../../schema/card.rows';
import type { ParameterValues } from '../dataset';
import { type FieldAllowlist, SharedFieldsService } from '../public-sharing';
import { cardOf, cardParameters, dashboardOf, dashboardParameters, toDashboardValues } from './embed-grant';
import { mergeEmbedParams, viewerValues } from './embed-params';
import type { EmbedGrant } from './embed-token.guard';
import { viewerSettable, type StoredParameter } from './embed-views';

/**
 * The look-ups of an embed's filter widgets, through the public-sharing module's SharedFieldsService with the token's
 * grant: field values,
 * search and remapping only for the fields behind the parameters a viewer may set (enabled in the whitelist, not set by
 * the token: a locked parameter's field would list every value the token is there to hide), and a dashboard
 * parameter's values with the token's values, locked ones included, as chain-filter constraints.
 */
@Injectable()
export class EmbedLookupsService {
  constructor(private readonly fields: SharedFieldsService) {}

  async values(grant: EmbedGrant, fieldId: number) {
    return this.fields.values(grant, await this.allowed(grant), fieldId);
  }

  async search(grant: EmbedGrant, fieldId: number, searchFieldId: number, value: string, limit?: number) {
    return this.fields.search(grant, await this.allowed(grant), fieldId, searchFieldId, value, limit);
  }

  async remapping(grant: EmbedGrant, fieldId: number, remappedId: number, value: string) {
    return this.fields.remapping(grant, await this.allowed(grant), fieldId, remappedId, value);
  }

  /**
   * GET .../params/:param-key/values and .../search/:prefix. The parameter must be one the viewer may set; the other
   * parameters' values from the query string (by parameter id, as Metabase's chain filters send them) pass the
   * whitelist's rules together with the token's, and all of them constrain the values (Metabase's `dashboard-param-values`).
   */
  async paramValues(grant: EmbedGrant, paramKey: string, query: Record<string, unknown>, prefix?: string): Promise<ParameterValues> {
    const found = dashboardOf(grant);
    const params = dashboardParameters(found);
    const slug = params.find((p) => p.id === paramKey)?.slug;
    if (typeof slug !== 'string' || grant.whitelist[slug] !== 'enabled') {
      throw new MessageError(`Cannot search for values: ${JSON.stringify(slug ?? paramKey)} is not an enabled parameter.`);
    }
    if (Object.prototype.hasOwnProperty.call(grant.claims.params, slug))
      throw new MessageError(`You can't specify a value for ${JSON.stringify(slug)} if it's already set in the JWT.`);
    const bySlug: Record<string, unknown> = {};
    for (const [id, value] of Object.entries(viewerValues(query))) {
      const p = params.find((x) => x.id === id);
      if (!p || typeof p.slug !== 'string')
        throw new MessageError(`Invalid query params: could not determine slug for parameter with ID ${JSON.stringify(id)}`);
      bySlug[p.slug] = value;
    }
    const merged = mergeEmbedParams(grant.whitelist, grant.claims.params, bySlug);
    const given = Object.fromEntries(toDashboardValues(found, merged).map((v) => [String(v.id), v.value]));
    return this.fields.dashboardParamValues(grant, found, paramKey, given, prefix);
  }

  /**
   * GET .../card/:token/params/:param-key/remapping and the dashboard twin: the display value of a parameter the
   * viewer may set, with the token's values as constraints (Metabase's `card-param-remapped-value` and
   * `dashboard-param-remapped-value` of its embedding API).
   */
  async cardParamRemapping(grant: EmbedGrant, paramKey: string, value: string): Promise<unknown[]> {
    const card = cardOf(grant);
    const params = cardParameters(card);
    this.assertRemappable(grant, params, paramKey);
    const fromToken = mergeEmbedParams(grant.whitelist, grant.claims.params, {});
    const query = parseJson<unknown>(card.dataset_query, null);
    const constraints = params.flatMap((p) => {
      const fieldId = typeof p.slug === 'string' && p.slug in fromToken ? targetField(p.target, query) : null;
      return fieldId === null
        ? []
        : [{ fieldId, type: typeof p.type === 'string' ? p.type : 'category', value: fromToken[p.slug as string] }];
    });
    return this.fields.cardParamRemapping(grant, card, paramKey, value, constraints);
  }

  async dashboardParamRemapping(grant: EmbedGrant, paramKey: string, value: string): Promise<unknown[]> {
    const found = dashboardOf(grant);
    this.assertRemappable(grant, dashboardParameters(found), paramKey);
    const fromToken = toDashboardValues(found, mergeEmbedParams(grant.whitelist, grant.claims.params, {}));
    return this.fields.dashboardParamRemapping(
      grant,
      found,
      paramKey,
      value,
      Object.fromEntries(fromToken.map((v) => [String(v.id), v.value])),
    );
  }

  /** As for values: only a parameter the whitelist enables and the token does not set. */
  private assertRemappable(grant: EmbedGrant, params: StoredParameter[], paramKey: string): void {
    const slug = params.find((p) => p.id === paramKey)?.slug;
    if (typeof slug !== 'string' || grant.whitelist[slug] !== 'enabled') {
      throw new MessageError(`Cannot get remapped value for parameter: ${JSON.stringify(slug ?? paramKey)} is not an enabled parameter.`);
    }
    if (Object.prototype.hasOwnProperty.call(grant.claims.params, slug))
      throw new MessageError(`You can't specify a value for ${JSON.stringify(slug)} if it's already set in the JWT.`);
  }

  /** The fields behind the parameters a viewer may set. */
  async allowed(grant: EmbedGrant, cards?: Map<number, CardRow>): Promise<FieldAllowlist> {
    if (grant.card) {
      const card = cardOf(grant);
      const query = parseJson<unknown>(card.dataset_query, null);
      const ids = new Set<number>();
      for (const p of viewerSettable(cardParameters(card), grant.whitelist, grant.claims.params)) {
        const id = targetField(p.target, query);
        if (id !== null) ids.add(id);
      }
      return ids;
    }
    const found = dashboardOf(grant);
    const shown = new Set(viewerSettable(dashboardParameters(found), grant.whitelist, grant.claims.params).map((p) => p.id));
    const onlyShown = {
      ...found,
      dashcards: found.dashcards.map((dc) => ({
        ...dc,
        parameter_mappings: dc.parameter_mappings.filter((m) => shown.has(m.parameter_id)),
      })),
    };
    return this.fields.dashboardFields(onlyShown, cards);
  }
}
