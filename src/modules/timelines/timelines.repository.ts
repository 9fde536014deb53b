import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { typedRow, typedRows, type RowShape } from '../../common/database/row-values';
import { and, raw, sql, type Sql } from '../../common/database/sql';
import type { CollectionPlace } from '../collections';
import { TimelineEvent } from '../../schema/timeline-event.entity';
import { Timeline } from '../../schema/timeline.entity';

/** The creator columns every row carries (`u_`), for the hydrated `creator`. */
export interface CreatorColumns {
  creator_id: number;
  u_email: string | null;
  u_first_name: string | null;
  u_last_name: string | null;
  /** Null only when the creator is gone (LEFT JOIN). */
  u_is_superuser: boolean | null;
  u_is_qbnewb: boolean | null;
  u_date_joined: Date | string | null;
  u_last_login: Date | string | null;
}

/** A timeline with its collection's columns (`coll_`: the access check and the `collection` key) and its creator. */
export interface TimelineRow extends CreatorColumns {
  id: number;
  name: string;
  description: string | null;
  icon: string;
  collection_id: number | null;
  archived: boolean;
  default: boolean;
  entity_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  coll_name: string | null;
  coll_description: string | null;
  coll_location: string | null;
  coll_personal_owner_id: number | null;
  coll_namespace: string | null;
  coll_authority_level: string | null;
  coll_archived: boolean | null;
  coll_slug: string | null;
  coll_entity_id: string | null;
  coll_created_at: Date | string | null;
}

/** An event with its creator, and its timeline's collection (for the access check). */
export interface EventRow extends CreatorColumns {
  id: number;
  timeline_id: number;
  name: string;
  description: string | null;
  timestamp: Date | string;
  time_matters: boolean;
  timezone: string;
  icon: string;
  archived: boolean;
  created_at: Date | string;
  updated_at: Date | string;
  collection_id: number | null;
  coll_location: string | null;
  coll_personal_owner_id: number | null;
}

const CREATOR_BOOLEANS = ['u_is_superuser', 'u_is_qbnewb'];

export const TIMELINE_ROW_SHAPE: RowShape = {
  numbers: ['id', 'collection_id', 'creator_id', 'coll_personal_owner_id'],
  booleans: ['archived', 'default', 'coll_archived', ...CREATOR_BOOLEANS],
};

export const EVENT_ROW_SHAPE: RowShape = {
  numbers: ['id', 'timeline_id', 'creator_id', 'collection_id', 'coll_personal_owner_id'],
  booleans: ['time_matters', 'archived', ...CREATOR_BOOLEANS],
};

/** Which events to read: unarchived only (default), archived only, or all; within [start, end] when given. */
export interface EventFilter {
  archived?: 'active' | 'archived' | 'all';
  start?: Date | null;
  end?: Date | null;
}

const CREATOR = `u.email AS u_email, u.first_name AS u_first_name, u.last_name AS u_last_name, u.is_superuser AS u_is_superuser,
  u.is_qbnewb AS u_is_qbnewb, u.date_joined AS u_date_joined, u.last_login AS u_last_login`;

const TIMELINES = `SELECT t.*, ${CREATOR},
  c.name AS coll_name, c.description AS coll_description, c.location AS coll_location, c.personal_owner_id AS coll_personal_owner_id,
  c.namespace AS coll_namespace, c.authority_level AS coll_authority_level, c.archived AS coll_archived, c.slug AS coll_slug,
  c.entity_id AS coll_entity_id, c.created_at AS coll_created_at
FROM timeline t
LEFT JOIN collection c ON c.id = t.collection_id
LEFT JOIN core_user u ON u.id = t.creator_id`;

const EVENTS = `SELECT e.*, ${CREATOR}, t.collection_id, c.location AS coll_location, c.personal_owner_id AS coll_personal_owner_id
FROM timeline_event e
JOIN timeline t ON t.id = e.timeline_id
LEFT JOIN collection c ON c.id = t.collection_id
LEFT JOIN core_user u ON u.id = e.creator_id`;

/** Every app-DB query of the timelines module; a listing's timelines and their events take one query each. */
@Injectable()
export class TimelinesRepository {
  private readonly sql: AppSql;

  constructor(private readonly db: DataSource) {
    this.sql = new AppSql(db);
  }

  async timeline(id: number): Promise<TimelineRow | null> {
    return typedRows<TimelineRow>(await this.sql.query(`${TIMELINES} WHERE t.id = $1`, [id]), TIMELINE_ROW_SHAPE)[0] ?? null;
  }

  /**
   * The timelines of one collection (null: Root) or of every collection (undefined), archived or not, limited to
   * `readable` when given; by name as Metabase orders them.
   */
  async timelines(o: { collectionId?: number | null; archived: boolean; readable?: Sql }): Promise<TimelineRow[]> {
    const where = and(
      o.readable,
      sql`t.archived = ${o.archived}`,
      o.collectionId === null && sql`t.collection_id IS NULL`,
      o.collectionId !== undefined && o.collectionId !== null && sql`t.collection_id = ${o.collectionId}`,
    );
    return typedRows<TimelineRow>(
      await this.sql.query(sql`${raw(TIMELINES)} WHERE ${where} ORDER BY LOWER(t.name), t.id`),
      TIMELINE_ROW_SHAPE,
    );
  }

