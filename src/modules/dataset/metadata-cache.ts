import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource, EntitySubscriberInterface, InsertEvent, RemoveEvent, TransactionCommitEvent, UpdateEvent } from 'typeorm';
import { ClusterEvents } from '../../common/cluster/cluster-events';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { WarehouseDatabase } from '../../schema/database.entity';
import { WarehouseField } from '../../schema/field.entity';
import { WarehouseTable } from '../../schema/table.entity';

/** Enough for every table and field of a large warehouse; past it, the oldest entries go first. */
const MAX_ENTRIES = 20_000;
/** While the cluster bus delivers changes, entries still expire this late, in case an event was missed. */
const LIVE_MAX_AGE_MS = 60_000;

const WATCHED = new Set<unknown>([WarehouseDatabase, WarehouseTable, WarehouseField]);

/** Set on a query runner whose open transaction wrote metadata: its commit clears the cache once more. */
const WROTE_METADATA = 'metadataCache.wrote';
/** The database whose metadata that transaction wrote, when known (several: none). */
const WROTE_DB = 'metadataCache.db';

/**
 * Connection, table and field rows as the query engine reads them, shared by every query of this instance: on a
 * small query, reading them from the app DB cost more than planning and compiling it.
 *
 * A write through this instance's ORM (sync, admin edits, a deleted database) drops every entry, and again when
 * its transaction commits, so that nothing read in between outlives it, and then tells the other instances
 * (`metadata` on the cluster bus), which drop theirs at once. Without the bus (SQLite, or while its connection is
 * down) another instance's writes are seen once entries expire, after SETTINGS_REFRESH_SECONDS, as with settings.
 * Values are frozen: queries share them.
 */
@Injectable()
export class MetadataCache implements EntitySubscriberInterface {
  private entries = new Map<string, { value: Promise<unknown>; at: number }>();
  private readonly pollMaxAgeMs: number;

  constructor(
    db: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() private readonly events: ClusterEvents = new ClusterEvents(),
  ) {
    this.pollMaxAgeMs = config.settingsRefreshSeconds * 1000;
    db.subscribers.push(this);
    this.events.subscribe((event, origin) => {
      if (origin === 'remote' && (event.topic === 'metadata' || event.topic === 'all')) this.clear();
    });
  }

  private get maxAgeMs(): number {
    return this.events.live ? Math.max(LIVE_MAX_AGE_MS, this.pollMaxAgeMs) : this.pollMaxAgeMs;
  }

  /** The entry under `key`, loaded when missing or expired. A failed load is not kept. */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.maxAgeMs) return hit.value as Promise<T>;
    const value = load().then(deepFreeze);
    this.put(key, value, now);
    const entries = this.entries;
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key);
    });
    return value;
  }

  /** Stores what a broader load already read (the fields of a table, each under its own id). */
  set<T>(key: string, value: T): void {
    this.put(key, Promise.resolve(deepFreeze(value)), Date.now());
  }

  clear(): void {
    this.entries = new Map();
  }

  afterInsert(event: InsertEvent<unknown>): void {
    this.changed(event);
  }

  afterUpdate(event: UpdateEvent<unknown>): void {
    this.changed(event);
  }

  afterRemove(event: RemoveEvent<unknown>): void {
    this.changed(event);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const data = event.queryRunner.data as Record<string, unknown> | undefined;
    if (!data?.[WROTE_METADATA]) return;
    const dbId = data[WROTE_DB];
    delete data[WROTE_METADATA];
    delete data[WROTE_DB];
    this.clear();
    this.announce(typeof dbId === 'number' ? dbId : undefined);
  }

  private changed(event: InsertEvent<unknown> | UpdateEvent<unknown> | RemoveEvent<unknown>): void {
    if (!WATCHED.has(event.metadata.target)) return;
    this.clear();
    const dbId = databaseOf(event);
    if (!event.queryRunner.isTransactionActive) return this.announce(dbId);
    // Told to the others only once committed: told earlier, they could reload what is about to change.
    const data = event.queryRunner.data as Record<string, unknown>;
    data[WROTE_DB] = data[WROTE_METADATA] && data[WROTE_DB] !== dbId ? undefined : dbId;
    data[WROTE_METADATA] = true;
  }

  /** The bus sends what one tick raised once, so a sync writing many rows sends one event. */
  private announce(dbId: number | undefined): void {
    void this.events.publish({ topic: 'metadata', ...(dbId === undefined ? {} : { id: dbId }) });
  }

  private put(key: string, value: Promise<unknown>, at: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, at });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/** The warehouse database a written row belongs to, when the row says so. */
function databaseOf(event: InsertEvent<unknown> | UpdateEvent<unknown> | RemoveEvent<unknown>): number | undefined {
  const row = (event.entity ?? (event as RemoveEvent<unknown>).databaseEntity) as { id?: unknown; db_id?: unknown } | undefined;
  const id = event.metadata.target === WarehouseDatabase ? row?.id : event.metadata.target === WarehouseTable ? row?.db_id : undefined;
  return typeof id === 'number' ? id : undefined;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
