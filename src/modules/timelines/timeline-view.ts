import { commonNameOf } from '../../common/views/wire-values';
import { isoTime } from '../../common/database/sql-time';
import { rootView } from '../collections';
import type { CreatorColumns, EventRow, TimelineRow } from './timelines.repository';

/** The hydrated `creator` of a timeline or an event (null when the user is gone). */
export function creatorView(row: CreatorColumns) {
  if (!row.u_email) return null;
  return {
    id: row.creator_id,
    email: row.u_email,
    first_name: row.u_first_name,
    last_name: row.u_last_name,
    common_name: commonNameOf({ email: row.u_email, first_name: row.u_first_name, last_name: row.u_last_name }),
    is_superuser: row.u_is_superuser ?? false,
    is_qbnewb: row.u_is_qbnewb ?? false,
    date_joined: isoTime(row.u_date_joined),
    last_login: isoTime(row.u_last_login),
  };
}

/** An event as Metabase answers it, with its creator. */
export function eventView(e: EventRow) {
  return {
    id: e.id,
    timeline_id: e.timeline_id,
    name: e.name,
    description: e.description,
    timestamp: isoTime(e.timestamp),
    time_matters: e.time_matters,
    timezone: e.timezone,
    icon: e.icon,
    archived: e.archived,
    creator_id: e.creator_id,
    creator: creatorView(e),
    created_at: isoTime(e.created_at),
    updated_at: isoTime(e.updated_at),
  };
}

export type EventView = ReturnType<typeof eventView>;

/** The hydrated `collection` of a timeline with the caller's `can_write`: the virtual Root when it has none. */
export function timelineCollection(t: TimelineRow, canWrite: boolean) {
  if (t.collection_id === null || t.collection_id === undefined) return rootView(null, canWrite);
  return {
    id: t.collection_id,
    name: t.coll_name,
    description: t.coll_description,
    slug: t.coll_slug,
    entity_id: t.coll_entity_id,
    location: t.coll_location ?? '/',
    namespace: t.coll_namespace,
    personal_owner_id: t.coll_personal_owner_id ?? null,
    is_personal: t.coll_personal_owner_id !== null && t.coll_personal_owner_id !== undefined,
    authority_level: t.coll_authority_level,
    archived: t.coll_archived ?? false,
    created_at: isoTime(t.coll_created_at),
    type: null,
    can_write: canWrite,
  };
}

/** A timeline as Metabase answers it: its columns, creator and collection; `events` only when they were asked for. */
export function timelineView(t: TimelineRow, canWrite: boolean, events?: EventView[]) {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    icon: t.icon,
    default: t.default,
    collection_id: t.collection_id,
    archived: t.archived,
    entity_id: t.entity_id,
    creator_id: t.creator_id,
    creator: creatorView(t),
    created_at: isoTime(t.created_at),
    updated_at: isoTime(t.updated_at),
    collection: timelineCollection(t, canWrite),
    ...(events ? { events } : {}),
  };
}
