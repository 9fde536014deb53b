import type { AuthUser } from '../../common/auth/current-user';
import type { CardAccessService } from '../cards/card-access.service';
import type { CollectionAccessService } from '../collections/collection-access.service';
import type { TimelineAccessService } from './timeline-access.service';
import type { TimelineRow, TimelinesRepository } from './timelines.repository';
import { TimelinesService } from './timelines.service';

/** The write rules of TimelinesService, with the repository and the access checks mocked. */
describe('TimelinesService writes', () => {
  const caller = { id: 7, isSuperuser: false, groupIds: [1] } as AuthUser;
  const row = (extra: Partial<TimelineRow> = {}) =>
    ({
      id: 3,
      name: 'T',
      description: 'd',
      icon: 'star',
      collection_id: 5,
      archived: false,
      default: false,
      creator_id: 7,
      ...extra,
    }) as TimelineRow;

  function make(existing: TimelineRow) {
    const repo = {
      timeline: jest.fn().mockResolvedValue(existing),
      insertTimeline: jest.fn().mockResolvedValue(3),
      updateTimeline: jest.fn().mockResolvedValue(undefined),
      deleteTimeline: jest.fn().mockResolvedValue(undefined),
      events: jest.fn().mockResolvedValue([]),
    };
    const access = {
      readable: jest.fn().mockResolvedValue({ row: existing, perm: 'write' }),
      writable: jest.fn().mockResolvedValue(existing),
      assertWriteCollection: jest.fn().mockResolvedValue(undefined),
    };
    const service = new TimelinesService(
      repo as unknown as TimelinesRepository,
      access as unknown as TimelineAccessService,
      {} as CollectionAccessService,
      {} as CardAccessService,
    );
    return { repo, access, service };
  }

  it('archives the events only when `archived` changes, and unarchives them likewise', async () => {
    const active = make(row({ archived: false }));
    await active.service.update(caller, 3, { archived: true });
    expect(active.repo.updateTimeline).toHaveBeenCalledWith(3, { archived: true }, true);

    const again = make(row({ archived: true }));
    await again.service.update(caller, 3, { archived: true, name: 'N' });
    expect(again.repo.updateTimeline).toHaveBeenCalledWith(3, { name: 'N' }, null);

    const back = make(row({ archived: true }));
    await back.service.update(caller, 3, { archived: false });
    expect(back.repo.updateTimeline).toHaveBeenCalledWith(3, { archived: false }, false);
  });

  it('ignores null for keys that cannot be empty, clears the description, and moves to the Root with collection_id null', async () => {
    const m = make(row());
    await m.service.update(caller, 3, { name: null, icon: null, default: null, archived: null, description: null, collection_id: null });
    expect(m.repo.updateTimeline).toHaveBeenCalledWith(3, { description: null, collection_id: null }, null);
    expect(m.access.assertWriteCollection).toHaveBeenCalledWith(caller, null);
  });

  it('checks write access to the destination only when the timeline moves', async () => {
    const stays = make(row({ collection_id: 5 }));
    await stays.service.update(caller, 3, { collection_id: 5, icon: 'cake' });
    expect(stays.access.assertWriteCollection).not.toHaveBeenCalled();
    expect(stays.repo.updateTimeline).toHaveBeenCalledWith(3, { icon: 'cake', collection_id: 5 }, null);

    const moves = make(row({ collection_id: 5 }));
    moves.access.assertWriteCollection.mockRejectedValue(new Error('403'));
    await expect(moves.service.update(caller, 3, { collection_id: 6 })).rejects.toThrow('403');
    expect(moves.repo.updateTimeline).not.toHaveBeenCalled();
  });

  it('creates with the star icon, unarchived and not default unless told, checking the collection first', async () => {
    const m = make(row());
    await m.service.create(caller, { name: 'New' });
    expect(m.access.assertWriteCollection).toHaveBeenCalledWith(caller, null);
    expect(m.repo.insertTimeline).toHaveBeenCalledWith(
      expect.objectContaining({
        name: 'New',
        description: null,
        icon: 'star',
        collection_id: null,
        default: false,
        archived: false,
        creator_id: 7,
      }),
    );
  });
});
