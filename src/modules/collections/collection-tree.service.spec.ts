import { TRUE } from '../../common/database/sql';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError } from '../../common/errors/api-errors';
import { EventBus } from '../../common/events/event-bus';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import type { CollectionAccessService, CollectionPlace } from './collection-access.service';
import { CollectionModelsQuery } from './collection-item-source';
import { CollectionReader } from './collection-reader.service';
import { CollectionTreeService, type TreeNodeView, type TreeOptions } from './collection-tree.service';
import type { CollectionRow, CollectionsRepository } from './collections.repository';

/** CollectionTreeService: readable collections hung under their nearest readable ancestor; the real reader over mocked grants. */
describe('CollectionTreeService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const row = (id: number, location: string, over: Partial<CollectionRow> = {}) =>
    ({
      id,
      name: `c${id}`,
      description: null,
      slug: null,
      location,
      personal_owner_id: null,
      namespace: null,
      authority_level: null,
      archived: false,
      ...over,
    }) as CollectionRow;
  // 1 > 2 > 3 > 4 with 2 unreadable: 3 hangs under 1. 5 is another user's personal collection.
  const tree = [
    row(1, '/'),
    row(2, '/1/'),
    row(3, '/1/2/', { name: 'b' }),
    row(4, '/1/2/3/'),
    row(6, '/1/', { name: 'a' }),
    row(5, '/', { personal_owner_id: 9 }),
  ];
  const grants = new Map<number, CollectionPerm>([
    [1, 'write'],
    [3, 'read'],
    [4, 'read'],
    [5, 'read'],
    [6, 'read'],
  ]);
  const options = (o: Partial<TreeOptions> = {}): TreeOptions => ({
    namespace: null,
    excludeArchived: true,
    excludeOthersPersonal: false,
    shallow: false,
    collectionId: null,
    ...o,
  });

  function setup() {
    const byId = new Map(tree.map((c) => [c.id, c]));
    const repo = {
      findById: jest.fn(async (id: number) => byId.get(id) ?? null),
      findByIds: jest.fn(async (ids: number[]) => ids.map((id) => byId.get(id)).filter(Boolean)),
      // The database leaves out what the caller may not read.
      inNamespace: jest.fn(async () => tree.filter((c) => grants.has(c.id))),
    };
    const access = {
      forCollections: jest.fn(
        async (_u: AuthUser, cs: CollectionPlace[]) => new Map(cs.filter((c) => grants.has(c.id)).map((c) => [c.id, grants.get(c.id)!])),
      ),
      assertRead: jest.fn(async (_u: AuthUser, c: CollectionPlace) => {
        if (!grants.has(c.id)) throw new ForbiddenError();
      }),
      readableWhere: jest.fn().mockResolvedValue(TRUE),
    };
    const bus = new EventBus();
    bus.answer(CollectionModelsQuery, () => new Map([[4, new Set(['card'])]]));
    const reader = new CollectionReader(repo as unknown as CollectionsRepository, access as unknown as CollectionAccessService);
    return new CollectionTreeService(repo as unknown as CollectionsRepository, reader, access as unknown as CollectionAccessService, bus);
  }
  const shape = (nodes: TreeNodeView[]): unknown[] =>
    nodes.map((n) => (Array.isArray(n.children) && n.children.length ? [n.id, shape(n.children)] : n.id));

  it('hangs each readable collection under its nearest readable ancestor, by name, with models here and below', async () => {
    const nodes = [...(await setup().tree(user, options()))];
    expect(shape(nodes)).toEqual([[1, [6, [3, [4]]]], 5]);
    const one = nodes[0];
    expect(one).toMatchObject({ can_write: true, here: [], below: ['card'] });
    const three = (one.children as TreeNodeView[])[1];
    expect(three).toMatchObject({ id: 3, effective_location: '/1/', here: [], below: ['card'], can_write: false });
    expect((three.children as TreeNodeView[])[0]).toMatchObject({ id: 4, here: ['card'], below: [] });
  });

  it("answers whether there are children in a shallow tree, and leaves out others' personal trees when asked", async () => {
    const nodes = [...(await setup().tree(user, options({ shallow: true, excludeOthersPersonal: true })))];
    expect(nodes.map((n) => [n.id, n.children])).toEqual([[1, true]]);
  });

  it('starts below a collection the caller may read', async () => {
    expect(shape([...(await setup().tree(user, options({ collectionId: 3 })))])).toEqual([4]);
    await expect(setup().tree(user, options({ collectionId: 2 }))).rejects.toBeInstanceOf(ForbiddenError);
  });
});
