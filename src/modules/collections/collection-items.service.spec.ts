import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError } from '../../common/errors/api-errors';
import { EventBus } from '../../common/events/event-bus';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import type { CollectionAccessService } from './collection-access.service';
import { type CollectionItem, CollectionItemsQuery, CollectionModelsQuery } from './collection-item-source';
import { CollectionItemsService, type ItemsOptions } from './collection-items.service';
import { CollectionReader } from './collection-reader.service';
import type { CollectionRow, CollectionsRepository } from './collections.repository';

/**
 * CollectionItemsService: which collections show inside another for a caller, merged with the item sources' answers,
 * sorted and paged. The tree is in memory; the real CollectionReader applies mocked grants; sources answer on the bus.
 */
describe('CollectionItemsService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const row = (id: number, location: string, over: Partial<CollectionRow> = {}) =>
    ({
      id,
      name: `c${id}`,
      description: null,
      location,
      personal_owner_id: null,
      namespace: null,
      archived: false,
      archived_directly: false,
      ...over,
    }) as CollectionRow;
  // 1 > 2 > 3 > 4; 2 is not readable, so 3 shows directly inside 1; 5 inside 1 is archived; 8 is official.
  const tree = [
    row(1, '/'),
    row(2, '/1/'),
    row(3, '/1/2/', { name: 'beta' }),
    row(4, '/1/2/3/'),
    row(5, '/1/', { archived: true }),
    row(8, '/1/', { name: 'zeta', authority_level: 'official' }),
  ];
  const grants = new Map<number, CollectionPerm>([
    [1, 'write'],
    [3, 'read'],
    [4, 'read'],
    [5, 'write'],
    [8, 'read'],
  ]);
  const options = (o: Partial<ItemsOptions> = {}): ItemsOptions => ({
    namespace: null,
    models: [],
    archived: false,
    pinnedState: 'all',
    ...o,
  });

  function setup(items: CollectionItem[] = []) {
    const byId = new Map(tree.map((c) => [c.id, c]));
    const repo = {
      findById: jest.fn(async (id: number) => byId.get(id) ?? null),
      findByIds: jest.fn(async (ids: number[]) => ids.map((id) => byId.get(id)).filter(Boolean)),
      subtreeShapes: jest.fn(async (prefix: string) => tree.filter((c) => c.location.startsWith(prefix))),
      shapesInNamespace: jest.fn(async () => tree),
    };
    const access = {
      forCollections: jest.fn(
        async (_u: AuthUser, cs: CollectionRow[]) => new Map(cs.filter((c) => grants.has(c.id)).map((c) => [c.id, grants.get(c.id)!])),
      ),
      assertRead: jest.fn(async (_u: AuthUser, c: CollectionRow) => {
        if (!grants.has(c.id)) throw new ForbiddenError();
      }),
      canWrite: jest.fn(async (_u: AuthUser, c: CollectionRow | null) => c !== null && grants.get(c.id) === 'write'),
    };
    const bus = new EventBus();
    const asked: CollectionItemsQuery[] = [];
    bus.answer(CollectionItemsQuery, (q) => (asked.push(q), items.filter((i) => q.query.models.includes(i.model))));
    bus.answer(CollectionModelsQuery, () => new Map([[4, new Set(['card'])]]));
    const reader = new CollectionReader(repo as unknown as CollectionsRepository, access as unknown as CollectionAccessService);
    const service = new CollectionItemsService(
      repo as unknown as CollectionsRepository,
      reader,
      access as unknown as CollectionAccessService,
      bus,
    );
    return { service, access, asked };
  }
  const item = (id: number, model: string, name: string) => ({ id, model, name, collection_position: null }) as unknown as CollectionItem;

  it('shows the collections whose nearest readable ancestor is this one, official first, with their models here and below', async () => {
    const out = await setup().service.items(user, 1, options({ models: ['collection'] }));
    expect(out.data.map((c) => c.id)).toEqual([8, 3]);
    const beta = out.data.find((c) => c.id === 3)!;
    expect(beta).toMatchObject({ here: ['collection'], below: ['card'], can_write: false });
    expect(out.total).toBe(2);
  });

  it('shows archived sub-collections only in the trash view', async () => {
    const out = await setup().service.items(user, 1, options({ models: ['collection'], archived: true }));
    expect(out.data.map((c) => c.id)).toEqual([5]);
  });

  it("merges the sources' items with the collections, sorted by name and paged, asking the sources for the requested models", async () => {
    const m = setup([item(20, 'card', 'Alpha'), item(21, 'dashboard', 'Gamma'), item(22, 'card', 'delta')]);
    const out = await m.service.items(user, 1, options({ models: ['card', 'collection', 'nope'], limit: 2, offset: 1 }));
    expect(out.models).toEqual(['card', 'collection']);
    expect(m.asked[0].query).toMatchObject({ collectionId: 1, models: ['card', 'collection'], archived: false });
    expect(out.total).toBe(4);
    expect(out.data.map((i) => i.id)).toEqual([20, 3]);
    expect(out.data[0]).toMatchObject({ can_write: true });
    expect(out).toMatchObject({ limit: 2, offset: 1 });
  });

  it('refuses a collection the caller may not read', async () => {
    await expect(setup().service.items(user, 2, options())).rejects.toBeInstanceOf(ForbiddenError);
  });
});
