import { MessageError } from '../../common/errors/api-errors';
import type { CardRow } from '../../schema/card.rows';
import type { ReadableDashboard } from '../dashboards';
import type { SharedFieldsService } from '../public-sharing';
import { EmbedLookupsService } from './embed-lookups.service';
import type { EmbedGrant } from './embed-token.guard';

/**
 * EmbedLookupsService: a viewer's filter widgets reach only the fields of parameters they may set (enabled, not set by
 * the token), and the token's values constrain them. The public-sharing look-ups are mocked.
 */
describe('EmbedLookupsService', () => {
  const field = (id: number) => ['dimension', ['field', id, null]];
  // region (field 10) is enabled, state (11) locked by the token, secret (12) disabled.
  const params = [
    { id: 'p-region', slug: 'region', type: 'category', target: field(10) },
    { id: 'p-state', slug: 'state', type: 'category', target: field(11) },
    { id: 'p-secret', slug: 'secret', type: 'category', target: field(12) },
  ];
  const whitelist = { region: 'enabled', state: 'locked', secret: 'disabled' } as EmbedGrant['whitelist'];
  const card = {
    id: 3,
    parameters: JSON.stringify(params),
    dataset_query: JSON.stringify({ database: 1, type: 'query', query: { 'source-table': 2 } }),
  } as unknown as CardRow;
  const dashboard = {
    dashboard: { id: 4, parameters_list: params },
    dashcards: [
      {
        id: 1,
        card_id: 3,
        parameter_mappings: params.map((p) => ({ parameter_id: p.id, card_id: 3, target: p.target })),
      },
    ],
  } as unknown as ReadableDashboard;
  const grant = (over: Partial<EmbedGrant> = {}, tokenParams: Record<string, unknown> = { state: 'CA' }): EmbedGrant =>
    ({ claims: { resource: {}, id: 3, params: tokenParams }, preview: false, whitelist, card, ...over }) as EmbedGrant;

  function setup() {
    const fields = {
      values: jest.fn().mockResolvedValue({ values: [] }),
      search: jest.fn().mockResolvedValue([]),
      remapping: jest.fn().mockResolvedValue([]),
      dashboardFields: jest.fn().mockResolvedValue(new Set([10])),
      dashboardParamValues: jest.fn().mockResolvedValue({ values: [], has_more_values: false }),
      cardParamRemapping: jest.fn().mockResolvedValue(['x']),
      dashboardParamRemapping: jest.fn().mockResolvedValue(['x']),
    };
    return { service: new EmbedLookupsService(fields as unknown as SharedFieldsService), fields };
  }
  const message = async (p: Promise<unknown>) => {
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    return (e as MessageError).message;
  };

  it("lets a card's viewer look up only the fields of parameters they may set", async () => {
    const m = setup();
    const viewer = grant();
    await m.service.values(viewer, 10);
    expect(m.fields.values).toHaveBeenCalledWith(viewer, new Set([10]), 10);
    // With no token value for an enabled parameter, nothing changes; a token value for it takes it away.
    const locked = grant({}, { state: 'CA', region: 'West' });
    await m.service.search(locked, 10, 10, 'we');
    expect(m.fields.search).toHaveBeenCalledWith(locked, new Set(), 10, 10, 'we', undefined);
  });

  it("lets a dashboard's viewer look up only the mappings of parameters they may set", async () => {
    const m = setup();
    await m.service.allowed(grant({ card: undefined, dashboard }));
    const [shown] = m.fields.dashboardFields.mock.calls[0];
    expect(shown.dashcards[0].parameter_mappings.map((pm: { parameter_id: string }) => pm.parameter_id)).toEqual(['p-region']);
  });

  it("answers a dashboard parameter's values only for a viewer-settable one, constrained by the token's and viewer's values", async () => {
    const m = setup();
    const g = grant({ card: undefined, dashboard });
    expect(await message(m.service.paramValues(g, 'p-secret', {}))).toBe('Cannot search for values: "secret" is not an enabled parameter.');
    expect(await message(m.service.paramValues(g, 'p-state', {}))).toBe('Cannot search for values: "state" is not an enabled parameter.');
    expect(await message(m.service.paramValues(grant({ card: undefined, dashboard }, { state: 'CA', region: 'W' }), 'p-region', {}))).toBe(
      'You can\'t specify a value for "region" if it\'s already set in the JWT.',
    );
    expect(await message(m.service.paramValues(g, 'p-region', { 'p-nope': 'x' }))).toBe(
      'Invalid query params: could not determine slug for parameter with ID "p-nope"',
    );
    // A viewer may not narrow by a locked parameter: the whitelist's rules apply to the constraints too.
    expect(await message(m.service.paramValues(g, 'p-region', { 'p-state': 'NY' }))).toBe(
      'You can only specify a value for state in the JWT.',
    );
    expect(m.fields.dashboardParamValues).not.toHaveBeenCalled();

    await m.service.paramValues(g, 'p-region', {}, 'we');
    expect(m.fields.dashboardParamValues).toHaveBeenCalledWith(g, dashboard, 'p-region', { 'p-state': 'CA' }, 'we');
  });

  it("remaps a card parameter's value with the token's values as constraints on their fields", async () => {
    const m = setup();
    expect(await message(m.service.cardParamRemapping(grant(), 'p-state', 'CA'))).toBe(
      'Cannot get remapped value for parameter: "state" is not an enabled parameter.',
    );
    const viewer = grant();
    await m.service.cardParamRemapping(viewer, 'p-region', 'W');
    expect(m.fields.cardParamRemapping).toHaveBeenCalledWith(viewer, card, 'p-region', 'W', [
      { fieldId: 11, type: 'category', value: 'CA' },
    ]);
  });
});
