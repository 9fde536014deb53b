import type { DataSource } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, ValidationError } from '../../common/errors/api-errors';
import type { Card } from '../../schema/card.entity';
import type { CardsRepository } from '../cards';
import type { RevisionService } from '../revisions';
import type { SearchIndexService } from '../search';
import type { DatabaseAccessService } from '../warehouse';
import type { DashboardAccessService } from './dashboard-access.service';
import { DashboardCopyService } from './dashboard-copy.service';
import type { DashboardHydrator } from './dashboard-hydrator';
import type { DashboardWriteService } from './dashboard-write.service';
import type { DashboardsRepository } from './dashboards.repository';
import { type DashcardInput, loadLayout, syncLayout } from './dashcard-layout';

jest.mock('./dashcard-layout', () => ({
  ...jest.requireActual('./dashcard-layout'),
  loadLayout: jest.fn(),
  syncLayout: jest.fn(async () => undefined),
}));

const synced = syncLayout as jest.MockedFunction<typeof syncLayout>;
/** Cards placed into a dashboard: (tx, cardId, dashboardId). */
const placed = jest.fn(async (_tx: unknown, _card: number, _dashboard: number | null) => undefined);

/** DashboardCopyService: which cards a copy copies and where its layout points, and the checks of a saved dashboard. */
describe('DashboardCopyService', () => {
  const caller = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const QUERY = JSON.stringify({ database: 1, type: 'query', query: { 'source-table': 10 } });
  // Card 20 is saved in the source dashboard 4, 21 is readable and 22 is not.
  const cardRows = [
    { id: 20, dashboard_id: 4 },
    { id: 21, dashboard_id: null },
    { id: 22, dashboard_id: null },
  ];

  beforeEach(() => {
    jest.clearAllMocks();
    (loadLayout as jest.Mock).mockResolvedValue({
      cards: [
        {
          id: 100,
          card_id: 20,
          dashboard_tab_id: 8,
          action_id: null,
          row: 0,
          col: 0,
          size_x: 4,
          size_y: 4,
          parameter_mappings: JSON.stringify([{ parameter_id: 'p', card_id: 20, target: ['dimension', ['field', 1, null]] }]),
          visualization_settings: null,
          inline_parameters: null,
        },
        { id: 101, card_id: 21, dashboard_tab_id: 8, row: 4, col: 0, size_x: 4, size_y: 4, parameter_mappings: null },
        { id: 102, card_id: 22, dashboard_tab_id: 8, row: 8, col: 0, size_x: 4, size_y: 4, parameter_mappings: null },
      ],
      seriesOf: new Map([[101, [21, 22]]]),
      tabs: [{ id: 8, name: 'Tab' }],
    });
  });

  function setup() {
    let nextId = 500;
    const created: Array<Record<string, unknown>> = [];
    const tx = {
      create: jest.fn((_e: unknown, v: Record<string, unknown>) => ({ ...v })),
      save: jest.fn(async (v: Record<string, unknown>) => {
        const row = { ...v, id: nextId++ };
        created.push(row);
        return row;
      }),
      findOneByOrFail: jest.fn(async (_e: unknown, { id }: { id: number }) =>
        id === 4
          ? { id: 4, name: 'Source', description: 'src', parameters: '[]', cache_ttl: null, width: 'fixed', auto_apply_filters: true }
          : ({ id, name: `Card ${id}`, description: null, dataset_query: QUERY, view_count: 9, archived: false } as unknown as Card),
      ),
      createQueryBuilder: jest.fn(() => {
        const qb = { insert: () => qb, into: () => qb, values: () => qb, execute: async () => undefined };
        return qb;
      }),
    };
    const db = { transaction: jest.fn(async (work: (t: typeof tx) => unknown) => work(tx)) };
    const access = {
      readable: jest.fn().mockResolvedValue({ row: { id: 4, collection_id: 2 } }),
      assertWriteCollection: jest.fn().mockResolvedValue(undefined),
    };
    const repo = { cardIdsOn: jest.fn().mockResolvedValue(new Set([20, 21, 22])) };
    const hydrator = { cardPerms: jest.fn(async () => (r: { id: number }) => (r.id === 22 ? null : 'read')) };
    const writes = { saved: jest.fn().mockResolvedValue(undefined) };
    const cards = {
      byIds: jest.fn().mockResolvedValue(cardRows),
      replaceReferences: jest.fn().mockResolvedValue(undefined),
      setDashboard: placed,
    };
    const databases = { assertCanRead: jest.fn().mockResolvedValue(undefined) };
    const service = new DashboardCopyService(
      db as unknown as DataSource,
      access as unknown as DashboardAccessService,
      repo as unknown as DashboardsRepository,
      hydrator as unknown as DashboardHydrator,
      writes as unknown as DashboardWriteService,
      cards as unknown as CardsRepository,
      { record: jest.fn() } as unknown as RevisionService,
      { index: jest.fn() } as unknown as SearchIndexService,
      databases as unknown as DatabaseAccessService,
    );
    return { service, tx, db, access, writes, databases, created };
  }
  const layoutSent = (): DashcardInput[] => synced.mock.calls[0][2] as DashcardInput[];

  it('a shallow copy copies only the questions saved in the dashboard, into the new one, and keeps the other cards', async () => {
    const m = setup();
    const id = await m.service.copy(caller, 4, {} as never);
    expect(id).toBe(500);
    expect(m.access.assertWriteCollection).toHaveBeenCalledWith(caller, 2);
    expect(m.created[0]).toMatchObject({ name: 'Source', description: 'src', collection_id: 2, creator_id: 7 });
    expect(m.created[1]).toMatchObject({ name: 'Card 20', collection_id: 2, creator_id: 7, view_count: 0, collection_position: null });
    expect(m.created).toHaveLength(2);
    expect(placed).toHaveBeenCalledWith(m.tx, 501, 500);
    const layout = layoutSent();
    expect(layout.map((d) => d.card_id)).toEqual([501, 21, 22]);
    expect(layout[0].parameter_mappings[0].card_id).toBe(501);
    expect(layout[1].series).toEqual([21, 22]);
    expect(layout[0]).toMatchObject({ id: -100, dashboard_tab_id: -8 });
    expect(synced.mock.calls[0][3]).toEqual([{ id: -8, name: 'Tab' }]);
    expect(m.writes.saved).toHaveBeenCalledWith(m.tx, caller, expect.objectContaining({ id: 500 }), true);
  });

  it('a deep copy also copies the cards the caller may read, into the target collection, and points series at them', async () => {
    const m = setup();
    await m.service.copy(caller, 4, { is_deep_copy: true, collection_id: null, name: 'Mine' } as never);
    expect(m.access.assertWriteCollection).toHaveBeenCalledWith(caller, null);
    expect(m.created.map((c) => c.name)).toEqual(['Mine', 'Card 20', 'Card 21']);
    expect(m.created[2]).toMatchObject({ collection_id: null });
    // Only the dashboard's own question is saved into the copy; the copied ordinary card stays a collection card.
    expect(placed.mock.calls).toEqual([
      [m.tx, 501, 500],
      [m.tx, 502, null],
    ]);
    expect(layoutSent().map((d) => d.card_id)).toEqual([501, 502, 22]);
    expect(layoutSent()[1].series).toEqual([502, 22]);
  });

  it('refuses a copy into a collection the caller cannot write, before writing', async () => {
    const m = setup();
    m.access.assertWriteCollection.mockRejectedValue(new ForbiddenError());
    await expect(m.service.copy(caller, 4, { collection_id: 3 } as never)).rejects.toBeInstanceOf(ForbiddenError);
    expect(m.db.transaction).not.toHaveBeenCalled();
  });

  it('validates a saved dashboard body with the parameter that is wrong', async () => {
    const errors = async (body: Record<string, unknown>, parent?: number) => {
      const e = await setup()
        .service.save(caller, body, parent)
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ValidationError);
      return Object.keys((e as ValidationError).errors);
    };
    expect(await errors({ name: '  ' })).toEqual(['name']);
    expect(await errors({ name: 'A', collection_id: 0 })).toEqual(['collection_id']);
    expect(await errors({ name: 'A', parameters: [{ id: 'p' }] })).toEqual(['parameters']);
    expect(await errors({ name: 'A', dashcards: [{ card: { name: 'c', dataset_query: { type: 'query' } } }] })).toEqual(['dashcards']);
  });

  it('saves each dashcard card as a question of the new dashboard, after checking data access to each database once', async () => {
    const m = setup();
    const q = { database: 1, type: 'query', query: { 'source-table': 10 } };
    await m.service.save(
      caller,
      {
        name: 'Auto',
        dashcards: [
          { card: { name: 'A', dataset_query: q }, parameter_mappings: [{ parameter_id: 'p', card_id: -5, target: ['dimension', 'x'] }] },
          { card: { name: 'B', dataset_query: q, display: 'bar' } },
          { card: null, size_x: 2 },
        ],
      },
      6,
    );
    expect(m.databases.assertCanRead.mock.calls).toEqual([[caller, 1]]);
    expect(m.access.assertWriteCollection).toHaveBeenCalledWith(caller, 6);
    expect(m.created.map((c) => [c.name, c.display, c.collection_id, c.type])).toEqual([
      ['Auto', undefined, 6, undefined],
      ['A', 'table', 6, 'question'],
      ['B', 'bar', 6, 'question'],
    ]);
    const layout = layoutSent();
    expect(layout.map((d) => d.card_id)).toEqual([501, 502, null]);
    expect(layout[0].parameter_mappings[0].card_id).toBe(501);
    expect(placed.mock.calls.map((c) => c.slice(1))).toEqual([
      [501, 500],
      [502, 500],
    ]);

    const denied = setup();
    denied.databases.assertCanRead.mockRejectedValue(new ForbiddenError());
    await expect(
      denied.service.save(caller, { name: 'X', dashcards: [{ card: { name: 'A', dataset_query: q } }] }, undefined),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect(denied.db.transaction).not.toHaveBeenCalled();
  });
});
