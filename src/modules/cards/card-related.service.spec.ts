import { TRUE } from '../../common/database/sql';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { EventBus } from '../../common/events/event-bus';
import type { CardRow } from '../../schema/card.rows';
import type { WarehouseTable } from '../../schema/table.entity';
import type { CollectionAccessService } from '../collections';
import type { SegmentMetricView, SegmentsMetricsOfTablesQuery } from '../content';
import type { MetadataAccess } from '../fields';
import type { CardAccessService } from './card-access.service';
import { CardRelatedService } from './card-related.service';
import type { CardsRepository } from './cards.repository';

/** CardRelatedService: what goes in each list of the related answer, and what the caller may not read left out. */
describe('CardRelatedService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const count = [['count']];
  const byTotal = ['field', 5, null];
  const ordersQuery = { database: 1, type: 'query', query: { 'source-table': 2, aggregation: count, breakout: [byTotal] } };

  const card = (id: number, type: string, extra: Partial<CardRow> = {}) =>
    ({
      id,
      name: `card ${id}`,
      description: null,
      display: 'table',
      type,
      collection_id: 9,
      table_id: 2,
      source_card_id: null,
      dataset_query: JSON.stringify(ordersQuery),
      archived: false,
      ...extra,
    }) as unknown as CardRow;
  const table = {
    id: 2,
    db_id: 1,
    schema: 'PUBLIC',
    name: 'ORDERS',
    display_name: 'Orders',
    active: true,
    created_at: new Date('2024-01-01T00:00:00Z'),
    updated_at: new Date('2024-01-01T00:00:00Z'),
  } as unknown as WarehouseTable;
  const view = (id: number, definition: Record<string, unknown>): SegmentMetricView => ({
    id,
    table_id: 2,
    name: `m${id}`,
    description: null,
    archived: false,
    definition: { 'source-table': 2, ...definition },
  });

  function setup(opts: { own?: CardRow; onTable?: CardRow[]; source?: CardRow | null; tableError?: Error } = {}) {
    const cards = {
      onTable: jest.fn().mockResolvedValue(opts.onTable ?? []),
      readableById: jest.fn().mockResolvedValue(opts.source ?? null),
    };
    const access = {
      readable: jest.fn().mockResolvedValue({ row: opts.own ?? card(1, 'question'), perm: 'read' }),
      assertMayQuery: jest.fn().mockResolvedValue(undefined),
    };
    const collections = { readableWhere: jest.fn().mockResolvedValue(TRUE) };
    const metadata = {
      table: jest.fn(async () => {
        if (opts.tableError) throw opts.tableError;
        return { table, db: { id: 1 } };
      }),
    };
    const legacy = {
      metric: [view(30, { aggregation: count }), view(31, { aggregation: [['sum', byTotal]] })],
      segment: [view(41, { filter: ['=', ['field', 6, null], 'x'] }), view(40, { filter: ['>', byTotal, 10] })],
    };
    const bus = {
      askOne: jest.fn(async (q: SegmentsMetricsOfTablesQuery) => new Map([[q.tableIds[0], legacy[q.kind]]])),
    };
    const service = new CardRelatedService(
      cards as unknown as CardsRepository,
      access as unknown as CardAccessService,
      collections as unknown as CollectionAccessService,
      metadata as unknown as MetadataAccess,
      bus as unknown as EventBus,
    );
    return { service, cards, access, collections, metadata, bus };
  }

  it("fills a card's lists from its table, leaving the card itself out", async () => {
    const m = setup({ onTable: [card(1, 'question'), card(2, 'question'), card(3, 'metric'), card(4, 'model')] });
    const r = await m.service.forCard(user, 1);
    expect(m.access.readable).toHaveBeenCalledWith(user, 1);
    expect(m.metadata.table).toHaveBeenCalledWith(user, 2, 'read');
    expect(m.collections.readableWhere).toHaveBeenCalledWith(user, 'c.collection_id');
    expect(m.cards.onTable).toHaveBeenCalledWith(2, TRUE, 20);
    expect(r.table).toMatchObject({ id: 2, db_id: 1, name: 'ORDERS' });
    expect(r['similar-questions'].map((c) => c.id)).toEqual([2]);
    expect(r['similar-questions'][0]).toEqual({
      id: 2,
      name: 'card 2',
      description: null,
      display: 'table',
      type: 'question',
      collection_id: 9,
    });
    // Legacy metrics come before the metric cards, those on the card's fields (31 sums the breakout's field) first.
    expect(r.metrics.map((x) => x.id)).toEqual([31, 30, 3]);
    expect(r.segments.map((s) => s.id)).toEqual([40, 41]);
    expect(m.bus.askOne).toHaveBeenCalledWith(expect.objectContaining({ kind: 'segment', tableIds: [2] }));
    // The legacy metric computing the card's own aggregation is the canonical one.
    expect(r['canonical-metric']).toMatchObject({ id: 30 });
    expect(r.models).toEqual([]);
    expect(r).toMatchObject({ dashboards: [], 'dashboard-mates': [], collections: [] });
  });

  it('takes the first metric card as canonical when no legacy metric computes the aggregation', async () => {
    const own = card(1, 'question', { dataset_query: JSON.stringify({ ...ordersQuery, query: { 'source-table': 2 } }) });
    const r = await setup({ own, onTable: [card(3, 'metric'), card(5, 'metric')] }).service.forCard(user, 1);
    expect(r['canonical-metric']).toMatchObject({ id: 3, type: 'metric' });
  });

  it('lists the source card among the models only when it is a model the caller may read', async () => {
    const own = card(1, 'question', { table_id: null, source_card_id: 8 });
    const model = setup({ own, source: card(8, 'model', { table_id: null }) });
    const r = await model.service.forCard(user, 1);
    expect(model.cards.readableById).toHaveBeenCalledWith(8, TRUE);
    expect(r.models.map((c) => c.id)).toEqual([8]);
    // No table: nothing on it is looked up.
    expect(r.table).toBeNull();
    expect(model.metadata.table).not.toHaveBeenCalled();
    expect(model.cards.onTable).not.toHaveBeenCalled();
    expect(model.bus.askOne).not.toHaveBeenCalled();

    await expect(setup({ own, source: card(8, 'question') }).service.forCard(user, 1)).resolves.toMatchObject({ models: [] });
    await expect(setup({ own, source: null }).service.forCard(user, 1)).resolves.toMatchObject({ models: [] });
  });

  it('leaves out a table the caller may not read or that is gone, but lets other failures through', async () => {
    for (const tableError of [new ForbiddenError(), new NotFoundError()]) {
      const m = setup({ onTable: [card(2, 'question')], tableError });
      const r = await m.service.forCard(user, 1);
      expect(r).toMatchObject({ table: null, metrics: [], segments: [], 'similar-questions': [], 'canonical-metric': null });
      expect(m.cards.onTable).not.toHaveBeenCalled();
      expect(m.bus.askOne).not.toHaveBeenCalled();
    }
    const broken = new Error('connection lost');
    await expect(setup({ tableError: broken }).service.forCard(user, 1)).rejects.toBe(broken);
  });

  it('refuses a card the caller may not read, as the access service decides', async () => {
    const m = setup();
    m.access.readable.mockRejectedValue(new ForbiddenError());
    await expect(m.service.forCard(user, 1)).rejects.toBeInstanceOf(ForbiddenError);
    expect(m.cards.onTable).not.toHaveBeenCalled();
  });

  it('answers an ad-hoc query once it is a map naming a database the caller may query', async () => {
    const bad = async (body: unknown) =>
      (await setup()
        .service.forQuery(user, body)
        .catch((x: unknown) => x)) as ValidationError;
    expect((await bad(null)).errors).toHaveProperty('query');
    expect((await bad([1])).errors).toHaveProperty('query');
    expect((await bad({ type: 'query', query: { 'source-table': 2 } })).errors).toHaveProperty('database');
    expect(await bad('x')).toBeInstanceOf(ValidationError);

    const refused = setup();
    refused.access.assertMayQuery.mockRejectedValue(new ForbiddenError());
    await expect(refused.service.forQuery(user, ordersQuery)).rejects.toBeInstanceOf(ForbiddenError);
    expect(refused.cards.onTable).not.toHaveBeenCalled();

    const m = setup({ onTable: [card(1, 'question')] });
    const r = await m.service.forQuery(user, ordersQuery);
    expect(m.access.assertMayQuery).toHaveBeenCalledWith(user, expect.objectContaining({ database_id: 1, table_id: 2 }));
    // No card of its own: every question on the table is similar.
    expect(r['similar-questions'].map((c) => c.id)).toEqual([1]);
    expect(r['canonical-metric']).toMatchObject({ id: 30 });
  });
});
