import type { AuthUser } from '../../common/auth/current-user';
import { MessageError } from '../../common/errors/api-errors';
import type { ParameterValuesService } from '../dataset';
import type { FieldRemappingService } from '../fields';
import type { CardAccessService } from './card-access.service';
import { CardParamsService } from './card-params.service';

/** CardParamsService: where a card parameter's values and labels come from; the value look-ups are mocked. */
describe('CardParamsService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const params = [
    { id: 'by-field', type: 'category', target: ['dimension', ['field', 12, null]] },
    { id: 'by-tag', type: 'category', target: ['dimension', ['template-tag', 'state']] },
    { id: 'list', type: 'category', values_source_type: 'static-list', values_source_config: { values: [['CA', 'California'], 'NY'] } },
    {
      id: 'from-card',
      type: 'category',
      values_source_type: 'card',
      values_source_config: { card_id: 3, value_field: ['field', 1, null] },
    },
    { id: 'variable', type: 'number/=', target: ['variable', ['template-tag', 'n']] },
  ];
  const query = {
    database: 1,
    type: 'native',
    native: { query: 'select', 'template-tags': { state: { type: 'dimension', dimension: ['field', 40, null] } } },
  };

  function setup() {
    const access = {
      readable: jest.fn().mockResolvedValue({ row: { parameters: JSON.stringify(params), dataset_query: JSON.stringify(query) } }),
    };
    const values = { values: jest.fn().mockResolvedValue({ values: [['x']], has_more_values: false }) };
    const remapping = { remappedValue: jest.fn().mockResolvedValue(['CA', 'California']) };
    const service = new CardParamsService(
      access as unknown as CardAccessService,
      values as unknown as ParameterValuesService,
      remapping as unknown as FieldRemappingService,
    );
    return { service, values, remapping };
  }

  it("takes a parameter's values from its field, its field filter's field, or its own source", async () => {
    const m = setup();
    await m.service.valuesOf(user, 9, 'by-field', 'a');
    await m.service.valuesOf(user, 9, 'by-tag');
    await m.service.valuesOf(user, 9, 'from-card');
    expect(m.values.values.mock.calls.map((c) => [c[1].id, c[2], c[3]])).toEqual([
      ['by-field', [12], 'a'],
      ['by-tag', [40], undefined],
      ['from-card', undefined, undefined],
    ]);
    await expect(m.service.valuesOf(user, 9, 'variable')).resolves.toEqual({ values: [], has_more_values: false });
    const e = await m.service.valuesOf(user, 9, 'nope').catch((x: unknown) => x);
    expect((e as MessageError).message).toBe('Card 9 does not have a parameter with the ID "nope".');
  });

  it("labels a value from a static list, from its field's remapping, or not at all", async () => {
    const m = setup();
    await expect(m.service.remappedValue(user, 9, 'list', 'CA')).resolves.toEqual(['CA', 'California']);
    await expect(m.service.remappedValue(user, 9, 'list', 'NY')).resolves.toEqual(['NY']);
    await expect(m.service.remappedValue(user, 9, 'from-card', 'x')).resolves.toEqual(['x']);
    await expect(m.service.remappedValue(user, 9, 'variable', '3')).resolves.toEqual(['3']);
    await m.service.remappedValue(user, 9, 'by-tag', 'CA');
    expect(m.remapping.remappedValue).toHaveBeenCalledWith(user, 40, 'CA');
    expect(m.remapping.remappedValue).toHaveBeenCalledTimes(1);
  });
});
