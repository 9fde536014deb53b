import type { AuthUser } from '../../common/auth/current-user';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import type { CollectionAccessRepository } from './collection-access.repository';
import { CollectionAccessService } from './collection-access.service';
import { GrantTable } from './grant-table';

const bob: AuthUser = { id: 7, isSuperuser: false, groupIds: [1, 3] };
const admin: AuthUser = { id: 1, isSuperuser: true, groupIds: [1, 2] };

/** Grants by collection id (null: Root); Bob's personal collection is 50 at the top level. */
function setup(grants: Map<number | null, CollectionPerm[]>) {
  const table = () =>
    GrantTable.of(
      [...grants]
        .filter(([id]) => id !== null)
        .map(([id, perms]) => ({ collectionId: id!, perm: perms.includes('write') ? 'write' : 'read' })),
    );
  const repo = {
    grantsOn: jest.fn(async (_g: number[], id: number | null) => grants.get(id) ?? []),
    bestGrants: jest.fn(async () => table()),
    allBestGrants: jest.fn(async () => table()),
    ownerOf: jest.fn(async (id: number) => (id === 50 ? 7 : id === 60 ? 8 : null)),
    personalCollection: jest.fn(async (userId: number) => (userId === 7 ? { id: 50, location: '/' } : null)),
    personalCollectionIds: jest.fn(),
  };
  return { repo, access: new CollectionAccessService(repo as unknown as CollectionAccessRepository) };
}

describe('CollectionAccessService', () => {
  it('gives the best grant of the caller’s groups, write on their own personal tree, and nothing on another’s', async () => {
    const { access } = setup(
      new Map<number | null, CollectionPerm[]>([
        [4, ['read', 'write']],
        [5, ['read']],
        [null, ['read']],
      ]),
    );
    const place = (id: number, location = '/', owner: number | null = null) => ({ id, location, personal_owner_id: owner });
    expect(await access.permission(bob, place(4))).toBe('write');
    expect(await access.permission(bob, place(5))).toBe('read');
    expect(await access.permission(bob, place(6))).toBeNull();
    expect(await access.permission(bob, null)).toBe('read');
    expect(await access.permission(bob, place(51, '/50/'))).toBe('write');
    expect(await access.permission(bob, place(60, '/', 8))).toBeNull();
    expect(await access.permission(admin, place(6))).toBe('write');
    await expect(access.assertRead(bob, place(6))).rejects.toMatchObject({ status: 403 });
  });

  it('answers a listing’s readable condition as bound values: Root when readable, the groups’ grants, the own personal tree', async () => {
    const { access } = setup(new Map<number | null, CollectionPerm[]>([[null, ['read']]]));
    const { text, values } = (await access.readableWhere(bob, 'c.collection_id')).numbered();
    expect(text).toBe(
      '(c.collection_id IS NULL OR c.collection_id IN (SELECT collection_id FROM collection_permission\n' +
        '          WHERE group_id IN ($1, $2) AND collection_id IS NOT NULL)' +
        ' OR c.collection_id IN (SELECT id FROM collection WHERE id = $3 OR (location >= $4 AND location < $5)))',
    );
    expect(values.slice(0, 3)).toEqual([1, 3, 50]);
    expect((await access.readableWhere(admin, 'c.collection_id')).numbered().text).toBe('TRUE');
    const nobody = setup(new Map()).access;
    expect((await nobody.readableWhere({ id: 9, isSuperuser: false, groupIds: [] }, 'id')).numbered().text).toBe('FALSE');
  });

  it('decides a whole page in one grant lookup: own tree write, others’ personal tops out, the rest by grant', async () => {
    const { access, repo } = setup(new Map<number | null, CollectionPerm[]>([[4, ['read']]]));
    const perms = await access.forCollections(bob, [
      { id: 4, location: '/', personal_owner_id: null },
      { id: 51, location: '/50/', personal_owner_id: null },
      { id: 60, location: '/', personal_owner_id: 8 },
      { id: 6, location: '/', personal_owner_id: null },
    ]);
    expect([...perms]).toEqual([
      [4, 'read'],
      [51, 'write'],
    ]);
    expect(repo.bestGrants).toHaveBeenCalledTimes(1);
  });

  it('past 2,000 collections checks them against every grant of the groups (kept) instead of an IN list', async () => {
    const { access, repo } = setup(new Map<number | null, CollectionPerm[]>([[2500, ['write']]]));
    const many = Array.from({ length: 2001 }, (_, i) => ({ id: 1000 + i, location: '/', personal_owner_id: null }));
    const perms = await access.forCollections(bob, many);
    expect([...perms]).toEqual([[2500, 'write']]);
    expect(repo.allBestGrants).toHaveBeenCalledWith([1, 3]);
    expect(repo.bestGrants).not.toHaveBeenCalled();
  });
});
