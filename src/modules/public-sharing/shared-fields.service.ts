import { Injectable } from '@nestjs/common';
import type { SharedGrant } from '../../common/auth/shared-grant';
import { ForbiddenError, MessageError } from '../../common/errors/api-errors';
import { parseJson } from '../../common/database/stored-json';
import { CardParamsService, targetField } from '../cards';
import type { CardRow } from '../../schema/card.rows';
import { columnField, DashboardParamsService } from '../dashboard-queries';
import { dashboardCardIds, type ReadableDashboard } from '../dashboards';
import type { ParameterValues } from '../dataset';
import {
  FieldDataService,
  FieldMetadataCache,
  FieldRemappingService,
  FieldsRepository,
  FieldValuesService,
  hiddenValues,
  isa,
  showable,
} from '../fields';
import type { WarehouseField } from '../../schema/field.entity';
import { paramField, type ParamFieldRelations, type ParamFields } from './shared-views';
import { SharedQueriesService } from './shared-queries.service';

/** A shared object's parameter fields: what its field look-ups may read. */
export type FieldAllowlist = ReadonlySet<number>;

/** A disallowed second field of a search or remapping (Metabase's check-search-field-is-allowed answers 400). */
export const PAIR_NOT_ALLOWED =
  'The second field must be the field itself, the field its values are remapped to, or, for a primary key, a name field of its table.';

/**
 * The field and parameter look-ups around a shared card or dashboard (public links; the embedding module reuses it):
 * field values, search and remapping only for the fields the object's parameters filter on (anything else: 403,
 * which the public surface answers as `An error occurred.`), paired only with what FieldRemappingService allows
 * (else 400), never for sensitive or retired fields; parameter values, searches (chain filters on dashboards) and
 * remappings through the cards' and dashboards' own parameter services. Every look-up reads with the grant the
 * route's guard produced (`grant`): the object's own authority, which those services never take for an admin's.
 */
@Injectable()
export class SharedFieldsService {
  constructor(
    private readonly shared: SharedQueriesService,
    private readonly fields: FieldsRepository,
    private readonly fieldCache: FieldMetadataCache,
    private readonly fieldValues: FieldValuesService,
    private readonly fieldData: FieldDataService,
    private readonly remaps: FieldRemappingService,
    private readonly cardParams: CardParamsService,
    private readonly dashboardParams: DashboardParamsService,
  ) {}

  /** The fields a card's parameters and field-filter tags filter on. */
  cardFields(card: CardRow): FieldAllowlist {
    const query = parseJson<unknown>(card.dataset_query, null);
    const ids = new Set<number>();
    for (const p of parseJson<Array<Record<string, unknown>>>(card.parameters, [])) {
      const id = p ? targetField(p.target, query) : null;
      if (id !== null) ids.add(id);
    }
    const tags =
      (query as { native?: { 'template-tags'?: Record<string, { type?: string; dimension?: unknown }> } } | null)?.native?.[
        'template-tags'
      ] ?? {};
    for (const [name, t] of Object.entries(tags)) {
      if (t?.type !== 'dimension') continue;
      const id = targetField(['dimension', ['template-tag', name]], query);
      if (id !== null) ids.add(id);
    }
    return ids;
  }

  /** The fields the dashboard's parameters (or the one `paramKey`) are mapped to on its (unarchived) cards. */
  async dashboardFields(found: ReadableDashboard, cards?: Map<number, CardRow>, paramKey?: string): Promise<FieldAllowlist> {
    const byId = cards ?? (await this.dashboardCards(found));
    const ids = new Set<number>();
    for (const dc of found.dashcards) {
      for (const m of dc.parameter_mappings) {
        if (paramKey !== undefined && m.parameter_id !== paramKey) continue;
        const card = byId.get(Number(m.card_id ?? dc.card_id));
        if (!card) continue;
        const id = targetField(m.target, parseJson<unknown>(card.dataset_query, null)) ?? columnField(m.target, card.result_metadata);
        if (id !== null) ids.add(id);
      }
    }
    return ids;
  }

  /** The dashboard's unarchived cards (dashcards and series), by id. */
  dashboardCards(found: ReadableDashboard): Promise<Map<number, CardRow>> {
    return this.shared.cardsById(dashboardCardIds(found));
  }

  /**
   * `param_fields` of the GET answers: the allowed fields that may be shown, each with what its widget may look up
   * (Metabase's params hydration): `name_field` for a primary key and its dimensions with their human-readable
   * field. Nothing sensitive or retired is named.
   */
  async paramFields(allowed: FieldAllowlist): Promise<ParamFields> {
    const ids = [...allowed].sort((a, b) => a - b);
    if (ids.length === 0) return {};
    // The same for every viewer of the object: kept until field metadata changes.
    return this.fieldCache.remember(`shared-param-fields:${ids.join(',')}`, () => this.loadParamFields(ids));
  }

