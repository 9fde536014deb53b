import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { CardAccessService } from '../cards';
import type { DashboardsService } from '../dashboards';
import { type DatasetService, PARAMETER_VALUES_MAX, type ParameterValuesService } from '../dataset';
import type { FieldRemappingService, MetadataAccess } from '../fields';
import { DashboardParamsService } from './dashboard-params.service';
import type { DashboardQueriesRepository, FieldPlace } from './dashboard-queries.repository';

/**
 * DashboardParamsService: which fields a dashboard parameter's values come from, and when other parameters narrow them
 * (a chain filter run through the dataset service). Dashboards, cards, metadata and the warehouse are mocked.
 */
describe('DashboardParamsService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const field = (id: number) => ['dimension', ['field', id, null]];
  // p is mapped to field 9 on card 7, to the model column NAME (field 11) on card 8, and to field 50 on card 66,
  // which the caller may not read; q to field 20 on card 7; s is a static list.
  const params = [
    { id: 'p', type: 'category' },
    { id: 'q', type: 'category' },
    { id: 's', type: 'category', values_source_type: 'static-list', values_source_config: { values: [['a', 'Alpha']] } },
    { id: 'n', type: 'category', values_query_type: 'none' },
  ];
  const dashcards = [
    {
      id: 1,
      card_id: 7,
      series_card_ids: [],
      parameter_mappings: [
        { parameter_id: 'p', target: field(9) },
        { parameter_id: 'q', target: field(20) },
      ],
    },
    {
      id: 2,
      card_id: 8,
      series_card_ids: [],
      parameter_mappings: [{ parameter_id: 'p', target: ['dimension', ['field', 'NAME', { 'base-type': 'type/Text' }]] }],
    },
    { id: 3, card_id: 66, series_card_ids: [], parameter_mappings: [{ parameter_id: 'p', target: field(50) }] },
  ];
  const places: Record<number, FieldPlace> = {
    9: { id: 9, table_id: 1, db_id: 1, fk_target_field_id: null },
    11: { id: 11, table_id: 2, db_id: 1, fk_target_field_id: null },
    20: { id: 20, table_id: 3, db_id: 1, fk_target_field_id: null },
  };
  // Table 1 has an FK to table 3; table 2 is not connected.
  const graph = [
    { id: 21, table_id: 1, fk_target_field_id: 30 },
    { id: 30, table_id: 3, fk_target_field_id: null },
  ];

  function setup(rowsByField: Record<number, unknown[][]> = {}) {
    const dashboards = { readable: jest.fn().mockResolvedValue({ dashboard: { id: 4, parameters_list: params }, dashcards }) };
    // Card 66 is one the caller may not read: absent from what readableMany answers.
    const cardRow = (id: number) => ({
      id,
      dataset_query: JSON.stringify({ database: 1, type: 'query', query: { 'source-table': 1 } }),
      result_metadata: id === 8 ? JSON.stringify([{ name: 'NAME', id: 11 }]) : null,
    });
    const cardAccess = {
      readableMany: jest.fn(async (_c: AuthUser, ids: number[]) => new Map(ids.filter((id) => id !== 66).map((id) => [id, cardRow(id)]))),
    };
    const values = { values: jest.fn().mockResolvedValue({ values: [['plain']], has_more_values: false }) };
    const dataset = {
      run: jest.fn(async (query: { query: { breakout: unknown[][] } }) => {
        const fieldId = query.query.breakout[0][1] as number;
        return { status: 'completed', data: { rows: rowsByField[fieldId] ?? [] } };
      }),
    };
    const metadata = { field: jest.fn(async (_c: AuthUser, id: number) => ({ field: { id, visibility_type: 'normal' } })) };
    const repo = {
      places: jest.fn(async (ids: number[]) => ids.filter((i) => places[i]).map((i) => places[i])),
      fkGraph: jest.fn().mockResolvedValue(graph),
    };
    const remapping = { remappedValue: jest.fn().mockResolvedValue(['1', 'One']) };
    const service = new DashboardParamsService(
      dashboards as unknown as DashboardsService,
      cardAccess as unknown as CardAccessService,
      values as unknown as ParameterValuesService,
      dataset as unknown as DatasetService,
      metadata as unknown as MetadataAccess,
      repo as unknown as DashboardQueriesRepository,
      remapping as unknown as FieldRemappingService,
    );
    return { service, values, dataset, metadata, repo, remapping, cardAccess };
  }

  it('names the dashboard and the parameter it does not have', async () => {
    const e = await setup()
      .service.valuesOf(user, 4, 'zz', {})
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).message).toBe('Dashboard 4 does not have a parameter with the ID "zz".');
  });

  it('answers a parameter without a query source at once, and a static list from its list', async () => {
    const m = setup();
    await expect(m.service.valuesOf(user, 4, 'n', {})).resolves.toEqual({ values: [], has_more_values: false });
    await m.service.valuesOf(user, 4, 's', {}, 'al');
    expect(m.values.values).toHaveBeenCalledWith(user, expect.objectContaining({ id: 's' }), undefined, 'al');
    expect(m.cardAccess.readableMany).not.toHaveBeenCalled();
  });

  it('takes the values of every mapped field the caller may read, model columns included, when nothing narrows them', async () => {
    const m = setup();
    await m.service.valuesOf(user, 4, 'p', { q: null });
    expect(m.values.values).toHaveBeenCalledWith(user, expect.objectContaining({ id: 'p' }), [9, 11], undefined);
    expect(m.dataset.run).not.toHaveBeenCalled();

    const broken = setup();
    broken.cardAccess.readableMany.mockRejectedValueOnce(new TypeError('a bug'));
    await expect(broken.service.valuesOf(user, 4, 'p', {})).rejects.toThrow(TypeError);
  });

  it('narrows by another parameter through the FK path, merges the fields without duplicates, sorted', async () => {
    const m = setup({ 9: [['b'], ['a']], 11: [['a'], [null], ['c']] });
    const answer = await m.service.valuesOf(user, 4, 'p', { q: 'x' });
    expect(answer).toEqual({ values: [[null], ['a'], ['b'], ['c']], has_more_values: false });
    const [query9, caller, , opts] = m.dataset.run.mock.calls[0] as unknown as [
      { query: Record<string, unknown> },
      AuthUser,
      AbortSignal,
      object,
    ];
    // Field 9's table reaches q's field through the FK; field 11's table has no path, so q does not narrow it.
    expect(query9.query.joins).toHaveLength(1);
    expect((m.dataset.run.mock.calls[1][0] as { query: Record<string, unknown> }).query.joins ?? []).toHaveLength(0);
    expect(opts).toMatchObject({ log: false, defaultMaxRows: PARAMETER_VALUES_MAX + 1 });
    expect(caller).toBe(user);
  });

  it('says there are more values when a field has more than the maximum, and answers a failed run as a 400', async () => {
    const many = Array.from({ length: PARAMETER_VALUES_MAX + 1 }, (_, i) => [i]);
    const m = setup({ 9: many });
    const answer = await m.service.valuesOf(user, 4, 'p', { q: 'x' });
    expect(answer.has_more_values).toBe(true);
    expect(answer.values).toHaveLength(PARAMETER_VALUES_MAX);

    const failed = setup();
    failed.dataset.run.mockResolvedValue({ status: 'failed', error: 'Invalid number' } as never);
    const e = await failed.service.valuesOf(user, 4, 'p', { q: 'x' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).message).toBe('Invalid number');
  });

  it('refuses a sensitive field to non-admins before any warehouse is read', async () => {
    const m = setup();
    m.metadata.field.mockImplementation(async (_c, id) => ({ field: { id, visibility_type: id === 11 ? 'sensitive' : 'normal' } }));
    await expect(m.service.valuesOf(user, 4, 'p', { q: 'x' })).rejects.toBeInstanceOf(ForbiddenError);
    expect(m.dataset.run).not.toHaveBeenCalled();
    m.metadata.field.mockRejectedValue(new NotFoundError());
    await expect(m.service.valuesOf(user, 4, 'p', { q: 'x' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('remaps a value by its static list or by the key its fields share, never for a constrained parameter', async () => {
    const m = setup();
    await expect(m.service.remappedValue(user, 4, 's', 'a')).resolves.toEqual(['a', 'Alpha']);
    const e = await m.service.remappedValue(user, 4, 'q', '1', { q: '2' }).catch((x: unknown) => x);
    expect((e as MessageError).message).toBe('Getting the remapped value for a constrained parameter is not supported');
    await expect(m.service.remappedValue(user, 4, 'q', '1')).resolves.toEqual(['1', 'One']);
    expect(m.remapping.remappedValue).toHaveBeenCalledWith(user, 20, '1');
    // Two unrelated fields share no key: the value is its own label.
    await expect(m.service.remappedValue(user, 4, 'p', '1')).resolves.toEqual(['1']);
  });

  it('lists, for each filtered field, the filtering fields an FK path connects it to', async () => {
    const m = setup();
    await expect(m.service.validFilterFields(user, [9, 11], [20, 11])).resolves.toEqual({ '9': [20], '11': [] });
  });
});