  /** The events of these timelines that pass `f`, oldest first. */
  async events(timelineIds: number[], f: EventFilter): Promise<EventRow[]> {
    if (timelineIds.length === 0) return [];
    const where = and(this.sql.idIn(raw('e.timeline_id'), timelineIds), ...this.eventConditions(f));
    return this.readEvents(sql`${raw(EVENTS)} WHERE ${where} ORDER BY e."timestamp", e.id`);
  }

  /** Events of readable timelines (the readable condition is on `t.collection_id`). */
  eventsWhere(readable: Sql | null, timelineId: number | null, f: EventFilter): Promise<EventRow[]> {
    const where = and(readable, timelineId !== null && sql`e.timeline_id = ${timelineId}`, ...this.eventConditions(f));
    return this.readEvents(sql`${raw(EVENTS)} WHERE ${where} ORDER BY e."timestamp", e.id`);
  }

  async event(id: number): Promise<EventRow | null> {
    return (await this.readEvents(sql`${raw(EVENTS)} WHERE e.id = ${id}`))[0] ?? null;
  }

  private async readEvents(statement: Sql): Promise<EventRow[]> {
    return typedRows<EventRow>(await this.sql.query(statement), EVENT_ROW_SHAPE);
  }

  async collectionPlace(id: number): Promise<CollectionPlace | null> {
    const rows = await this.sql.query<Record<string, unknown>>(
      'SELECT id, location, personal_owner_id, namespace FROM collection WHERE id = $1',
      [id],
    );
    return rows[0] ? typedRow<CollectionPlace>(rows[0], { numbers: ['id', 'personal_owner_id'] }) : null;
  }

  async insertTimeline(values: Partial<Timeline>): Promise<number> {
    const repo = this.db.getRepository(Timeline);
    return (await repo.save(repo.create(values))).id;
  }

  /** Changes a timeline; `eventsArchived` set: its events are archived (or unarchived) with it, in one transaction. */
  async updateTimeline(id: number, changes: Partial<Timeline>, eventsArchived: boolean | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (Object.keys(changes).length) await tx.update(Timeline, { id }, changes);
      if (eventsArchived !== null) await tx.update(TimelineEvent, { timeline_id: id }, { archived: eventsArchived });
    });
  }

  /** Deletes a timeline and its events (the foreign key cascades; deleting them first keeps that explicit). */
  async deleteTimeline(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(TimelineEvent, { timeline_id: id });
      await tx.delete(Timeline, { id });
    });
  }

  async insertEvent(values: Partial<TimelineEvent>): Promise<number> {
    const repo = this.db.getRepository(TimelineEvent);
    return (await repo.save(repo.create(values))).id;
  }

  async updateEvent(id: number, changes: Partial<TimelineEvent>): Promise<void> {
    if (Object.keys(changes).length) await this.db.getRepository(TimelineEvent).update({ id }, changes);
  }

  async deleteEvent(id: number): Promise<void> {
    await this.db.getRepository(TimelineEvent).delete({ id });
  }

  /** Archives (or unarchives) the timelines of these collections, inside the collection update's transaction. */
  async archiveIn(tx: EntityManager, collectionIds: number[], archived: boolean): Promise<void> {
    if (collectionIds.length === 0) return;
    await tx.createQueryBuilder().update(Timeline).set({ archived }).where('collection_id IN (:...ids)', { ids: collectionIds }).execute();
  }

  /** The timelines of these collections and their events, in the caller's transaction. */
  async deleteIn(tx: EntityManager, collectionIds: number[]): Promise<void> {
    for (let i = 0; i < collectionIds.length; i += 500) {
      const ids = collectionIds.slice(i, i + 500);
      const timelines = (await tx.find(Timeline, { where: { collection_id: In(ids) }, select: { id: true } })).map((t) => t.id);
      if (timelines.length === 0) continue;
      await tx.delete(TimelineEvent, { timeline_id: In(timelines) });
      await tx.delete(Timeline, { id: In(timelines) });
    }
  }

  /** For the collections' tree: which of these collections hold timelines (archived or not). */
  async collectionsWithTimelines(collectionIds: number[], archived: boolean): Promise<number[]> {
    if (collectionIds.length === 0) return [];
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT DISTINCT collection_id FROM timeline
        WHERE archived = ${archived} AND ${this.sql.idIn(raw('collection_id'), collectionIds)}`,
    );
    return typedRows<{ collection_id: number }>(rows, { numbers: ['collection_id'] }).map((r) => r.collection_id);
  }

  private eventConditions(f: EventFilter): Sql[] {
    const archived = f.archived ?? 'active';
    return [
      ...(archived !== 'all' ? [sql`e.archived = ${archived === 'archived'}`] : []),
      ...(f.start ? [sql`e."timestamp" >= ${f.start}`] : []),
      ...(f.end ? [sql`e."timestamp" <= ${f.end}`] : []),
    ];
  }
}
