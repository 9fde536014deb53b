import { sql } from '../../common/database/sql';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError } from '../../common/errors/api-errors';
import type { CollectionAccessService } from '../collections';
import type { TimelineAccessService } from './timeline-access.service';
import { TimelineEventsService } from './timeline-events.service';
import type { TimelineRow, TimelinesRepository } from './timelines.repository';

/** TimelineEventsService: where events may be written, what a write stores, and which events a listing covers. */
describe('TimelineEventsService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const timeline = (id: number, collection_id: number | null) =>
    ({ id, icon: 'balloons', collection_id, coll_location: '/', coll_personal_owner_id: null }) as unknown as TimelineRow;
  const event = { id: 30, timeline_id: 3, name: 'Launch', description: 'd', timestamp: new Date('2024-03-01T00:00:00Z'), archived: false };

  function setup() {
    const timelines = new Map([
      [3, timeline(3, 5)],
      [4, timeline(4, 6)],
    ]);
    const repo = {
      timeline: jest.fn(async (id: number) => timelines.get(id) ?? null),
      insertEvent: jest.fn().mockResolvedValue(30),
      updateEvent: jest.fn().mockResolvedValue(undefined),
      deleteEvent: jest.fn().mockResolvedValue(undefined),
      eventsWhere: jest.fn().mockResolvedValue([event]),
    };
    const access = {
      readable: jest.fn().mockResolvedValue({}),
      readableEvent: jest.fn().mockResolvedValue(event),
      writableEvent: jest.fn().mockResolvedValue(event),
    };
    const collections = {
      assertWrite: jest.fn(async (_u: AuthUser, place: { id: number } | null) => {
        if (place?.id === 6) throw new ForbiddenError();
      }),
      readableWhere: jest.fn().mockResolvedValue(sql`c`),
    };
    const service = new TimelineEventsService(
      repo as unknown as TimelinesRepository,
      access as unknown as TimelineAccessService,
      collections as unknown as CollectionAccessService,
    );
    return { service, repo, collections };
  }

  it("creates in a timeline the caller may write, with the timeline's icon unless one is given", async () => {
    const m = setup();
    await m.service.create(user, { timeline_id: 3, name: 'Launch', timestamp: '2024-03-01', timezone: 'UTC' } as never);
    expect(m.repo.insertEvent).toHaveBeenCalledWith(
      expect.objectContaining({ timeline_id: 3, icon: 'balloons', time_matters: false, archived: false, creator_id: 7, description: null }),
    );
    expect(m.repo.insertEvent.mock.calls[0][0].timestamp.toISOString()).toBe('2024-03-01T00:00:00.000Z');
    await expect(
      m.service.create(user, { timeline_id: 4, name: 'x', timestamp: '2024-03-01', timezone: 'UTC' } as never),
    ).rejects.toBeInstanceOf(ForbiddenError);
    const e = await m.service
      .create(user, { timeline_id: 9, name: 'x', timestamp: '2024-03-01', timezone: 'UTC' } as never)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).status).toBe(404);
    expect((e as MessageError).message).toBe('Timeline with id 9 not found');
    expect(m.repo.insertEvent).toHaveBeenCalledTimes(1);
  });

  it('moves an event only into a timeline the caller may write; null keeps a value but clears the description', async () => {
    const m = setup();
    await expect(m.service.update(user, 30, { timeline_id: 4 } as never)).rejects.toBeInstanceOf(ForbiddenError);
    expect(m.repo.updateEvent).not.toHaveBeenCalled();
    m.collections.assertWrite.mockClear();
    await m.service.update(user, 30, { name: null, icon: null, description: null, timeline_id: 3, archived: true } as never);
    expect(m.repo.updateEvent).toHaveBeenCalledWith(30, { description: null, timeline_id: 3, archived: true });
    expect(m.collections.assertWrite).not.toHaveBeenCalled();
  });

  it("lists by the caller's readable collections, unless for an admin or one timeline already checked", async () => {
    const m = setup();
    await m.service.list(user, { start: '2024-01-01', archived: true } as never);
    expect(m.repo.eventsWhere).toHaveBeenCalledWith(sql`c`, null, {
      archived: 'archived',
      start: new Date('2024-01-01T00:00:00Z'),
      end: null,
    });
    await m.service.list(admin, {} as never);
    await m.service.list(user, { timeline_id: 3 } as never);
    expect(m.repo.eventsWhere.mock.calls.slice(1).map((c) => c[0])).toEqual([null, null]);
    expect(m.collections.readableWhere).toHaveBeenCalledTimes(1);
  });
});
