import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import { CollectionAccessService, type CollectionPlace } from '../collections';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import { TimelinesRepository, type EventRow, type TimelineRow } from './timelines.repository';

/** Where a timeline (or an event's timeline) lives, for the collection access check (null: the Root collection). */
export function timelinePlace(
  row: Pick<TimelineRow, 'collection_id' | 'coll_location' | 'coll_personal_owner_id'>,
): CollectionPlace | null {
  if (row.collection_id === null || row.collection_id === undefined) return null;
  return {
    id: row.collection_id,
    location: row.coll_location ?? '/',
    personal_owner_id: row.coll_personal_owner_id,
  };
}

/**
 * Loads timelines and events and checks what the caller may do with them: the timeline's collection decides, as for
 * cards and dashboards (CollectionAccessService). Missing: 404; not allowed: 403.
 */
@Injectable()
export class TimelineAccessService {
  constructor(
    private readonly repo: TimelinesRepository,
    private readonly collections: CollectionAccessService,
  ) {}

  async readable(caller: AuthUser, id: number): Promise<{ row: TimelineRow; perm: CollectionPerm }> {
    const row = await this.repo.timeline(id);
    if (!row) throw new NotFoundError();
    const perm = await this.collections.permission(caller, timelinePlace(row));
    if (!perm) throw new ForbiddenError();
    return { row, perm };
  }

  async writable(caller: AuthUser, id: number): Promise<TimelineRow> {
    const { row, perm } = await this.readable(caller, id);
    if (perm !== 'write') throw new ForbiddenError();
    return row;
  }

  async readableEvent(caller: AuthUser, id: number): Promise<EventRow> {
    const row = await this.repo.event(id);
    if (!row) throw new NotFoundError();
    await this.collections.assertRead(caller, timelinePlace(row));
    return row;
  }

  async writableEvent(caller: AuthUser, id: number): Promise<EventRow> {
    const row = await this.repo.event(id);
    if (!row) throw new NotFoundError();
    await this.collections.assertWrite(caller, timelinePlace(row));
    return row;
  }

  /** Read access to a collection (null: Root); 404 when it does not exist. */
  async assertReadCollection(caller: AuthUser, collectionId: number | null): Promise<void> {
    await this.collections.assertRead(caller, await this.place(collectionId));
  }

  /** Write access to a collection (null: Root); 404 when it does not exist. */
  async assertWriteCollection(caller: AuthUser, collectionId: number | null): Promise<void> {
    await this.collections.assertWrite(caller, await this.place(collectionId));
  }

  /** The caller's write access on each timeline's collection (`can_write`), in at most four queries for a listing. */
  async writableFlags(caller: AuthUser, rows: TimelineRow[]): Promise<boolean[]> {
    const places = rows.map(timelinePlace);
    const inCollections = places.filter((p): p is CollectionPlace => p !== null);
    const perms = await this.collections.forCollections(caller, inCollections);
    const root = places.some((p) => p === null) ? await this.collections.canWrite(caller, null) : false;
    return places.map((p) => (p === null ? root : perms.get(p.id) === 'write'));
  }

  private async place(collectionId: number | null): Promise<CollectionPlace | null> {
    if (collectionId === null) return null;
    const place = await this.repo.collectionPlace(collectionId);
    if (!place) throw new NotFoundError();
    return place;
  }
}
