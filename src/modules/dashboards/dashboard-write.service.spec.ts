import type { DataSource } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import { EventBus } from '../../common/events/event-bus';
import type { Dashboard } from '../../schema/dashboard.entity';
import type { BookmarksRepository } from '../bookmarks';
import type { CardsRepository } from '../cards';
import type { RevisionService } from '../revisions';
import type { SearchIndexService } from '../search';
import type { DashboardAccessService } from './dashboard-access.service';
import type { DashboardHydrator } from './dashboard-hydrator';
import { dashboardSnapshot } from './dashboard-snapshot';
import { DashboardWriteService } from './dashboard-write.service';
import type { DashboardsRepository } from './dashboards.repository';
import { syncLayout } from './dashcard-layout';

// The layout's own reads and writes are dashcard-layout.ts's (its parsing stays real).
jest.mock('./dashcard-layout', () => ({
  ...jest.requireActual('./dashcard-layout'),
  loadLayout: jest.fn(async () => ({ cards: [], seriesOf: new Map(), tabs: [] })),
  syncLayout: jest.fn(async () => undefined),
  deleteDashcards: jest.fn(async () => undefined),
  releaseCards: jest.fn(async () => undefined),
}));

/** DashboardWriteService's rules, with the transaction, the layout writes, the access checks and the indexes mocked. */
describe('DashboardWriteService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const dashboard = (over: Partial<Dashboard> = {}) =>
    ({
      id: 4,
      name: 'Sales',
      description: null,
      parameters: '[]',
      collection_id: 2,
      collection_position: 1,
      archived: false,
      enable_embedding: false,
      embedding_params: null,
      points_of_interest: null,
      caveats: null,
      position: null,
      show_in_getting_started: false,
      ...over,
    }) as Dashboard;

  function setup(opts: { stored?: Dashboard; latest?: string | null; onIt?: number[]; found?: number[]; actions?: number[] } = {}) {
    const d = opts.stored ?? dashboard();
    const saved: Dashboard[] = [];
    const cardMoves: unknown[] = [];
    const tx = {
      create: jest.fn((_e: unknown, v: Partial<Dashboard>) => ({ ...v })),
      save: jest.fn(async (x: Dashboard) => {
        saved.push({ ...x });
        return { ...x, id: x.id ?? 40 };
      }),
      findOneByOrFail: jest.fn(async () => ({ ...d })),
      findOne: jest.fn(async () => (opts.latest === undefined || opts.latest === null ? null : { object: opts.latest })),
    };
    const db = { transaction: jest.fn(async (work: (t: typeof tx) => unknown) => work(tx)) };
    const access = {
      writable: jest.fn().mockResolvedValue({ ...d }),
      readable: jest.fn(),
      assertWriteCollection: jest.fn().mockResolvedValue(undefined),
    };
    const repo = {
      cardIdsOn: jest.fn().mockResolvedValue(new Set(opts.onIt ?? [])),
      existingActionIds: jest.fn(async (ids: number[]) => ids.filter((i) => (opts.actions ?? []).includes(i))),
      ownCardsOnlyHere: jest.fn().mockResolvedValue([]),
    };
    const cards = {
      byIds: jest.fn(async (ids: number[]) => ids.filter((i) => (opts.found ?? ids).includes(i)).map((id) => ({ id }))),
      deleteReferences: jest.fn().mockResolvedValue(undefined),
      moveWithDashboard: jest.fn(
        async (_tx: unknown, _id: number, collectionId: number | null) => void cardMoves.push({ collection_id: collectionId }),
      ),
    };
    const hydrator = { cardPerms: jest.fn(async () => (r: { id: number }) => r.id !== 13) };
    const revisions = { record: jest.fn().mockResolvedValue(undefined) };
    const search = { index: jest.fn().mockResolvedValue(undefined) };
    const service = new DashboardWriteService(
      db as unknown as DataSource,
      repo as unknown as DashboardsRepository,
      access as unknown as DashboardAccessService,
      hydrator as unknown as DashboardHydrator,
      cards as unknown as CardsRepository,
      revisions as unknown as RevisionService,
      search as unknown as SearchIndexService,
      {} as BookmarksRepository,
      new EventBus(),
    );
    return { service, tx, db, access, repo, cards, revisions, search, saved, cardMoves };
  }
  const dashcard = (over: Record<string, unknown> = {}) => ({ id: 1, card_id: 10, size_x: 4, size_y: 4, row: 0, col: 0, ...over });

  it('lets only admins change embedding, but takes the same values sent back from anyone', async () => {
    const m = setup({ stored: dashboard({ enable_embedding: true }) });
    await expect(m.service.update(user, 4, { enable_embedding: false } as never)).rejects.toBeInstanceOf(ForbiddenError);
    expect(m.db.transaction).not.toHaveBeenCalled();
    await m.service.update(user, 4, { enable_embedding: true, name: 'Same' } as never);
    await m.service.update(admin, 4, { embedding_params: { region: 'locked' } } as never);
    expect(m.saved.at(-1)!.embedding_params).toBe('{"region":"locked"}');
  });

  it('moves the questions saved in the dashboard along with it, after checking the destination', async () => {
    const stays = setup();
    await stays.service.update(user, 4, { collection_id: 2, name: 'N' } as never);
    expect(stays.access.assertWriteCollection).not.toHaveBeenCalled();
    expect(stays.cardMoves).toEqual([]);

    const moves = setup();
    await moves.service.update(user, 4, { collection_id: 9 } as never);
    expect(moves.access.assertWriteCollection).toHaveBeenCalledWith(user, 9);
    expect(moves.cardMoves).toEqual([{ collection_id: 9 }]);

    const denied = setup();
    denied.access.assertWriteCollection.mockRejectedValue(new ForbiddenError());
    await expect(denied.service.update(user, 4, { collection_id: null } as never)).rejects.toBeInstanceOf(ForbiddenError);
    expect(denied.db.transaction).not.toHaveBeenCalled();
  });

  it('checks only the cards newly put on the dashboard: unknown ones are a 404, unreadable ones a 403', async () => {
    const known = setup({ onIt: [13] });
    await known.service.update(user, 4, { dashcards: [dashcard({ card_id: 13 })] } as never);
    expect(known.cards.byIds).not.toHaveBeenCalled();
    expect(syncLayout).toHaveBeenLastCalledWith(known.tx, 4, [expect.objectContaining({ card_id: 13 })], undefined);

    const unknown = setup({ found: [10] });
    await expect(unknown.service.update(user, 4, { dashcards: [dashcard({ card_id: 10, series: [11] })] } as never)).rejects.toBeInstanceOf(
      NotFoundError,
    );

    const unreadable = setup();
    await expect(unreadable.service.update(user, 4, { dashcards: [dashcard({ card_id: 13 })] } as never)).rejects.toBeInstanceOf(
      ForbiddenError,
    );

    const noAction = setup({ actions: [] });
    await expect(
      noAction.service.update(user, 4, { dashcards: [dashcard({ card_id: null, action_id: 5 })] } as never),
    ).rejects.toBeInstanceOf(NotFoundError);
    for (const m of [unknown, unreadable, noAction]) expect(m.db.transaction).not.toHaveBeenCalled();
  });

  it('keeps no revision for a save that changes nothing, and one for a real change', async () => {
    const same = dashboard();
    const unchanged = setup({ latest: JSON.stringify(dashboardSnapshot(same, [], new Map(), [])) });
    await unchanged.service.update(user, 4, { name: 'Sales' } as never);
    expect(unchanged.revisions.record).not.toHaveBeenCalled();
    expect(unchanged.search.index).toHaveBeenCalledWith(unchanged.tx, 'dashboard', 4, { name: 'Sales', description: null });

    const changed = setup({ latest: JSON.stringify(dashboardSnapshot(same, [], new Map(), [])) });
    await changed.service.update(user, 4, { name: 'Renamed' } as never);
    expect(changed.revisions.record).toHaveBeenCalledWith(
      changed.tx,
      expect.objectContaining({ model: 'dashboard', modelId: 4, userId: 7, isCreation: false }),
    );
  });

  it('creates in a writable collection with a creation revision', async () => {
    const m = setup();
    await expect(m.service.create(user, { name: 'New', collection_id: 3 } as never)).resolves.toBe(40);
    expect(m.access.assertWriteCollection).toHaveBeenCalledWith(user, 3);
    expect(m.saved[0]).toMatchObject({ name: 'New', collection_id: 3, creator_id: 7, parameters: '[]', description: null });
    expect(m.revisions.record).toHaveBeenCalledWith(m.tx, expect.objectContaining({ isCreation: true, modelId: 40 }));
  });

  it('applies archiving (unpinned), empty descriptions as none, and ignores nulls for keys that cannot be empty', () => {
    const m = setup();
    const d = dashboard({ description: 'old', width: 'fixed' } as Partial<Dashboard>);
    m.service.apply(d, { archived: true, description: '', name: null, width: null } as never);
    expect(d).toMatchObject({ archived: true, archived_directly: true, collection_position: null, description: null, name: 'Sales' });
    expect((d as unknown as { width: string }).width).toBe('fixed');
  });
});
