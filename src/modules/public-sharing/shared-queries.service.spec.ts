import type { SharedGrant } from '../../common/auth/shared-grant';
import { NotFoundError } from '../../common/errors/api-errors';
import type { CardRow } from '../../schema/card.rows';
import type { CardRunner, CardsRepository } from '../cards';
import type { DashboardsService, ReadableDashboard } from '../dashboards';
import { cardValues, SharedQueriesService } from './shared-queries.service';

/**
 * SharedQueriesService: a shared dashboard's runs are authorized by its grant (never by a user), only for its own
 * cards, with the dashboard's values mapped onto the card. CardRunner is mocked (how it runs a card for a grant, and
 * what it refuses, is card-runner.service.spec.ts's).
 */
describe('SharedQueriesService', () => {
  const card = (id: number, over: Partial<CardRow> = {}) =>
    ({
      id,
      name: `card ${id}`,
      archived: false,
      database_id: 1,
      cache_ttl: null,
      visualization_settings: '{}',
      dataset_query: JSON.stringify({ database: 1, type: 'native', native: { query: 'select {{x}}' } }),
      parameters: JSON.stringify([{ id: 'x', type: 'number/=', target: ['variable', ['template-tag', 'x']], slug: 'x' }]),
      ...over,
    }) as CardRow;
  const dashboard = {
    dashboard: { id: 4, archived: false, parameters_list: [{ id: 'dp', type: 'number/=', slug: 'n' }] },
    dashcards: [
      {
        id: 1,
        card_id: 3,
        series_card_ids: [5],
        parameter_mappings: [{ parameter_id: 'dp', card_id: 3, target: ['variable', ['template-tag', 'x']] }],
      },
    ],
  } as unknown as ReadableDashboard;

  function setup(rows: Record<number, CardRow | null> = { 3: card(3), 5: card(5), 6: card(6, { archived: 1 as never }) }) {
    const cards = { row: jest.fn(async (id: number) => rows[id] ?? null) };
    const runner = {
      run: jest.fn().mockResolvedValue({ status: 'completed' }),
      pivot: jest.fn().mockResolvedValue({ status: 'completed' }),
    };
    const service = new SharedQueriesService(cards as unknown as CardsRepository, {} as DashboardsService, runner as unknown as CardRunner);
    return { service, runner };
  }
  const signal = new AbortController().signal;
  // What the embed token guard hands on for dashboard 4.
  const grant: SharedGrant = { shared: { via: 'embed', model: 'dashboard', id: 4 } };

  it('serves unarchived cards only', async () => {
    const m = setup();
    await expect(m.service.card(3)).resolves.toMatchObject({ id: 3 });
    await expect(m.service.card(6)).resolves.toBeNull();
    await expect(m.service.card(9)).resolves.toBeNull();
  });

  it("runs a dashcard's card or series with the dashboard's grant and values in its context; anything else is a 404", async () => {
    const m = setup();
    await m.service.runDashcard(grant, dashboard, 1, 3, [{ id: 'dp', value: 8 }], { context: 'embedded-dashboard' }, signal);
    const [who, ran, opts] = m.runner.run.mock.calls[0];
    expect(who).toBe(grant);
    expect(ran).toMatchObject({ id: 3 });
    expect(opts).toMatchObject({ dashboardId: 4, context: 'embedded-dashboard' });
    expect(opts.parameters).toEqual([expect.objectContaining({ id: 'dp', value: 8, target: ['variable', ['template-tag', 'x']] })]);
    await m.service.runDashcard(grant, dashboard, 1, 5, [], { context: 'embedded-dashboard', maxRows: 2000 }, signal, true);
    expect(m.runner.pivot).toHaveBeenCalledTimes(1);
    expect(m.runner.pivot.mock.calls[0][1]).toMatchObject({ id: 5 });
    expect(m.runner.pivot.mock.calls[0][2]).toMatchObject({ dashboardId: 4, maxRows: 2000, parameters: [] });
    expect(m.runner.run).toHaveBeenCalledTimes(1);
    for (const [dashcardId, cardId] of [
      [1, 6],
      [2, 3],
      [1, 9],
    ])
      await expect(m.service.dashcard(dashboard, dashcardId, cardId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(m.service.runDashcard(grant, dashboard, 1, 6, [], { context: 'embedded-dashboard' }, signal)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(m.runner.run).toHaveBeenCalledTimes(1);
    const archived = setup({ 3: card(3, { archived: true }) });
    await expect(archived.service.dashcard(dashboard, 1, 3)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("takes a viewer's values only for the card's own parameters, with the card's type and target", () => {
    expect(cardValues(card(3), [{ id: 'x', value: 1, target: ['dimension', ['field', 99, null]], type: 'category' }])).toEqual([
      { id: 'x', type: 'number/=', target: ['variable', ['template-tag', 'x']], value: 1, slug: 'x' },
    ]);
    expect(() => cardValues(card(3), [{ id: 'z', value: 1 }])).toThrow('Card 3 does not have a parameter with the ID "z".');
  });
});
