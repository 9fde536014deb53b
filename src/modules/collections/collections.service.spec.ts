import { TRUE } from '../../common/database/sql';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError } from '../../common/errors/api-errors';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import type { CollectionAccessService, CollectionPlace } from './collection-access.service';
import { CollectionReader } from './collection-reader.service';
import type { CollectionRow, CollectionsRepository } from './collections.repository';
import { CollectionsService } from './collections.service';

/** CollectionsService: one collection with its readable ancestors, and the flat list with the Root; grants mocked. */
describe('CollectionsService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const row = (id: number, location: string, over: Partial<CollectionRow> = {}) =>
    ({
      id,
      name: `c${id}`,
      description: null,
      slug: `c${id}`,
      location,
      personal_owner_id: null,
      namespace: null,
      authority_level: null,
      archived: false,
      ...over,
    }) as CollectionRow;
  // 1 > 2 > 3, with 2 unreadable; 4 the caller's own; 5 official.
  const tree = [
    row(1, '/', { name: 'b' }),
    row(2, '/1/'),
    row(3, '/1/2/'),
    row(4, '/', { personal_owner_id: 7, name: 'a' }),
    row(5, '/', { name: 'z', authority_level: 'official' }),
  ];
  const grants = new Map<number, CollectionPerm>([
    [1, 'write'],
    [3, 'read'],
    [4, 'write'],
    [5, 'read'],
  ]);

  function setup(root: CollectionPerm | null = 'read') {
    const byId = new Map(tree.map((c) => [c.id, c]));
    const repo = {
      findById: jest.fn(async (id: number) => byId.get(id) ?? null),
      findByIds: jest.fn(async (ids: number[]) => ids.map((id) => byId.get(id)).filter(Boolean)),
      inNamespace: jest.fn(async () => tree.filter((c) => grants.has(c.id))),
    };
    const access = {
      forCollections: jest.fn(
        async (_u: AuthUser, cs: CollectionPlace[]) => new Map(cs.filter((c) => grants.has(c.id)).map((c) => [c.id, grants.get(c.id)!])),
      ),
      assertRead: jest.fn(async (_u: AuthUser, c: CollectionPlace) => {
        if (!grants.has(c.id)) throw new ForbiddenError();
      }),
      canWrite: jest.fn(async () => root === 'write'),
      permission: jest.fn(async () => root),
      readableWhere: jest.fn().mockResolvedValue(TRUE),
    };
    const reader = new CollectionReader(repo as unknown as CollectionsRepository, access as unknown as CollectionAccessService);
    return new CollectionsService(repo as unknown as CollectionsRepository, reader, access as unknown as CollectionAccessService);
  }

  it('answers a collection with the Root and its readable ancestors only, under its effective location', async () => {
    const c = await setup().get(user, 3);
    expect(c.effective_ancestors.map((a) => [a.id, a.can_write])).toEqual([
      ['root', false],
      [1, true],
    ]);
    expect(c).toMatchObject({ id: 3, effective_location: '/1/', can_write: false });
    await expect(setup().get(user, 2)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('lists the Root first when readable, then official collections and the rest by name', async () => {
    expect(
      (await setup('write').list(user, { namespace: null, archived: false, excludeOthersPersonal: false, personalOnly: false })).map(
        (c) => c.id,
      ),
    ).toEqual(['root', 5, 4, 1, 3]);
    expect(
      (await setup(null).list(user, { namespace: null, archived: false, excludeOthersPersonal: false, personalOnly: false }))[0].id,
    ).toBe(5);
    expect(
      (await setup().list(user, { namespace: null, archived: false, excludeOthersPersonal: false, personalOnly: true })).map((c) => c.id),
    ).toEqual([4]);
    expect(
      (await setup().list(user, { namespace: null, archived: true, excludeOthersPersonal: false, personalOnly: false }))[0].id,
    ).not.toBe('root');
  });
});
