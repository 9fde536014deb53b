import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { CardAccessService } from '../cards';
import { DEFAULT_REFRESH_SCHEDULE, nextRun, parseRefreshSchedule, RefreshSchedule, SettingsService } from '../settings';
import { mapPersisted, PersistedView } from './persistence.dto';
import { PersistenceRepository } from './persistence.repository';
import { ENABLED_SETTING, PersistenceService } from './persistence.service';

export const SCHEDULE_SETTING = 'persisted-model-refresh-cron-schedule';

/** The listings of /api/persist and the instance-wide switches (admin). */
@Injectable()
export class PersistenceAdminService {
  constructor(
    private readonly repo: PersistenceRepository,
    private readonly persistence: PersistenceService,
    private readonly settings: SettingsService,
    private readonly cards: CardAccessService,
  ) {}

  /** GET /api/persist: every persisted model, newest first, paged as Metabase pages it. */
  async list(limit?: number, offset = 0): Promise<{ data: PersistedView[]; total: number; limit: number | null; offset: number }> {
    const rows = await this.repo.list();
    const schedule = await this.schedule();
    const page = rows.slice(offset, limit === undefined ? undefined : offset + limit);
    return { data: page.map((r) => mapPersisted(r, this.next(r.state, schedule))), total: rows.length, limit: limit ?? null, offset };
  }

  /** GET /api/persist/card/:id: the model's persisted state (404 when it is not persisted); the card must be readable. */
  async forCard(caller: AuthUser, cardId: number): Promise<PersistedView> {
    await this.cards.readable(caller, cardId);
    const row = await this.repo.byCard(cardId);
    if (!row) throw new NotFoundError();
    return this.one(row.id);
  }

  /** GET /api/persist/:id: one persisted model; its card must be readable. */
  async byId(caller: AuthUser, id: number): Promise<PersistedView> {
    const row = await this.repo.byId(id);
    if (!row) throw new NotFoundError();
    await this.cards.readable(caller, row.card_id);
    return this.one(id);
  }

  /** POST /api/persist/enable: the instance-wide switch; off drops every persisted table (as each database's switch does). */
  async enable(state: boolean): Promise<void> {
    await this.settings.setMany({ [ENABLED_SETTING]: state });
    if (state) return;
    const dbIds = new Set((await this.repo.list()).map((r) => r.database_id));
    for (const id of dbIds) await this.persistence.disableDatabase(id);
  }

  /** POST /api/persist/set-refresh-schedule. */
  async setSchedule(cron: string): Promise<void> {
    const parsed = parseRefreshSchedule(cron);
    if (typeof parsed === 'string') throw ValidationError.of('cron', parsed, cron);
    await this.settings.setMany({ [SCHEDULE_SETTING]: cron });
  }

  async schedule(): Promise<RefreshSchedule> {
    const text = (await this.settings.get<string | null>(SCHEDULE_SETTING)) ?? DEFAULT_REFRESH_SCHEDULE;
    const parsed = parseRefreshSchedule(text);
    return typeof parsed === 'string' ? (parseRefreshSchedule(DEFAULT_REFRESH_SCHEDULE) as RefreshSchedule) : parsed;
  }

  private async one(id: number): Promise<PersistedView> {
    const [row] = await this.repo.list({ ids: [id] });
    if (!row) throw new NotFoundError();
    return mapPersisted(row, this.next(row.state, await this.schedule()));
  }

  private next(state: string, schedule: RefreshSchedule): Date | null {
    return state === 'off' || state === 'deletable' ? null : nextRun(schedule, new Date());
  }
}
