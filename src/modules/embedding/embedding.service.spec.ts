import { EventBus } from '../../common/events/event-bus';
import type { CardRow } from '../../schema/card.rows';
import type { ReadableDashboard } from '../dashboards';
import type { SharedFieldsService } from '../public-sharing';
import type { EmbedLookupsService } from './embed-lookups.service';
import { EmbeddingService } from './embedding.service';
import type { EmbedGrant } from './embed-token.guard';

/** EmbeddingService: an embedded object shows only the parameters a viewer may set, and their fields only. */
describe('EmbeddingService', () => {
  const params = [
    { id: 'p-region', slug: 'region', type: 'category', target: ['dimension', ['field', 10, null]] },
    { id: 'p-state', slug: 'state', type: 'category', target: ['dimension', ['field', 11, null]] },
    { id: 'p-secret', slug: 'secret', type: 'category', target: ['dimension', ['field', 12, null]] },
  ];
  const whitelist = { region: 'enabled', state: 'locked', secret: 'disabled' } as EmbedGrant['whitelist'];
  const card = {
    id: 3,
    name: 'Q',
    parameters: JSON.stringify(params),
    dataset_query: '{}',
    visualization_settings: '{}',
  } as unknown as CardRow;
  const dashboard = {
    dashboard: { id: 4, name: 'D', parameters_list: params },
    tabs: [],
    dashcards: [
      {
        id: 1,
        card_id: 3,
        series_card_ids: [],
        row: { id: 1, card_id: 3, action_id: null, visualization_settings: '{}' },
        parameter_mappings: params.map((p) => ({ parameter_id: p.id, card_id: 3, target: p.target })),
      },
    ],
  } as unknown as ReadableDashboard;
  const grant = (over: Partial<EmbedGrant>): EmbedGrant =>
    ({ claims: { resource: {}, id: 3, params: { state: 'CA' } }, preview: false, whitelist, ...over }) as EmbedGrant;

  function setup() {
    const fields = {
      paramFields: jest.fn(async (ids: Set<number>) => Object.fromEntries([...ids].map((id) => [id, { id }]))),
      dashboardCards: jest.fn().mockResolvedValue(new Map([[3, card]])),
    };
    const lookups = { allowed: jest.fn().mockResolvedValue(new Set([10])) };
    const service = new EmbeddingService(
      new EventBus(),
      fields as unknown as SharedFieldsService,
      lookups as unknown as EmbedLookupsService,
    );
    return { service, fields, lookups };
  }

  it("shows a card's viewer-settable parameters only, with the fields the look-ups allow", async () => {
    const m = setup();
    const view = await m.service.card(grant({ card }));
    expect(view.parameters.map((p) => p.id)).toEqual(['p-region']);
    expect(view.param_fields).toEqual({ 10: { id: 10 } });
  });

  it("shows a dashboard's viewer-settable parameters only, and no mapping of the others", async () => {
    const m = setup();
    const view = (await m.service.dashboard(grant({ dashboard }))) as unknown as {
      parameters: Array<{ id: string }>;
      dashcards: Array<{ parameter_mappings: Array<{ parameter_id: string }> }>;
    };
    expect(view.parameters.map((p) => p.id)).toEqual(['p-region']);
    expect(view.dashcards[0].parameter_mappings.map((pm) => pm.parameter_id)).toEqual(['p-region']);
    expect(m.lookups.allowed).toHaveBeenCalledWith(expect.anything(), new Map([[3, card]]));
  });
});
