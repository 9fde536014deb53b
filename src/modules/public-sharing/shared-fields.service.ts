import { Injectable } from '@nestjs/common';
import { ForbiddenError } from '../../common/errors/api-errors';
import { parseJson } from '../../common/database/stored-json';
import { CardParamsService, targetField } from '../cards/card-params.service';
import type { CardRow } from '../cards/cards.repository';
import { columnField, DashboardParamsService } from '../dashboard-queries/dashboard-params.service';
import type { ReadableDashboard } from '../dashboards/dashboard-model';
import type { ParameterValues } from '../dataset/parameter-values.service';
import { FieldDataService } from '../fields/field-data.service';
import { FieldValuesService } from '../fields/field-values.service';
import { FieldsRepository } from '../fields/fields.repository';
import { paramField, type ParamFields } from './shared-views';
import { SharedQueriesService } from './shared-queries.service';
import { SHARED_READER } from './shared-reader';

/** A shared object's parameter fields: what its field look-ups may read. */
export type FieldAllowlist = ReadonlySet<number>;

/**
 * The field and parameter look-ups around a shared card or dashboard (public links; the embedding module reuses it):
 * field values, search and remapping only for the fields the object's parameters filter on (anything else: 403,
 * which the public surface answers as `An error occurred.`), never for sensitive fields; parameter values and
 * searches (chain filters on dashboards) through the cards' and dashboards' own parameter services, read as
 * SHARED_READER.
 */
@Injectable()
export class SharedFieldsService {
  constructor(
    private readonly shared: SharedQueriesService,
    private readonly fields: FieldsRepository,
    private readonly fieldValues: FieldValuesService,
    private readonly fieldData: FieldDataService,
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
    const tags = (query as { native?: { 'template-tags'?: Record<string, { type?: string; dimension?: unknown }> } } | null)?.native?.['template-tags'] ?? {};
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
    return this.shared.cardsById(found.dashcards.flatMap((dc) => [...(dc.card_id === null ? [] : [dc.card_id]), ...dc.series_card_ids]));
  }

  /** `param_fields` of the GET answers: the allowed fields that exist and are not sensitive. */
  async paramFields(allowed: FieldAllowlist): Promise<ParamFields> {
    const found = await this.fields.fieldsByIds([...allowed]);
    return Object.fromEntries(found.filter((f) => f.active && f.visibility_type !== 'sensitive').map((f) => [String(f.id), paramField(f)]));
  }

  async values(allowed: FieldAllowlist, fieldId: number) {
    await this.assertAllowed(allowed, fieldId);
    return this.fieldValues.values(SHARED_READER, fieldId);
  }

  /** The search field must be the field itself or another of the object's parameter fields (a remapped name). */
  async search(allowed: FieldAllowlist, fieldId: number, searchFieldId: number, value: string, limit?: number) {
    await this.assertAllowed(allowed, fieldId);
    if (searchFieldId !== fieldId) await this.assertAllowed(allowed, searchFieldId, true);
    return this.fieldData.search(SHARED_READER, fieldId, searchFieldId, value, limit);
  }

  /** The remapped field is the one the field's values are shown as (FieldDataService checks they are related). */
  async remapping(allowed: FieldAllowlist, fieldId: number, remappedId: number, value: string) {
    await this.assertAllowed(allowed, fieldId);
    await this.assertNotSensitive(remappedId);
    return this.fieldData.remapping(SHARED_READER, fieldId, remappedId, value);
  }

  /** A parameter's values; none are read from a sensitive field (SHARED_READER would be let through). */
  async cardParamValues(card: CardRow, paramKey: string, query?: string): Promise<ParameterValues> {
    const param = parseJson<Array<Record<string, unknown>>>(card.parameters, []).find((p) => p && p.id === paramKey);
    const field = param ? targetField(param.target, parseJson<unknown>(card.dataset_query, null)) : null;
    if (field !== null) await this.assertNotSensitive(field);
    return this.cardParams.valuesOf(SHARED_READER, Number(card.id), paramKey, query);
  }

  /** Chain filters: the other parameters' values in `given` (by parameter id) narrow the values. No sensitive field is read. */
  async dashboardParamValues(found: ReadableDashboard, paramKey: string, given: Record<string, unknown>, query?: string): Promise<ParameterValues> {
    for (const id of await this.dashboardFields(found, undefined, paramKey)) await this.assertNotSensitive(id);
    return this.dashboardParams.valuesOf(SHARED_READER, Number(found.dashboard.id), paramKey, given, query);
  }

  private async assertAllowed(allowed: FieldAllowlist, fieldId: number, orRemap = false): Promise<void> {
    if (!allowed.has(fieldId) && !(orRemap && (await this.isNameOfAllowed(allowed, fieldId)))) throw new ForbiddenError();
    await this.assertNotSensitive(fieldId);
  }

  /** A field another allowed field is displayed as: same table, a name (Metabase's `name_field`). */
  private async isNameOfAllowed(allowed: FieldAllowlist, fieldId: number): Promise<boolean> {
    const [field] = await this.fields.fieldsByIds([fieldId]);
    if (!field || field.semantic_type !== 'type/Name') return false;
    const others = await this.fields.fieldsByIds([...allowed]);
    const tables = new Set(others.map((f) => f.table_id));
    const targets = await this.fields.fieldsByIds(others.map((f) => f.fk_target_field_id).filter((id): id is number => id !== null));
    for (const t of targets) tables.add(t.table_id);
    return tables.has(field.table_id);
  }

  private async assertNotSensitive(fieldId: number): Promise<void> {
    const [field] = await this.fields.fieldsByIds([fieldId]);
    if (field && field.visibility_type === 'sensitive') throw new ForbiddenError();
  }
}
