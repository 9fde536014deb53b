/**
 * What changed, as one instance tells the others. Small on purpose (a NOTIFY payload is capped at 8000 bytes):
 * it names what to drop, never the new value, which each instance reads from the app DB itself.
 *
 * - `settings`: a setting was written.
 * - `permissions`: the permissions graph or a group membership changed.
 * - `metadata`: a warehouse database, table or field row changed (`id`: the database, when known).
 * - `session`: a session ended (logout); `id` is a prefix of the session key's hash, never the key.
 * - `user`: a user's sessions ended (deactivated, password changed); `id` is the user's id.
 * - `profile`: a user row changed (name, locale, last login, ...): what GET /api/user/current shows.
 * - `dashboards`: a dashboard's dashcards, series or tabs changed.
 * - `all`: drop everything; raised locally after the connection to the bus was lost, since events were missed.
 */
export type ClusterTopic = 'settings' | 'permissions' | 'metadata' | 'session' | 'user' | 'profile' | 'dashboards' | 'all';

export interface ClusterEvent {
  topic: ClusterTopic;
  id?: string | number;
}

/** How an event reached this instance: raised here, or received from another instance. */
export type ClusterOrigin = 'local' | 'remote';

export type ClusterHandler = (event: ClusterEvent, origin: ClusterOrigin) => void;

const TOPICS = new Set<string>(['settings', 'permissions', 'metadata', 'session', 'user', 'profile', 'dashboards', 'all']);

/** The wire form: the event plus the sending instance, so an instance can skip its own notifications. */
export function encodeEvent(event: ClusterEvent, from: string): string {
  return JSON.stringify({ t: event.topic, ...(event.id === undefined ? {} : { id: event.id }), from });
}

/** The event in a payload, or null for anything malformed (never throws: a payload is input from outside). */
export function decodeEvent(payload: string | undefined): { event: ClusterEvent; from: string } | null {
  if (!payload) return null;
  try {
    const raw = JSON.parse(payload) as { t?: unknown; id?: unknown; from?: unknown };
    if (typeof raw.t !== 'string' || !TOPICS.has(raw.t) || typeof raw.from !== 'string') return null;
    const id = typeof raw.id === 'string' || typeof raw.id === 'number' ? raw.id : undefined;
    return { event: { topic: raw.t as ClusterTopic, ...(id === undefined ? {} : { id }) }, from: raw.from };
  } catch {
    return null;
  }
}
