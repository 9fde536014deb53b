import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AppLogger } from '../../common/logging/app-logger';
import { WarehouseDatabase } from '../../schema/database.entity';
import { SyncKind } from '../../schema/sync-run.entity';
import { SyncService } from './sync.service';
import { SyncRepository } from './sync.repository';

/** When the last sync of each kind failed, if it did. */
export type FailedAttempts = Partial<Record<SyncKind, Date | null>>;

/**
 * What a database is due, if anything: metadata hourly by default, value lists daily. A failed attempt counts
 * like a sync, so a warehouse that is down is tried again after the interval, not at every check.
 */
export function dueSync(db: WarehouseDatabase, now: number, failed: FailedAttempts = {}): SyncKind | null {
  const age = (...ds: Array<Date | null | undefined>) => Math.min(...ds.map((d) => (d ? now - new Date(d).getTime() : Infinity)));
  if (age(db.last_metadata_sync_at, failed.metadata) >= db.metadata_sync_interval_minutes * 60_000) return 'metadata';
  if (age(db.last_field_values_at, failed['field-values']) >= db.field_values_interval_minutes * 60_000) return 'field-values';
  return null;
}

/**
 * Every instance checks now and then which databases are due; the database's sync lease makes sure only one of
 * them runs each sync.
 */
@Injectable()
export class SyncScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private ticking = false;

  constructor(
    private readonly sync: SyncService,
    private readonly repo: SyncRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AppLogger) private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.syncCheckSeconds === 0) return;
    this.timer = setInterval(() => void this.tick(), this.config.syncCheckSeconds * 1000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One pass over the databases, one sync at a time so a big warehouse does not starve the app. */
  async tick(): Promise<number> {
    if (this.ticking) return 0;
    this.ticking = true;
    let ran = 0;
    try {
      const now = Date.now();
      for (const db of await this.repo.allDatabases()) {
        // The sync log is read only for databases that look due.
        const kind = dueSync(db, now) && dueSync(db, now, await this.repo.failedAttempts(db.id));
        if (kind && (await this.sync.run(db.id, kind))) ran++;
      }
    } catch (e) {
      this.logger.warning('Sync scheduler pass failed', { error: e instanceof Error ? e.message : String(e) });
    } finally {
      this.ticking = false;
    }
    return ran;
  }
}