  private async loadParamFields(ids: number[]): Promise<ParamFields> {
    const found = (await this.fields.fieldsByIds(ids)).filter(showable);
    const dimensions = await this.fields.dimensions(found.map((f) => f.id));
    const human = await this.fields.fieldsByIds(dimensions.map((d) => d.human_readable_field_id).filter((id): id is number => id !== null));
    const byId = new Map(human.filter(showable).map((f) => [f.id, f]));
    const names = await this.remaps.nameFields(found.filter((f) => isa(f.semantic_type, 'type/PK')).map((f) => f.table_id));
    const rel: ParamFieldRelations = {
      nameField: (f: WarehouseField) => (isa(f.semantic_type, 'type/PK') ? (names.get(f.table_id) ?? null) : null),
      field: (id: number | null) => (id === null ? null : (byId.get(id) ?? null)),
      dimensions: (f: WarehouseField) =>
        dimensions.filter((d) => d.field_id === f.id && (d.human_readable_field_id === null || byId.has(d.human_readable_field_id))),
    };
    return Object.fromEntries(found.map((f) => [String(f.id), paramField(f, rel)]));
  }

  async values(grant: SharedGrant, allowed: FieldAllowlist, fieldId: number) {
    await this.assertAllowed(allowed, fieldId);
    return this.fieldValues.values(grant, fieldId);
  }

  async search(grant: SharedGrant, allowed: FieldAllowlist, fieldId: number, searchFieldId: number, value: string, limit?: number) {
    await this.assertPair(allowed, fieldId, searchFieldId);
    return this.fieldData.search(grant, fieldId, searchFieldId, value, limit);
  }

  async remapping(grant: SharedGrant, allowed: FieldAllowlist, fieldId: number, remappedId: number, value: string) {
    await this.assertPair(allowed, fieldId, remappedId);
    return this.fieldData.remapping(grant, fieldId, remappedId, value);
  }

  /** A parameter's values; none are read from a retired field (a sensitive one the field services refuse too). */
  async cardParamValues(grant: SharedGrant, card: CardRow, paramKey: string, query?: string): Promise<ParameterValues> {
    const field = cardParamField(card, paramKey);
    if (field !== null) await this.assertShowable(field);
    return this.cardParams.valuesOf(grant, card.id, paramKey, query);
  }

  /**
   * A parameter's display value for `value`. `constraints` (an embed token's values on other parameters' fields)
   * must leave a row with that value, else no label is shown (Metabase's card-param-constraints).
   */
  async cardParamRemapping(
    grant: SharedGrant,
    card: CardRow,
    paramKey: string,
    value: string,
    constraints: CardConstraint[] = [],
  ): Promise<unknown[]> {
    const field = cardParamField(card, paramKey);
    if (field !== null) await this.assertShowable(field);
    const source = parseJson<Array<Record<string, unknown>>>(card.parameters, []).find((p) => p && p.id === paramKey)?.values_source_type;
    if (field !== null && source !== 'static-list' && source !== 'card' && constraints.length > 0) {
      if (!(await this.dashboardParams.occursUnder(grant, field, value, constraints))) return [value];
    }
    return this.cardParams.remappedValue(grant, card.id, paramKey, value);
  }

  /** Chain filters: the other parameters' values in `given` (by parameter id) narrow the values. No hidden field is read. */
  async dashboardParamValues(
    grant: SharedGrant,
    found: ReadableDashboard,
    paramKey: string,
    given: Record<string, unknown>,
    query?: string,
  ): Promise<ParameterValues> {
    for (const id of await this.dashboardFields(found, undefined, paramKey)) await this.assertShowable(id);
    return this.dashboardParams.valuesOf(grant, found.dashboard.id, paramKey, given, query);
  }

  /** A dashboard parameter's display value for `value`; `given` (by parameter id) must leave a row with it. */
  async dashboardParamRemapping(
    grant: SharedGrant,
    found: ReadableDashboard,
    paramKey: string,
    value: string,
    given: Record<string, unknown> = {},
  ): Promise<unknown[]> {
    for (const id of await this.dashboardFields(found, undefined, paramKey)) await this.assertShowable(id);
    return this.dashboardParams.remappedValue(grant, found.dashboard.id, paramKey, value, given);
  }

  private async assertAllowed(allowed: FieldAllowlist, fieldId: number): Promise<void> {
    if (!allowed.has(fieldId)) throw new ForbiddenError();
    await this.assertShowable(fieldId);
  }

  /** The first field one of the object's, the second one it may be paired with (400 otherwise), both showable. */
  private async assertPair(allowed: FieldAllowlist, fieldId: number, secondId: number): Promise<void> {
    await this.assertAllowed(allowed, fieldId);
    const field = await this.fields.findField(fieldId);
    if (field && !(await this.remaps.isAllowedPair(field, secondId))) throw new MessageError(PAIR_NOT_ALLOWED);
    await this.assertShowable(secondId);
  }

  /** Sensitive and retired fields are never read for a shared object; an unknown field is left to answer 404. */
  private async assertShowable(fieldId: number): Promise<void> {
    const field = await this.fields.findField(fieldId);
    if (field && hiddenValues(field)) throw new ForbiddenError();
  }
}

/** An embed token's value on a card parameter's field, as a constraint of a card parameter's look-ups. */
export interface CardConstraint {
  fieldId: number;
  type: string;
  value: unknown;
}

/** The field a card's parameter `paramKey` filters on, if any. */
function cardParamField(card: CardRow, paramKey: string): number | null {
  const param = parseJson<Array<Record<string, unknown>>>(card.parameters, []).find((p) => p && p.id === paramKey);
  return param ? targetField(param.target, parseJson<unknown>(card.dataset_query, null)) : null;
}
