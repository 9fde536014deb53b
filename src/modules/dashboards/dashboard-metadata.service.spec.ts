import type { DataSource } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import type { CardRow } from '../../schema/card.rows';
import type { CardsRepository } from '../cards';
import type { DatasetMetadataService } from '../dataset';
import type { DashboardAccessService } from './dashboard-access.service';
import type { DashboardHydrator } from './dashboard-hydrator';
import { DashboardMetadataService } from './dashboard-metadata.service';
import type { DashboardVirtualTables } from './dashboard-virtual-tables';
import type { DashboardsRepository } from './dashboards.repository';
import { DashboardLayoutCache } from './dashboard-layout.cache';

/** DashboardMetadataService: which queries are merged into which lookups, and what link cards add; collaborators mocked. */
describe('DashboardMetadataService', () => {
  const caller = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const mbql = (db: number, query: Record<string, unknown>) => JSON.stringify({ database: db, type: 'query', query });
  const card = (id: number, dataset_query: string, over: Partial<CardRow> = {}) =>
    ({
      id,
      name: `card ${id}`,
      description: null,
      display: 'table',
      type: 'question',
      database_id: 1,
      collection_id: 3,
      dataset_query,
      ...over,
    }) as CardRow;
  // 20 and 21 query database 1, 22 database 2, 23 may not be read; 24 is a model on 25 (not on the dashboard); 30 is only linked.
  const cards = new Map<number, CardRow>(
    [
      card(20, mbql(1, { 'source-table': 10 })),
      card(21, mbql(1, { 'source-table': 11, joins: [{ 'source-table': 10 }] })),
      card(22, mbql(2, { 'source-table': 50 })),
      card(23, mbql(1, { 'source-table': 99 })),
      card(24, mbql(1, { 'source-table': 'card__25' }), { type: 'model' }),
      card(25, mbql(1, { 'source-table': 12 })),
      card(30, mbql(1, { 'source-table': 13 })),
    ].map((c) => [Number(c.id), c]),
  );

  function setup() {
    const repo = {
      dashcards: jest.fn().mockResolvedValue([
        { card_id: 20, visualization_settings: null },
        { card_id: 22, visualization_settings: '{}' },
        { card_id: 23, visualization_settings: null },
        { card_id: 24, visualization_settings: null },
        { card_id: null, visualization_settings: JSON.stringify({ link: { entity: { id: 30, model: 'card' } } }) },
        { card_id: null, visualization_settings: JSON.stringify({ link: { entity: { id: 40, model: 'dashboard' } } }) },
        { card_id: null, visualization_settings: JSON.stringify({ link: { entity: { id: 41, model: 'dashboard' } } }) },
      ]),
      series: jest.fn().mockResolvedValue([{ card_id: 21 }]),
      byIds: jest.fn().mockResolvedValue([
        { id: 40, name: 'Linked', description: null, collection_id: 3 },
        { id: 41, name: 'Hidden', description: null, collection_id: 4 },
      ]),
    };
    const cardsRepo = { byIds: jest.fn(async (ids: number[]) => ids.map((id) => cards.get(id)!).filter(Boolean)) };
    const hydrator = {
      cardPerms: jest.fn(
        async () => (r: { id: number; collection_id?: unknown }) => (Number(r.id) === 23 || Number(r.id) === 41 ? null : 'read'),
      ),
    };
    const datasetMetadata = {
      queryMetadata: jest.fn(async (_c: AuthUser, q: { database: number }) => ({
        databases: [{ id: q.database }],
        tables: [{ id: 10 }, { id: q.database * 100 }],
        fields: [{ id: 1 }],
      })),
    };
    const virtualTables = { of: jest.fn(async (_c: AuthUser, rows: CardRow[]) => rows.map((r) => ({ id: `card__${r.id}` }))) };
    const service = new DashboardMetadataService(
      { readable: jest.fn().mockResolvedValue({}) } as unknown as DashboardAccessService,
      repo as unknown as DashboardsRepository,
      layoutsOver(repo),
      cardsRepo as unknown as CardsRepository,
      hydrator as unknown as DashboardHydrator,
      datasetMetadata as unknown as DatasetMetadataService,
      virtualTables as unknown as DashboardVirtualTables,
    );
    return { service, repo, cardsRepo, datasetMetadata, virtualTables };
  }

  it('merges the readable dashcards and series into one lookup per database, with every table they use', async () => {
    const m = setup();
    await m.service.queryMetadata(caller, 4);
    const lookups = m.datasetMetadata.queryMetadata.mock.calls.map((c) => c[1]);
    expect(lookups).toEqual([
      {
        database: 1,
        type: 'query',
        query: {
          'source-table': 10,
          joins: [{ 'source-table': 11, alias: 't0' }],
        },
      },
      { database: 2, type: 'query', query: { 'source-table': 50, joins: [] } },
    ]);
    // Table 99 (card 23, unreadable) and 13 (card 30, only linked) are not looked up; the model's source is a virtual table.
  });

  it('answers the link cards and readable linked dashboards, and the tables of models and their sources, without duplicates', async () => {
    const m = setup();
    const answer = await m.service.queryMetadata(caller, 4);
    expect(answer.cards).toEqual([
      { id: 30, name: 'card 30', description: null, display: 'table', type: 'question', database_id: 1, collection_id: 3 },
    ]);
    expect(answer.dashboards).toEqual([{ id: 40, name: 'Linked', description: null, collection_id: 3 }]);
    expect(answer.databases).toEqual([{ id: 1 }, { id: 2 }]);
    expect(answer.tables.map((t) => t.id)).toEqual([10, 100, 200, 'card__25', 'card__24']);
    expect(answer.fields).toEqual([{ id: 1 }]);
    // The model's source, not on the dashboard, is loaded in one more query.
    expect(m.cardsRepo.byIds).toHaveBeenLastCalledWith([25]);
  });

  it('leaves out a database whose lookup is refused, and lets other errors through', async () => {
    const m = setup();
    m.datasetMetadata.queryMetadata.mockRejectedValueOnce(new ForbiddenError());
    const answer = await m.service.queryMetadata(caller, 4);
    expect(answer.databases).toEqual([{ id: 2 }]);

    const n = setup();
    n.datasetMetadata.queryMetadata.mockRejectedValueOnce(new NotFoundError());
    await expect(n.service.queryMetadata(caller, 4)).resolves.toBeDefined();

    const bug = setup();
    bug.datasetMetadata.queryMetadata.mockRejectedValueOnce(new TypeError('a bug'));
    await expect(bug.service.queryMetadata(caller, 4)).rejects.toThrow(TypeError);
  });
});

/** The real layout cache over the mocked repository, keeping nothing (each read goes to the mocks). */
function layoutsOver(repo: object): DashboardLayoutCache {
  const rows = { tabs: jest.fn().mockResolvedValue([]), ...repo } as unknown as DashboardsRepository;
  return new DashboardLayoutCache({ subscribers: [] } as unknown as DataSource, { settingsRefreshSeconds: 0 }, rows);
}
