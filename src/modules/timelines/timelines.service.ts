import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { CardAccessService } from '../cards';
import { CollectionAccessService } from '../collections';
import { parseDateString } from './date-string';
import { TimelineAccessService } from './timeline-access.service';
import type { Timeline } from '../../schema/timeline.entity';
import { eventView, timelineView, type EventView } from './timeline-view';
import { DEFAULT_ICON, type CreateTimelineDto, type UpdateTimelineDto } from './timelines.dto';
import { TimelinesRepository, type EventFilter, type TimelineRow } from './timelines.repository';
import { entityId } from '../../common/database/entity-id';

/** What a timelines answer includes: events or not, and which. */
export interface TimelineOptions {
  include?: 'events' | null;
  /** Archived timelines (listings: only them) and, with events, all events rather than the unarchived ones. */
  archived?: boolean | null;
  start?: string | null;
  end?: string | null;
}

/** Reading and writing timelines: one, a listing, a collection's and a card's; archiving and deleting with their events. */
@Injectable()
export class TimelinesService {
  constructor(
    private readonly repo: TimelinesRepository,
    private readonly access: TimelineAccessService,
    private readonly collections: CollectionAccessService,
    private readonly cards: CardAccessService,
  ) {}

  /** GET /api/timeline/: the timelines in collections the caller may read, archived ones only when `archived`. */
  async list(caller: AuthUser, o: TimelineOptions) {
    const readable = caller.isSuperuser ? undefined : await this.collections.readableWhere(caller, 't.collection_id');
    const rows = await this.repo.timelines({ archived: o.archived === true, readable });
    return this.views(caller, rows, o);
  }

  /** GET /api/timeline/:id: archived or not; events (unarchived, or all with `archived`) within start/end when asked for. */
  async get(caller: AuthUser, id: number, o: TimelineOptions = {}) {
    const { row, perm } = await this.access.readable(caller, id);
    const events = o.include === 'events' ? await this.events([row], o) : undefined;
    return timelineView(row, perm === 'write', events ? (events.get(row.id) ?? []) : undefined);
  }

  /** GET /api/collection/:id/timelines (null: root/timelines): after the same checks as the collection itself. */
  async forCollection(caller: AuthUser, collectionId: number | null, o: TimelineOptions) {
    await this.access.assertReadCollection(caller, collectionId);
    const rows = await this.repo.timelines({ collectionId, archived: o.archived === true });
    return this.views(caller, rows, o);
  }

  /** GET /api/card/:id/timelines: the unarchived timelines of the card's collection, events within start/end. */
  async forCard(caller: AuthUser, cardId: number, o: TimelineOptions) {
    const { row } = await this.cards.readable(caller, cardId);
    const collectionId = row.collection_id;
    const rows = await this.repo.timelines({ collectionId, archived: false });
    return this.views(caller, rows, { include: o.include, start: o.start, end: o.end });
  }

  async create(caller: AuthUser, body: CreateTimelineDto) {
    const collectionId = body.collection_id ?? null;
    await this.access.assertWriteCollection(caller, collectionId);
    const id = await this.repo.insertTimeline({
      name: body.name,
      description: body.description ?? null,
      icon: body.icon ?? DEFAULT_ICON,
      collection_id: collectionId,
      default: body.default ?? false,
      archived: body.archived ?? false,
      creator_id: caller.id,
      entity_id: entityId(),
    });
    return this.get(caller, id);
  }

  /**
   * PUT /api/timeline/:id. A key sent as null clears `description` and moves the timeline to the Root with
   * `collection_id`; the others keep their value. Archiving or unarchiving carries its events along.
   */
  async update(caller: AuthUser, id: number, body: UpdateTimelineDto) {
    const row = await this.access.writable(caller, id);
    const current = row.collection_id;
    if (body.collection_id !== undefined && (body.collection_id ?? null) !== current)
      await this.access.assertWriteCollection(caller, body.collection_id ?? null);
    const changes: Partial<Timeline> = {};
    if (body.name !== undefined && body.name !== null) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description;
    if (body.icon !== undefined && body.icon !== null) changes.icon = body.icon;
    if (body.default !== undefined && body.default !== null) changes.default = body.default;
    if (body.collection_id !== undefined) changes.collection_id = body.collection_id ?? null;
    const archivedNow = row.archived;
    const archiving = body.archived !== undefined && body.archived !== null && body.archived !== archivedNow;
    if (archiving) changes.archived = body.archived!;
    await this.repo.updateTimeline(id, changes, archiving ? body.archived! : null);
    return this.get(caller, id);
  }

  /** DELETE /api/timeline/:id: the timeline and its events. */
  async remove(caller: AuthUser, id: number): Promise<void> {
    await this.access.writable(caller, id);
    await this.repo.deleteTimeline(id);
  }

  private async views(caller: AuthUser, rows: TimelineRow[], o: TimelineOptions) {
    const [flags, events] = await Promise.all([
      this.access.writableFlags(caller, rows),
      o.include === 'events' ? this.events(rows, o) : Promise.resolve(null),
    ]);
    return rows.map((r, i) => timelineView(r, flags[i], events ? (events.get(r.id) ?? []) : undefined));
  }

  /** The events of these timelines by timeline id, in one query. */
  private async events(rows: TimelineRow[], o: TimelineOptions): Promise<Map<number, EventView[]>> {
    const filter: EventFilter = { archived: o.archived ? 'all' : 'active', start: parseDateString(o.start), end: parseDateString(o.end) };
    const out = new Map<number, EventView[]>();
    for (const e of await this.repo.events(
      rows.map((r) => r.id),
      filter,
    )) {
      const list = out.get(e.timeline_id) ?? [];
      list.push(eventView(e));
      out.set(e.timeline_id, list);
    }
    return out;
  }
}
