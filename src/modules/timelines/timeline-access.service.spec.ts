import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import type { CollectionAccessService, CollectionPlace } from '../collections';
import { TimelineAccessService } from './timeline-access.service';
import type { TimelineRow, TimelinesRepository } from './timelines.repository';

/** TimelineAccessService: the timeline's collection decides; missing is 404 before anything else. */
describe('TimelineAccessService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const timeline = (id: number, collection_id: number | null) =>
    ({ id, collection_id, coll_location: '/', coll_personal_owner_id: null }) as unknown as TimelineRow;
  // Collection 1 readable, 2 writable, 3 neither; the Root readable only.
  const perms: Record<string, CollectionPerm | null> = { '1': 'read', '2': 'write', '3': null, root: 'read' };
  const permOf = (p: CollectionPlace | null) => perms[p === null ? 'root' : String(p.id)];

  function setup() {
    const rows = new Map([1, 2, 3].map((c) => [c * 10, timeline(c * 10, c)]));
    rows.set(40, timeline(40, null));
    const repo = {
      timeline: jest.fn(async (id: number) => rows.get(id) ?? null),
      event: jest.fn(async (id: number) => rows.get(id - 1) ?? null),
      collectionPlace: jest.fn(async (id: number) => (id in perms ? { id, location: '/', personal_owner_id: null } : null)),
    };
    const collections = {
      permission: jest.fn(async (_u: AuthUser, p: CollectionPlace | null) => permOf(p)),
      assertRead: jest.fn(async (_u: AuthUser, p: CollectionPlace | null) => {
        if (!permOf(p)) throw new ForbiddenError();
      }),
      assertWrite: jest.fn(async (_u: AuthUser, p: CollectionPlace | null) => {
        if (permOf(p) !== 'write') throw new ForbiddenError();
      }),
      forCollections: jest.fn(
        async (_u: AuthUser, ps: CollectionPlace[]) => new Map(ps.filter((p) => permOf(p)).map((p) => [p.id, permOf(p)])),
      ),
      canWrite: jest.fn(async (_u: AuthUser, p: CollectionPlace | null) => permOf(p) === 'write'),
    };
    return new TimelineAccessService(repo as unknown as TimelinesRepository, collections as unknown as CollectionAccessService);
  }

  it('reads and writes timelines and events as their collection allows', async () => {
    const access = setup();
    await expect(access.readable(user, 10)).resolves.toMatchObject({ perm: 'read' });
    await expect(access.writable(user, 10)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(access.writable(user, 20)).resolves.toMatchObject({ id: 20 });
    await expect(access.readable(user, 30)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(access.readableEvent(user, 11)).resolves.toMatchObject({ id: 10 });
    await expect(access.writableEvent(user, 11)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(access.writableEvent(user, 21)).resolves.toMatchObject({ id: 20 });
    await expect(access.writable(user, 40)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('answers 404 for a missing timeline, event or collection', async () => {
    const access = setup();
    await expect(access.readable(user, 99)).rejects.toBeInstanceOf(NotFoundError);
    await expect(access.readableEvent(user, 99)).rejects.toBeInstanceOf(NotFoundError);
    await expect(access.assertWriteCollection(user, 9)).rejects.toBeInstanceOf(NotFoundError);
    await expect(access.assertReadCollection(user, null)).resolves.toBeUndefined();
    await expect(access.assertWriteCollection(user, null)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('answers can_write for a listing, Root included', async () => {
    const access = setup();
    await expect(access.writableFlags(user, [timeline(10, 1), timeline(20, 2), timeline(30, 3), timeline(40, null)])).resolves.toEqual([
      false,
      true,
      false,
      false,
    ]);
  });
});
