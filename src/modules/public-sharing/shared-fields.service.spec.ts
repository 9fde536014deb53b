import type { SharedGrant } from '../../common/auth/shared-grant';
import { ForbiddenError, MessageError } from '../../common/errors/api-errors';
import type { CardRow } from '../../schema/card.rows';
import type { WarehouseField } from '../../schema/field.entity';
import type { CardParamsService } from '../cards';
import type { DashboardParamsService } from '../dashboard-queries';
import type { FieldDataService, FieldMetadataCache, FieldRemappingService, FieldsRepository, FieldValuesService } from '../fields';
import { PAIR_NOT_ALLOWED, SharedFieldsService } from './shared-fields.service';
import type { SharedQueriesService } from './shared-queries.service';

/**
 * SharedFieldsService: a shared object's look-ups reach only its parameters' fields, paired only as remapping allows,
 * and never a sensitive or retired field. The field services behind it are mocked.
 */
describe('SharedFieldsService', () => {
  const field = (id: number, over: Partial<WarehouseField> = {}) =>
    ({
      id,
      table_id: 2,
      name: `f${id}`,
      display_name: `F${id}`,
      base_type: 'type/Text',
      semantic_type: null,
      visibility_type: 'normal',
      active: true,
      ...over,
    }) as WarehouseField;
  // 10 shown, 11 its remapped name, 12 sensitive, 13 retired, 14 the primary key of 10's table.
  const fields = new Map(
    [
      field(10),
      field(11, { semantic_type: 'type/Name' }),
      field(12, { visibility_type: 'sensitive' }),
      field(13, { visibility_type: 'retired' }),
      field(14, { semantic_type: 'type/PK' }),
    ].map((f) => [f.id, f]),
  );
  const card = {
    id: 3,
    parameters: JSON.stringify([
      { id: 'p', target: ['dimension', ['field', 10, null]] },
      { id: 's', target: ['dimension', ['field', 12, null]] },
    ]),
    dataset_query: JSON.stringify({
      database: 1,
      type: 'native',
      native: { query: 'select', 'template-tags': { t: { type: 'dimension', dimension: ['field', 14, null] }, v: { type: 'text' } } },
    }),
  } as unknown as CardRow;
  // What the public link resolver hands on for card 3: every look-up reads with it, never as a user or an admin.
  const grant: SharedGrant = { shared: { via: 'public', model: 'card', id: 3 } };

  function setup() {
    const repo = {
      findField: jest.fn(async (id: number) => fields.get(id) ?? null),
      fieldsByIds: jest.fn(async (ids: number[]) => ids.map((id) => fields.get(id)).filter(Boolean)),
      dimensions: jest.fn().mockResolvedValue([
        { id: 1, field_id: 10, name: 'shown', type: 'external', human_readable_field_id: 11 },
        { id: 2, field_id: 10, name: 'hidden', type: 'external', human_readable_field_id: 12 },
      ]),
    };
    const remaps = {
      isAllowedPair: jest.fn(
        async (f: WarehouseField, second: number) => f.id === second || (f.id === 10 && (second === 11 || second === 12)),
      ),
      nameFields: jest.fn().mockResolvedValue(new Map([[2, fields.get(11)]])),
    };
    const fieldValues = { values: jest.fn().mockResolvedValue({ values: [] }) };
    const fieldData = { search: jest.fn().mockResolvedValue([]), remapping: jest.fn().mockResolvedValue(['1', 'One']) };
    const cardParams = { valuesOf: jest.fn().mockResolvedValue({ values: [] }), remappedValue: jest.fn().mockResolvedValue(['x', 'X']) };
    const dashboardParams = { occursUnder: jest.fn().mockResolvedValue(false) };
    const service = new SharedFieldsService(
      {} as SharedQueriesService,
      repo as unknown as FieldsRepository,
      { remember: <T>(_key: string, load: () => Promise<T>) => load() } as unknown as FieldMetadataCache,
      fieldValues as unknown as FieldValuesService,
      fieldData as unknown as FieldDataService,
      remaps as unknown as FieldRemappingService,
      cardParams as unknown as CardParamsService,
      dashboardParams as unknown as DashboardParamsService,
    );
    return { service, fieldValues, fieldData, cardParams, dashboardParams };
  }

  it("allows the fields of a card's parameters and field filter tags", () => {
    expect([...setup().service.cardFields(card)].sort()).toEqual([10, 12, 14]);
  });

  it('reads values only of allowed fields that may be shown', async () => {
    const m = setup();
    const allowed = new Set([10, 12]);
    await expect(m.service.values(grant, allowed, 11)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.values(grant, allowed, 12)).rejects.toBeInstanceOf(ForbiddenError);
    await m.service.values(grant, allowed, 10);
    expect(m.fieldValues.values).toHaveBeenCalledTimes(1);
    expect(m.fieldValues.values).toHaveBeenCalledWith(grant, 10);
  });

  it('pairs a field only as remapping allows (400), and never with a hidden one (403)', async () => {
    const m = setup();
    const allowed = new Set([10]);
    await m.service.search(grant, allowed, 10, 11, 'a');
    expect(m.fieldData.search.mock.calls[0]).toEqual([grant, 10, 11, 'a', undefined]);
    const e = await m.service.remapping(grant, allowed, 10, 14, '1').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).message).toBe(PAIR_NOT_ALLOWED);
    await expect(m.service.remapping(grant, allowed, 10, 12, '1')).rejects.toBeInstanceOf(ForbiddenError);
    expect(m.fieldData.remapping).not.toHaveBeenCalled();
  });

  it('names in param_fields only the fields that may be shown, and their dimensions to shown fields', async () => {
    const out = await setup().service.paramFields(new Set([10, 12, 13, 14]));
    expect(Object.keys(out).sort()).toEqual(['10', '14']);
    expect(out['10'].dimensions.map((d) => d.human_readable_field_id)).toEqual([11]);
    expect(out['14'].name_field).toMatchObject({ id: 11 });
    expect(out['10'].name_field).toBeNull();
  });

  it("looks up a card parameter's values and labels only for a field that may be shown, within the token's constraints", async () => {
    const m = setup();
    await expect(m.service.cardParamValues(grant, card, 's')).rejects.toBeInstanceOf(ForbiddenError);
    await m.service.cardParamValues(grant, card, 'p', 'a');
    expect(m.cardParams.valuesOf.mock.calls).toEqual([[grant, 3, 'p', 'a']]);

    const constraint = [{ fieldId: 14, type: 'id', value: 1 }];
    await expect(m.service.cardParamRemapping(grant, card, 'p', 'x', constraint)).resolves.toEqual(['x']);
    expect(m.dashboardParams.occursUnder).toHaveBeenCalledWith(grant, 10, 'x', constraint);
    expect(m.cardParams.remappedValue).not.toHaveBeenCalled();
    m.dashboardParams.occursUnder.mockResolvedValue(true);
    await expect(m.service.cardParamRemapping(grant, card, 'p', 'x', constraint)).resolves.toEqual(['x', 'X']);
    expect(m.cardParams.remappedValue).toHaveBeenCalledWith(grant, 3, 'p', 'x');
  });
});
