import type { AuthUser } from '../../common/auth/current-user';
import type { SharedGrant } from '../../common/auth/shared-grant';
import type { CardRow } from '../../schema/card.rows';
import type { DatasetService, PivotService, QueryContent } from '../dataset';
import type { QueryCachePolicy } from '../query-cache';
import { CardRunner } from './card-runner.service';
import type { CardsRepository } from './cards.repository';

describe('CardRunner', () => {
  const target = ['dimension', ['field', 9, null]];
  const query = { database: 2, type: 'query', query: { 'source-table': 5 } };
  const card = {
    id: 7,
    database_id: 2,
    cache_ttl: 30,
    dataset_query: JSON.stringify(query),
    parameters: JSON.stringify([{ id: 'p', type: 'category', target, default: 'dflt' }]),
    visualization_settings: JSON.stringify({ 'pivot_table.column_split': { rows: [], columns: [] } }),
  } as unknown as CardRow;
  const user: AuthUser = { id: 3, isSuperuser: false, groupIds: [1] };
  const cardGrant: SharedGrant = { shared: { via: 'public', model: 'card', id: 7 } };
  const dashboardGrant: SharedGrant = { shared: { via: 'embed', model: 'dashboard', id: 11 } };
  const signal = new AbortController().signal;
  const plan = { cacheTtlSeconds: 30, cacheMinDurationMs: 0 };

  let dataset: { run: jest.Mock; stream: jest.Mock };
  let pivots: { run: jest.Mock };
  let policy: { plan: jest.Mock };
  let cards: { databaseCacheTtl: jest.Mock };
  let content: { cardRun: jest.Mock };
  let runner: CardRunner;

  beforeEach(() => {
    dataset = { run: jest.fn().mockResolvedValue({ status: 'completed' }), stream: jest.fn().mockResolvedValue({ status: 'streaming' }) };
    pivots = { run: jest.fn().mockResolvedValue({ status: 'completed' }) };
    policy = { plan: jest.fn().mockResolvedValue(plan) };
    cards = { databaseCacheTtl: jest.fn().mockResolvedValue(60) };
    // A persisted model would be swapped for its table here; the runner runs whatever it answers.
    content = { cardRun: jest.fn(async (_card: CardRow, q: Record<string, unknown>) => ({ ...q, resolved: true })) };
    runner = new CardRunner(
      dataset as unknown as DatasetService,
      pivots as unknown as PivotService,
      policy as unknown as QueryCachePolicy,
      cards as unknown as CardsRepository,
      content as unknown as QueryContent,
    );
  });

  it("streams a user's run of the card with its parameter defaults, its cache rules and the request's options", async () => {
    const sent = [{ id: 'other', type: 'category', target, value: 'x' }];
    await runner.stream(user, card, { parameters: sent, ignoreCache: true, context: 'question', maxRows: 50 }, signal);
    const withDefaults = { ...query, parameters: [...sent, { id: 'p', type: 'category', target, value: 'dflt' }], resolved: true };
    expect(policy.plan).toHaveBeenCalledWith({ query: withDefaults, card: 30, database: 60 });
    expect(dataset.stream).toHaveBeenCalledWith(withDefaults, user, signal, {
      context: 'question',
      cardId: 7,
      dashboardId: null,
      ignoreCache: true,
      defaultMaxRows: 50,
      ...plan,
    });
    expect(dataset.run).not.toHaveBeenCalled();
  });

  it("runs a shared card with its link's grant as the authorization, never as a user", async () => {
    await runner.run(
      cardGrant,
      card,
      { parameters: [{ id: 'p', type: 'category', target, value: 'v' }], context: 'public-question' },
      signal,
    );
    const [, who, , options] = dataset.run.mock.calls[0];
    expect(who).toBe(cardGrant);
    expect(options).toMatchObject({ context: 'public-question', cardId: 7, dashboardId: null, ignoreCache: false });
    expect(options).not.toHaveProperty('defaultMaxRows');
    expect(dataset.stream).not.toHaveBeenCalled();
  });

  it("runs a dashboard grant's card only in that dashboard's context", async () => {
    await runner.run(dashboardGrant, card, { dashboardId: 11, context: 'embedded-dashboard' }, signal);
    expect(dataset.run.mock.calls[0][3]).toMatchObject({ dashboardId: 11, context: 'embedded-dashboard' });
    await expect(runner.run(dashboardGrant, card, { dashboardId: 12 }, signal)).rejects.toThrow('cannot run card 7');
    await expect(runner.stream(dashboardGrant, card, {}, signal)).rejects.toThrow('cannot run card 7');
    await expect(runner.pivot(dashboardGrant, card, { dashboardId: 12 }, signal)).rejects.toThrow('cannot run card 7');
  });

  it("refuses a card grant another card, or a dashboard's context, before anything runs", async () => {
    const other = { ...card, id: 8 } as CardRow;
    await expect(runner.run(cardGrant, other, {}, signal)).rejects.toThrow('A card grant cannot run card 8');
    await expect(runner.stream(cardGrant, card, { dashboardId: 11 }, signal)).rejects.toThrow('cannot run card 7 on dashboard 11');
    await expect(runner.pivot(cardGrant, other, {}, signal)).rejects.toThrow('cannot run card 8');
    expect(dataset.run).not.toHaveBeenCalled();
    expect(dataset.stream).not.toHaveBeenCalled();
    expect(pivots.run).not.toHaveBeenCalled();
    expect(content.cardRun).not.toHaveBeenCalled();
  });

  it("pivots with the card's settings, its own row cap and the dashboard context, for users and grants alike", async () => {
    await runner.pivot(dashboardGrant, card, { dashboardId: 11, maxRows: 2000, context: 'embedded-dashboard' }, signal);
    expect(pivots.run).toHaveBeenCalledWith(
      {
        ...query,
        parameters: [{ id: 'p', type: 'category', target, value: 'dflt' }],
        constraints: { 'max-results': 2000 },
        visualization_settings: { 'pivot_table.column_split': { rows: [], columns: [] } },
      },
      dashboardGrant,
      signal,
      'embedded-dashboard',
      7,
      11,
    );
    await runner.pivot(user, card, {}, signal);
    expect(pivots.run.mock.calls[1].slice(1)).toEqual([user, signal, 'question', 7, null]);
  });

  it('reads no database cache rule for a card without a database', async () => {
    await runner.stream(user, { ...card, database_id: null } as CardRow, {}, signal);
    expect(cards.databaseCacheTtl).not.toHaveBeenCalled();
    expect(policy.plan).toHaveBeenCalledWith(expect.objectContaining({ database: null }));
  });
});
