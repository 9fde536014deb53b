import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { WarehouseField } from '../../schema/field.entity';
import type { FieldValuesService, MetadataAccess } from '../fields';
import type { WarehouseConnections } from '../warehouse';
import type { DatasetService } from './dataset.service';
import { EventBus } from '../../common/events/event-bus';
import { PolicyLookups } from '../fields/policy-lookups';
import { PARAMETER_VALUES_MAX, type ParameterLike, ParameterValuesService } from './parameter-values.service';
import type { QueryContent } from './query-content';

/** ParameterValuesService: where a parameter's values come from and how they merge; metadata, stored lists and warehouse mocked. */
describe('ParameterValuesService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const param = { id: 'p', type: 'category' };
  const field = (id: number, over: Partial<WarehouseField> = {}) =>
    ({ id, name: `f${id}`, base_type: 'type/Text', has_field_values: 'list', visibility_type: 'normal', ...over }) as WarehouseField;

  function setup(fields: Record<number, WarehouseField>, stored: Record<number, { values: unknown[][]; has_more_values: boolean }> = {}) {
    const access = {
      field: jest.fn(async (_c: AuthUser, id: number) => {
        if (!fields[id]) throw new NotFoundError();
        return { field: fields[id], table: { id: 2, name: 't' }, db: { id: 1 } };
      }),
    };
    const fieldValues = { values: jest.fn(async (_c: AuthUser, id: number) => stored[id]) };
    const driver = { engine: 'postgres', query: jest.fn().mockResolvedValue({ rows: [['live-b'], ['live-a']] }) };
    const connections = { driverFor: jest.fn(() => driver) };
    const dataset = { run: jest.fn() };
    const resolver = { card: jest.fn().mockResolvedValue({ id: 9, databaseId: 1 }) };
    const bus = new EventBus();
    const lookups = new PolicyLookups(bus);
    const service = new ParameterValuesService(
      access as unknown as MetadataAccess,
      fieldValues as unknown as FieldValuesService,
      connections as unknown as WarehouseConnections,
      dataset as unknown as DatasetService,
      { resolverFor: () => resolver } as unknown as QueryContent,
      lookups,
      bus,
    );
    service.onModuleInit();
    return { service, access, fieldValues, driver, dataset, resolver };
  }

  it('merges the stored lists of several fields, first label winning, nulls then numbers then texts', async () => {
    const m = setup(
      { 1: field(1), 2: field(2) },
      {
        1: { values: [['b'], [2, 'Two'], [null]], has_more_values: false },
        2: { values: [[2, 'Deux'], [10], ['a']], has_more_values: false },
      },
    );
    await expect(m.service.values(user, param, [1, 2, 1])).resolves.toEqual({
      values: [[null], [2, 'Two'], [10], ['a'], ['b']],
      has_more_values: false,
    });
    expect(m.driver.query).not.toHaveBeenCalled();
  });

  it('searches a complete stored list in memory, but a truncated one live in the warehouse', async () => {
    const complete = setup({ 1: field(1) }, { 1: { values: [['Apple'], ['Banana'], [3, 'Pineapple']], has_more_values: false } });
    await expect(complete.service.values(user, param, [1], 'APPLE')).resolves.toEqual({
      values: [[3, 'Pineapple'], ['Apple']],
      has_more_values: false,
    });
    expect(complete.driver.query).not.toHaveBeenCalled();

    const truncated = setup({ 1: field(1) }, { 1: { values: [['Apple']], has_more_values: true } });
    await truncated.service.values(user, param, [1], '50%');
    expect(truncated.driver.query).toHaveBeenCalledWith(expect.any(String), ['%50!%%'], expect.objectContaining({ readOnly: true }));
  });

  it('reads fields without a list live, capped, and never reads JSON-like fields', async () => {
    const m = setup({ 1: field(1, { has_field_values: 'search' }), 2: field(2, { base_type: 'type/JSON', has_field_values: 'none' }) });
    const rows = Array.from({ length: PARAMETER_VALUES_MAX + 1 }, (_, i) => [`v${String(i).padStart(4, '0')}`]);
    m.driver.query.mockResolvedValue({ rows });
    const answer = await m.service.values(user, param, [1, 2]);
    expect(answer.values).toHaveLength(PARAMETER_VALUES_MAX);
    expect(answer.has_more_values).toBe(true);
    expect(m.driver.query).toHaveBeenCalledTimes(1);
    expect(m.driver.query.mock.calls[0][2]).toMatchObject({ maxRows: PARAMETER_VALUES_MAX + 1 });
  });

  it('checks every field before reading any: unknown is a 404, sensitive a 403 for non-admins', async () => {
    const m = setup({ 1: field(1), 2: field(2, { visibility_type: 'sensitive' }) }, { 1: { values: [['a']], has_more_values: false } });
    await expect(m.service.values(user, param, [1, 2])).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.values(user, param, [1, 3])).rejects.toBeInstanceOf(NotFoundError);
    expect(m.fieldValues.values).not.toHaveBeenCalled();
    const e = await m.service.values(user, param, []).catch((x: unknown) => x);
    expect((e as MessageError).message).toBe('Missing field-ids for parameter');
  });

  it('answers a static list, filtered by the search', async () => {
    const m = setup({});
    const list = { ...param, values_source_type: 'static-list', values_source_config: { values: ['North', ['S', 'South'], 'East'] } };
    await expect(m.service.values(user, list, undefined)).resolves.toEqual({
      values: [['North'], ['S', 'South'], ['East']],
      has_more_values: false,
    });
    await expect(m.service.values(user, list, undefined, 'south')).resolves.toEqual({ values: [['S', 'South']], has_more_values: false });
  });

  it('takes a card source only with a valid config and a readable card, and answers its failed run as a 400', async () => {
    const m = setup({});
    const source = (config: ParameterLike['values_source_config']): ParameterLike => ({
      ...param,
      values_source_type: 'card',
      values_source_config: config,
    });
    const e = await m.service.values(user, source({ card_id: 0, value_field: ['field', 1, null] }), undefined).catch((x: unknown) => x);
    expect((e as ValidationError).errors).toEqual({ parameter: 'values_source_config.card_id must be an integer greater than zero.' });
    const bad = await m.service.values(user, source({ card_id: 9, value_field: ['field', ''] }), undefined).catch((x: unknown) => x);
    expect(Object.values((bad as ValidationError).errors)[0]).toMatch(/^values_source_config.value_field must be a field reference/);

    m.resolver.card.mockResolvedValueOnce(null);
    await expect(m.service.values(user, source({ card_id: 9, value_field: ['field', 1, null] }), undefined)).rejects.toBeInstanceOf(
      NotFoundError,
    );

    m.dataset.run.mockResolvedValueOnce({ status: 'failed', error: 'Column "x" not found' });
    const failed = await m.service
      .values(user, source({ card_id: 9, value_field: ['field', 'x', null] }), undefined)
      .catch((x: unknown) => x);
    expect((failed as MessageError).message).toBe('Column "x" not found');

    m.dataset.run.mockResolvedValueOnce({
      status: 'completed',
      data: {
        rows: [
          ['a', 'A'],
          ['a', 'A2'],
          ['b', 'B'],
        ],
      },
    });
    await expect(m.service.values(user, source({ card_id: 9, value_field: ['field', 'x', null] }), undefined)).resolves.toEqual({
      values: [
        ['a', 'A'],
        ['b', 'B'],
      ],
      has_more_values: false,
    });
    expect(m.dataset.run.mock.calls[0][1]).toBe(user);
  });
});
