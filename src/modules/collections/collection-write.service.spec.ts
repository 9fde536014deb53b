import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { ArchivedError, ForbiddenError } from '../../common/errors/api-errors';
import { EventBus } from '../../common/events/event-bus';
import type { CollectionAccessService } from './collection-access.service';
import { CollectionsArchived, CollectionsDeleted, CollectionsDeleting } from './collection-events';
import type { CollectionGrantsRepository } from './collection-grants.repository';
import type { CollectionReader } from './collection-reader.service';
import {
  CollectionWriteService,
  MSG_DELETE_UNTRASHED,
  MSG_MOVE_INTO_SELF,
  MSG_NAMESPACE,
  MSG_PARENT_ARCHIVED,
  MSG_PERSONAL_ARCHIVE,
  MSG_PERSONAL_MOVE,
  slugify,
} from './collection-write.service';
import type { CollectionRow, CollectionsRepository } from './collections.repository';

/** CollectionWriteService over an in-memory collection tree: the tree rules, grants and what archiving and deleting take along. */
describe('CollectionWriteService', () => {
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const row = (id: number, location: string, over: Partial<CollectionRow> = {}): CollectionRow => ({
    id,
    name: `c${id}`,
    description: null,
    location,
    personal_owner_id: null,
    namespace: null,
    authority_level: null,
    slug: null,
    entity_id: null,
    archived: false,
    archived_directly: false,
    created_at: null,
    ...over,
  });

  // 1 > 2 > 3, a personal tree 4 > 5, an archived 6, a snippet folder 8.
  function setup(extra: CollectionRow[] = []) {
    const tree = new Map<number, CollectionRow>(
      [
        row(1, '/'),
        row(2, '/1/'),
        row(3, '/1/2/'),
        row(4, '/', { personal_owner_id: 7 }),
        row(5, '/4/'),
        row(6, '/', { archived: true, archived_directly: true }),
        row(8, '/', { namespace: 'snippets' }),
        ...extra,
      ].map((c) => [c.id, c]),
    );
    const events: string[] = [];
    const repo = {
      findById: jest.fn(async (id: number) => (tree.has(id) ? { ...tree.get(id)! } : null)),
      subtree: jest.fn(async (prefix: string) => [...tree.values()].filter((c) => c.location.startsWith(prefix)).map((c) => ({ ...c }))),
      transaction: jest.fn(async (work: (tx: EntityManager) => unknown) => work('tx' as unknown as EntityManager)),
      insert: jest.fn(async (_tx: unknown, c: Omit<CollectionRow, 'id'>) => {
        tree.set(20, { ...row(20, c.location), ...c, id: 20 });
        return 20;
      }),
      update: jest.fn(async (_tx: unknown, id: number, changes: Partial<CollectionRow>) => void Object.assign(tree.get(id)!, changes)),
      move: jest.fn(async (_tx: unknown, c: { id: number; location: string }, to: string) => {
        const [oldPrefix, newPrefix] = [`${c.location}${c.id}/`, `${to}${c.id}/`];
        tree.get(c.id)!.location = to;
        for (const d of tree.values()) if (d.location.startsWith(oldPrefix)) d.location = newPrefix + d.location.slice(oldPrefix.length);
      }),
      setArchived: jest.fn(async (_tx: unknown, ids: number[], archived: boolean, directly: boolean) => {
        for (const id of ids) Object.assign(tree.get(id)!, { archived, archived_directly: directly });
      }),
      lockMoves: jest.fn().mockResolvedValue(undefined),
      deleteMany: jest.fn(async (_tx: unknown, ids: number[]) => ids.forEach((id) => tree.delete(id))),
    };
    const grants = {
      inherit: jest.fn(async (_tx: unknown, ids: number[], from: number | null) => void events.push(`inherit ${ids} from ${from}`)),
      removeFor: jest.fn(async (_tx: unknown, ids: number[]) => void events.push(`remove grants ${ids}`)),
    };
    const reader = { require: jest.fn(async (id: number) => ({ ...tree.get(id)! })) };
    const access = { assertWrite: jest.fn().mockResolvedValue(undefined) };
    const bus = new EventBus();
    bus.on(CollectionsArchived, (e) => void events.push(`archived ${e.collectionIds} ${e.archived}`));
    bus.on(CollectionsDeleting, (e) => void events.push(`deleting ${e.collectionIds}`));
    bus.on(CollectionsDeleted, (e) => void events.push(`deleted ${e.collectionIds}`));
    const service = new CollectionWriteService(
      repo as unknown as CollectionsRepository,
      grants as unknown as CollectionGrantsRepository,
      reader as unknown as CollectionReader,
      access as unknown as CollectionAccessService,
      bus,
    );
    return { service, tree, repo, grants, access, events };
  }
  const message = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as Error).message;

  it('creates under its parent with the parent grants, none inside a personal tree, and in the parent namespace', async () => {
    const m = setup();
    await m.service.create(user, { name: 'Élan Vital!', parent_id: 2 } as never);
    expect(m.tree.get(20)).toMatchObject({ location: '/1/2/', slug: 'elan_vital', namespace: null });
    expect(m.events).toEqual(['inherit 20 from 2']);

    const personal = setup();
    await personal.service.create(user, { name: 'Mine', parent_id: 5 } as never);
    expect(personal.events).toEqual([]);

    expect(await message(setup().service.create(user, { name: 'x', parent_id: 8, namespace: 'other' } as never))).toBe(MSG_NAMESPACE);
    await expect(setup().service.create(user, { name: 'x', parent_id: 6 } as never)).rejects.toBeInstanceOf(ArchivedError);
    await expect(setup().service.create(user, { name: 'x', authority_level: 'official' } as never)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('refuses moves into itself or below, out of a personal tree root, and across namespaces', async () => {
    const m = setup();
    expect(await message(m.service.update(admin, 1, { parent_id: 3 } as never))).toBe(MSG_MOVE_INTO_SELF);
    expect(await message(m.service.update(admin, 1, { parent_id: 1 } as never))).toBe(MSG_MOVE_INTO_SELF);
    expect(await message(m.service.update(admin, 4, { parent_id: 1 } as never))).toBe(MSG_PERSONAL_MOVE);
    expect(await message(m.service.update(admin, 2, { parent_id: 8 } as never))).toBe(MSG_NAMESPACE);
    await expect(m.service.update(admin, 2, { parent_id: 6 } as never)).rejects.toBeInstanceOf(ArchivedError);
    expect(m.repo.move).not.toHaveBeenCalled();
    // Staying where it is is no move: no checks on the parents.
    await m.service.update(user, 2, { parent_id: 1, name: 'Same place' } as never);
    expect(m.repo.move).not.toHaveBeenCalled();
    expect(m.tree.get(2)).toMatchObject({ name: 'Same place', slug: 'same_place' });
  });

  it('moves the subtree; into a personal tree its grants go, out of one it takes the new parent grants', async () => {
    const m = setup();
    await m.service.update(admin, 2, { parent_id: 5 } as never);
    expect(m.tree.get(2)!.location).toBe('/4/5/');
    expect(m.tree.get(3)!.location).toBe('/4/5/2/');
    expect(m.events).toEqual(['remove grants 2,3']);

    m.events.length = 0;
    await m.service.update(admin, 2, { parent_id: null } as never);
    expect(m.tree.get(3)!.location).toBe('/2/');
    expect(m.events).toEqual(['remove grants 2,3', 'inherit 2,3 from null']);

    const shared = setup();
    await shared.service.update(admin, 3, { parent_id: 1 } as never);
    expect(shared.events).toEqual([]);
  });

  it('archives the subtree with it, and unarchiving restores only what went with it', async () => {
    const m = setup([row(9, '/1/2/3/', { archived: true, archived_directly: true }), row(10, '/1/2/3/9/', { archived: true })]);
    await m.service.update(user, 2, { archived: true } as never);
    expect(m.tree.get(2)).toMatchObject({ archived: true, archived_directly: true });
    expect(m.tree.get(3)).toMatchObject({ archived: true, archived_directly: false });
    expect(m.events).toEqual(['archived 2,3 true']);

    m.events.length = 0;
    await m.service.update(user, 2, { archived: false } as never);
    expect(m.events).toEqual(['archived 2,3 false']);
    expect(m.tree.get(9)).toMatchObject({ archived: true, archived_directly: true });
    expect(m.tree.get(10)!.archived).toBe(true);
    // Writing the collection is not enough: archiving also changes what its parent shows.
    expect(m.access.assertWrite).toHaveBeenCalledWith(user, expect.objectContaining({ id: 1 }), null);
  });

  it('refuses to archive a personal collection, and to unarchive under an archived parent unless it moves out', async () => {
    expect(await message(setup().service.update(user, 4, { archived: true } as never))).toBe(MSG_PERSONAL_ARCHIVE);
    const m = setup([row(11, '/6/', { archived: true })]);
    expect(await message(m.service.update(user, 11, { archived: false } as never))).toBe(MSG_PARENT_ARCHIVED);
    await m.service.update(user, 11, { archived: false, parent_id: null } as never);
    expect(m.tree.get(11)).toMatchObject({ location: '/', archived: false });
  });

  it('lets only admins change the authority level, but takes it sent back unchanged', async () => {
    const m = setup([row(12, '/', { authority_level: 'official' })]);
    await expect(m.service.update(user, 12, { authority_level: null } as never)).rejects.toBeInstanceOf(ForbiddenError);
    await m.service.update(user, 12, { authority_level: 'official', description: 'd' } as never);
    expect(m.tree.get(12)!.description).toBe('d');
  });

  it('deletes only a trashed collection, with what was trashed with it; what was trashed on its own stays', async () => {
    expect(await message(setup().service.delete(2))).toBe(MSG_DELETE_UNTRASHED);
    const m = setup([
      row(13, '/6/', { archived: true }),
      row(14, '/6/13/', { archived: true, archived_directly: true }),
      row(15, '/6/13/14/', { archived: true }),
    ]);
    await m.service.delete(6);
    expect(m.events).toEqual(['deleting 6,13', 'deleted 6,13']);
    expect([...m.tree.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 8, 14, 15]);
    expect(m.tree.get(14)!.location).toBe('/');
    expect(m.tree.get(15)!.location).toBe('/14/');
  });

  it('slugs names as Metabase does', () => {
    expect(slugify('Ça va? Très  bien')).toBe('ca_va_tres_bien');
    expect(slugify('!!!')).toBe('collection');
  });
});
