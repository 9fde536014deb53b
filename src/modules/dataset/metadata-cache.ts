import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntitySubscriberInterface, InsertEvent, RemoveEvent, TransactionCommitEvent, UpdateEvent } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { WarehouseDatabase } from '../databases/database.entity';
import { WarehouseField } from '../fields/field.entity';
import { WarehouseTable } from '../tables/table.entity';

/** Enough for every table and field of a large warehouse; past it, the oldest entries go first. */
const MAX_ENTRIES = 20_000;

const WATCHED = new Set<unknown>([WarehouseDatabase, WarehouseTable, WarehouseField]);

/** Set on a query runner whose open transaction wrote metadata: its commit clears the cache once more. */
const WROTE_METADATA = 'metadataCache.wrote';

/**
 * Connection, table and field rows as the query engine reads them, shared by every query of this instance: on a
 * small query, reading them from the app DB cost more than planning and compiling it.
 *
 * A write through this instance's ORM (sync, admin edits, a deleted database) drops every entry, and again when
 * its transaction commits, so that nothing read in between outlives it. Another instance's writes are seen once
 * entries expire, after SETTINGS_REFRESH_SECONDS, as with settings. Values are frozen: queries share them.
 */
@Injectable()
export class MetadataCache implements EntitySubscriberInterface {
  private entries = new Map<string, { value: Promise<unknown>; at: number }>();
  private readonly maxAgeMs: number;

  constructor(db: DataSource, @Inject(APP_CONFIG) config: AppConfig) {
    this.maxAgeMs = config.settingsRefreshSeconds * 1000;
    db.subscribers.push(this);
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
    if (!event.queryRunner.data?.[WROTE_METADATA]) return;
    delete event.queryRunner.data[WROTE_METADATA];
    this.clear();
  }

  private changed(event: InsertEvent<unknown> | UpdateEvent<unknown> | RemoveEvent<unknown>): void {
    if (!WATCHED.has(event.metadata.target)) return;
    this.clear();
    if (event.queryRunner.isTransactionActive) event.queryRunner.data[WROTE_METADATA] = true;
  }

  private put(key: string, value: Promise<unknown>, at: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, at });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
