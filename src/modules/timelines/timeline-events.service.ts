import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { MessageError } from '../../common/errors/api-errors';
import { CollectionAccessService } from '../collections';
import { parseDateString } from './date-string';
import { TimelineAccessService, timelinePlace } from './timeline-access.service';
import type { TimelineEvent } from '../../schema/timeline-event.entity';
import { eventView } from './timeline-view';
import type { CreateTimelineEventDto, ListTimelineEventsQuery, UpdateTimelineEventDto } from './timelines.dto';
import { TimelinesRepository, type TimelineRow } from './timelines.repository';

/** Metabase's answer when an event names a timeline that does not exist. */
const noTimeline = (id: number) => new MessageError(`Timeline with id ${id} not found`, 404);

/** Timeline events: read with read access to their timeline's collection, written with write access to it. */
@Injectable()
export class TimelineEventsService {
  constructor(
    private readonly repo: TimelinesRepository,
    private readonly access: TimelineAccessService,
    private readonly collections: CollectionAccessService,
  ) {}

  /**
   * GET /api/timeline-event/: the events of the timelines the caller may read (of one timeline with `timeline_id`),
   * unarchived ones, or archived ones only with `archived`, within start/end; oldest first.
   */
  async list(caller: AuthUser, q: ListTimelineEventsQuery) {
    const timelineId = q.timeline_id ?? null;
    if (timelineId !== null) await this.access.readable(caller, timelineId);
    const readable = caller.isSuperuser || timelineId !== null ? null : await this.collections.readableWhere(caller, 't.collection_id');
    const rows = await this.repo.eventsWhere(readable, timelineId, {
      archived: q.archived ? 'archived' : 'active',
      start: parseDateString(q.start),
      end: parseDateString(q.end),
    });
    return rows.map(eventView);
  }

  async get(caller: AuthUser, id: number) {
    return eventView(await this.access.readableEvent(caller, id));
  }

  /** POST /api/timeline-event/: in a timeline the caller may write; the timeline's icon unless one is given. */
  async create(caller: AuthUser, body: CreateTimelineEventDto) {
    const timeline = await this.writableTimeline(caller, body.timeline_id);
    const id = await this.repo.insertEvent({
      timeline_id: body.timeline_id,
      name: body.name,
      description: body.description ?? null,
      timestamp: parseDateString(body.timestamp)!,
      time_matters: body.time_matters ?? false,
      timezone: body.timezone,
      icon: body.icon ?? timeline.icon,
      archived: body.archived ?? false,
      creator_id: caller.id,
    });
    return this.get(caller, id);
  }

  /**
   * PUT /api/timeline-event/:id. `description` may be cleared with null; the other keys keep their value when null.
   * Moving the event (`timeline_id`) needs write access to the timeline it moves to as well.
   */
  async update(caller: AuthUser, id: number, body: UpdateTimelineEventDto) {
    const row = await this.access.writableEvent(caller, id);
    if (body.timeline_id !== undefined && body.timeline_id !== null && body.timeline_id !== row.timeline_id)
      await this.writableTimeline(caller, body.timeline_id);
    const changes: Partial<TimelineEvent> = {};
    if (body.name !== undefined && body.name !== null) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description;
    if (body.timestamp !== undefined && body.timestamp !== null) changes.timestamp = parseDateString(body.timestamp)!;
    if (body.time_matters !== undefined && body.time_matters !== null) changes.time_matters = body.time_matters;
    if (body.timezone !== undefined && body.timezone !== null) changes.timezone = body.timezone;
    if (body.icon !== undefined && body.icon !== null) changes.icon = body.icon;
    if (body.timeline_id !== undefined && body.timeline_id !== null) changes.timeline_id = body.timeline_id;
    if (body.archived !== undefined && body.archived !== null) changes.archived = body.archived;
    await this.repo.updateEvent(id, changes);
    return this.get(caller, id);
  }

  async remove(caller: AuthUser, id: number): Promise<void> {
    await this.access.writableEvent(caller, id);
    await this.repo.deleteEvent(id);
  }

  /** The timeline an event goes into: 404 with Metabase's message when missing, 403 without write access. */
  private async writableTimeline(caller: AuthUser, timelineId: number): Promise<TimelineRow> {
    const timeline = await this.repo.timeline(timelineId);
    if (!timeline) throw noTimeline(timelineId);
    await this.collections.assertWrite(caller, timelinePlace(timeline));
    return timeline;
  }
}
