import type {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  InsertEvent,
  QueryRunner,
  RemoveEvent,
  TransactionCommitEvent,
  TransactionRollbackEvent,
  UpdateEvent,
} from 'typeorm';
import { ClusterEvents } from '../cluster/cluster-events';
import type { ClusterTopic } from '../cluster/cluster-event';
import type { AppConfig } from '../../config/app-config';

/** Entries in use at once (sessions, API keys, users), and more; past it, the oldest entries go first. */
const MAX_ENTRIES = 10_000;
/** Entries expire this late even while every change is announced, in case an event was missed. */
export const WATCHED_CACHE_MAX_AGE_MS = 60_000;

/** A table whose writes change what a cache holds, and the event a write raises for the other instances. */
export interface Watch {
  topic: ClusterTopic;
  /** Whether a new row changes a kept answer (a new membership does; a new session does not: only found answers are kept). */
  inserts: boolean;
  /** Only writes to these columns count; all of them when absent. */
  columns?: readonly string[];
}

/** Set on a query runner whose open transaction wrote a watched table: the topics its commit announces. */
const WROTE = 'watchedCache.wrote';

export interface Kept<T> {
  value: T;
  /** Epoch ms after which the answer is no longer valid (a session's age limit), if it has one. */
  validUntil?: number;
}

/**
 * Answers read from the app DB on every request, kept in memory. Only as good as its invalidation, so every way a
 * kept answer can change clears it:
 * - a write through this instance's ORM to a watched table clears it at once and again at its commit (so nothing
 *   read in between outlives the change), and is then announced to the other instances, which clear theirs when
 *   the event arrives;
 * - the announcements the services make (logout, deactivation, permission changes: the `clearing` topics) and
 *   `all` after the bus reconnected clear it too;
 * - a load that started before a clear is not stored (it may have read the old rows);
 * - on a shared app DB whose bus is down nothing is served from memory, since other instances' changes would go
 *   unseen; entries also expire after a minute.
 * On SQLite (one instance: its own writes are all there is) entries live SETTINGS_REFRESH_SECONDS, as settings do.
 */
export abstract class WatchedCache<T> implements EntitySubscriberInterface {
  private entries = new Map<string, { cached: Kept<T>; at: number }>();
  private loading = new Map<string, Promise<Kept<T> | undefined>>();
  private generation = 0;

  private readonly localMaxAgeMs: number;

  constructor(
    db: DataSource,
    config: Pick<AppConfig, 'settingsRefreshSeconds'>,
    private readonly events: ClusterEvents,
    private readonly watched: Readonly<Record<string, Watch>>,
    clearing: readonly ClusterTopic[],
  ) {
    this.localMaxAgeMs = config.settingsRefreshSeconds * 1000;
    db.subscribers.push(this);
    const topics = new Set<ClusterTopic>([...clearing, 'all']);
    this.events.subscribe((event) => {
      if (topics.has(event.topic)) this.clear();
    });
  }

  /**
   * The answer kept under `key`, or `load()`'s (kept when found); undefined when there is none. Callers that miss
   * the same key at once share one load (a request's checks often ask the same thing in parallel; so does a crowd).
   */
  async get(key: string, load: () => Promise<Kept<T> | undefined>): Promise<T | undefined> {
    const now = Date.now();
    const maxAge = this.maxAgeMs;
    if (maxAge <= 0) return (await load())?.value;
    const hit = this.entries.get(key);
    if (hit && now - hit.at < maxAge && (hit.cached.validUntil === undefined || now < hit.cached.validUntil)) return hit.cached.value;
    let pending = this.loading.get(key);
    if (!pending) {
      const generation = this.generation;
      const loading = this.loading;
      const started = load().then((loaded) => {
        const keep = loaded && (loaded.validUntil === undefined || loaded.validUntil > now);
        if (keep && generation === this.generation) this.put(key, loaded, now);
        return loaded;
      });
      pending = started.finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    return (await pending)?.value;
  }

  private get maxAgeMs(): number {
    if (this.events.live) return WATCHED_CACHE_MAX_AGE_MS;
    return this.events.distributed ? 0 : Math.min(this.localMaxAgeMs, WATCHED_CACHE_MAX_AGE_MS);
  }

  clear(): void {
    this.generation++;
    this.entries = new Map();
    // A load under way may have read the old rows: later callers start their own.
    this.loading = new Map();
  }

  afterInsert(event: InsertEvent<unknown>): void {
    if (this.watched[event.metadata.tableName]?.inserts) this.changed(event);
  }

  afterUpdate(event: UpdateEvent<unknown>): void {
    const watched = this.watched[event.metadata.tableName];
    if (!watched) return;
    // A query-builder update hands over the values it set; a saved entity all of its columns.
    const set = event.entity as Record<string, unknown> | undefined;
    if (watched.columns && set && !watched.columns.some((c) => c in set)) return;
    this.changed(event);
  }

  afterRemove(event: RemoveEvent<unknown>): void {
    if (this.watched[event.metadata.tableName]) this.changed(event);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const data = event.queryRunner.data as Record<string, unknown> | undefined;
    const topics = data?.[WROTE] as Set<ClusterTopic> | undefined;
    if (!topics) return;
    delete data![WROTE];
    this.clear();
    for (const topic of topics) void this.events.publish({ topic });
  }

  /** A rolled-back plain-SQL write: what was read inside the transaction meanwhile must not stay. */
  afterTransactionRollback(event: TransactionRollbackEvent): void {
    const data = event.queryRunner.data as Record<string, unknown> | undefined;
    if (!data?.[WROTE]) return;
    delete data[WROTE];
    this.clear();
  }

  private changed(event: InsertEvent<unknown> | UpdateEvent<unknown> | RemoveEvent<unknown>): void {
    this.clear();
    const topic = this.watched[event.metadata.tableName].topic;
    if (!event.queryRunner.isTransactionActive) return void this.events.publish({ topic });
    // Told to the others only once committed: told earlier, they could reload what is about to change.
    noteTopic(event.queryRunner, topic);
  }

  private put(key: string, cached: Kept<T>, at: number): void {
    // Shared by every request that reads it: frozen, so that no request can change it for the others.
    deepFreeze(cached.value);
    this.entries.delete(key);
    this.entries.set(key, { cached, at });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }
}

function noteTopic(runner: QueryRunner, topic: ClusterTopic): void {
  const data = runner.data as Record<string, unknown>;
  ((data[WROTE] as Set<ClusterTopic> | undefined) ?? ((data[WROTE] = new Set<ClusterTopic>()) as Set<ClusterTopic>)).add(topic);
}

/**
 * For a watched table written with plain SQL, which the ORM's subscribers do not see: the commit of `tx`'s
 * transaction clears the caches and announces `topic`, as a write through the ORM would. Only inside a transaction
 * (a plain write outside one would be announced by nobody).
 */
export function markWritten(tx: EntityManager, topic: ClusterTopic): void {
  const runner = tx.queryRunner;
  if (!runner?.isTransactionActive) throw new Error(`a plain-SQL write of a watched table (${topic}) must run in a transaction`);
  noteTopic(runner, topic);
}

/**
 * Typed arrays cannot be frozen: a kept value holding one (GrantTable) keeps it private and never writes to it after
 * it is built.
 */
function deepFreeze(value: unknown): void {
  if (!value || typeof value !== 'object' || Object.isFrozen(value) || ArrayBuffer.isView(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
