import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AppLogger } from '../../common/logging/app-logger';
import { PersistenceAdminService } from './persistence-admin.service';
import { PersistenceRepository } from './persistence.repository';
import { DATABASE_SETTING, ENABLED_SETTING, PersistenceService, queryHashOf } from './persistence.service';
import { isDue, RefreshSchedule, SettingsService } from '../settings';
import type { PersistedInfo } from '../../schema/persisted-info.entity';

/**
 * Why a persisted model needs building now, if it does: its query changed since the table was built (stale), a
 * scheduled time passed since its last build (or failed attempt), or it was never built.
 */
export function dueReason(
  row: Pick<PersistedInfo, 'active' | 'query_hash' | 'refresh_begin' | 'state'>,
  currentQuery: string,
  schedule: RefreshSchedule,
  now: Date,
): 'stale' | 'scheduled' | null {
  if (row.state === 'off' || row.state === 'deletable') return null;
  const last = row.refresh_begin ? new Date(row.refresh_begin) : null;
  // A failed build of a changed query waits for the schedule, so a broken query is not retried every minute.
  if (row.query_hash !== queryHashOf(currentQuery) && !(row.state === 'error' && !isDue(schedule, last, now))) return 'stale';
  return isDue(schedule, last, now) ? 'scheduled' : null;
}

/**
 * Every instance checks now and then (the sync check interval, SYNC_CHECK_SECONDS) which persisted models are due
 * and rebuilds them; the row's lease makes sure one instance builds each (PersistenceService.refreshRow).
 */
@Injectable()
export class PersistenceScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private ticking = false;

  constructor(
    private readonly persistence: PersistenceService,
    private readonly admin: PersistenceAdminService,
    private readonly repo: PersistenceRepository,
    private readonly settings: SettingsService,
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

  /** One pass: rebuilds the due models one at a time; answers how many were rebuilt. */
  async tick(now = new Date()): Promise<number> {
    if (this.ticking) return 0;
    this.ticking = true;
    let built = 0;
    try {
      if (!(await this.settings.get<boolean>(ENABLED_SETTING))) return 0;
      const schedule = await this.admin.schedule();
      for (const row of await this.repo.candidates()) {
        const card = await this.repo.card(row.card_id);
        const db = await this.repo.database(row.database_id);
        if (!card || card.archived || !db || db.settings?.[DATABASE_SETTING] !== true) continue;
        const reason = dueReason(row, card.dataset_query, schedule, now);
        if (!reason) continue;
        if (await this.persistence.refreshRow(row.id, false)) built++;
      }
    } catch (e) {
      this.logger.warning('Persisted model refresh pass failed', { error: e instanceof Error ? e.message : String(e) });
    } finally {
      this.ticking = false;
    }
    return built;
  }
}
