import type { AuthUser } from '../../common/auth/current-user';
import { NotFoundError } from '../../common/errors/api-errors';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import type { CollectionAccessService } from './collection-access.service';
import { CollectionReader } from './collection-reader.service';
import type { CollectionRow, CollectionsRepository } from './collections.repository';

/** CollectionReader: what a caller sees of many collections, with the access service's per-collection answer mocked. */
describe('CollectionReader', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const row = (id: number, location: string, personal_owner_id: number | null = null) =>
    ({ id, name: `c${id}`, location, personal_owner_id, namespace: null, archived: false }) as CollectionRow;
  // 1 > 2 > 3 shared (2 not readable); 4 is user 9's personal collection, 5 inside it; 6 is the caller's own.
  const rows = [row(1, '/'), row(2, '/1/'), row(3, '/1/2/'), row(5, '/4/'), row(6, '/', 7)];
  const grants = new Map<number, CollectionPerm>([
    [1, 'read'],
    [3, 'write'],
    [4, 'write'],
    [5, 'write'],
    [6, 'write'],
  ]);

  function setup() {
    const access = {
      forCollections: jest.fn(
        async (_u: AuthUser, cs: CollectionRow[]) => new Map(cs.filter((c) => grants.has(c.id)).map((c) => [c.id, grants.get(c.id)!])),
      ),
    };
    const repo = {
      findById: jest.fn().mockResolvedValue(null),
      findByIds: jest.fn(async (ids: number[]) => (ids.includes(4) ? [row(4, '/', 9)] : [])),
    };
    return { reader: new CollectionReader(repo as unknown as CollectionsRepository, access as unknown as CollectionAccessService), repo };
  }

  it('keeps the readable rows in order, and finds the owners of personal tops not among them in one query', async () => {
    const m = setup();
    const v = await m.reader.visible(user, rows);
    expect(v.rows.map((c) => c.id)).toEqual([1, 3, 5, 6]);
    expect(v.owners).toEqual(
      new Map([
        [6, 7],
        [4, 9],
      ]),
    );
    expect(m.repo.findByIds).toHaveBeenCalledTimes(1);
    expect(m.repo.findByIds).toHaveBeenCalledWith([4]);
  });

  it("drops other users' personal trees when asked, keeping the caller's own", async () => {
    const v = await setup().reader.visible(user, rows, { excludeOthersPersonal: true });
    expect(v.rows.map((c) => c.id)).toEqual([1, 3, 6]);
  });

  it('shows each collection under its nearest readable ancestors, with can_write from its own grant', async () => {
    const m = setup();
    const v = await m.reader.visible(user, rows);
    const views = m.reader.views(v);
    expect(views.map((c) => [c.id, c.effective_location, c.can_write])).toEqual([
      [1, '/', false],
      [3, '/1/', true],
      [5, '/', true],
      [6, '/', true],
    ]);
    expect(m.reader.view(rows[2], v)).toMatchObject({ effective_location: '/1/' });
  });

  it('requires a collection to exist', async () => {
    await expect(setup().reader.require(99)).rejects.toBeInstanceOf(NotFoundError);
  });
});
