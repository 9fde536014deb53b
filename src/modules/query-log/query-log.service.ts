import { BeforeApplicationShutdown, Inject, Injectable, Optional } from '@nestjs/common';
import { JobLeases } from '../../common/cluster/job-leases';
import { AppLogger } from '../../common/logging/app-logger';
import { SettingsService } from '../settings';
import { BackgroundWork } from './background-work';
import { QueryExecution } from '../../schema/query-execution.entity';
import { QueryLogRepository } from './query-log.repository';

/** How many of a query's latest successful runs `average_execution_time` averages over. */
export const AVERAGE_OVER_RUNS = 10;
/** Runs are written together, one statement (one commit) per batch, at most this long after they ended. */
export const WRITE_DELAY_MS = 250;
/** A batch this large is written at once. */
export const WRITE_BATCH = 100;
/** The log is pruned at most this often, by one instance of all (a job lease for the period). */
export const PRUNE_EVERY_MS = 60 * 60_000;
export const RETENTION_SETTING = 'query-execution-retention-days';
/**
 * An average, an estimate shown before a run, is reused this long (another instance's runs show after it);
 * this instance's own runs of the query refresh it as soon as they are written.
 */
export const AVERAGE_REUSE_MS = 30_000;
const AVERAGES_KEPT = 10_000;

/** What one run was; `error` is the engine's message for a failed run (never SQL or parameter values of ours). */
export type ExecutionRecord = Omit<QueryExecution, 'id' | 'card_id' | 'dashboard_id'> & {
  card_id?: number | null;
  dashboard_id?: number | null;
};

/**
 * The query execution log: one row per run, written in the background after the answer in batches (a commit per
 * run cost more than the rest of a small query's bookkeeping; a failing write is logged and forgotten), pruned
 * past `query-execution-retention-days`, and averaged per query hash.
 */
@Injectable()
export class QueryLogService implements BeforeApplicationShutdown {
  private readonly work: BackgroundWork;
  private lastPruneAt = 0;
  private pending: Omit<QueryExecution, 'id'>[] = [];
  private writeTimer: NodeJS.Timeout | null = null;
  private readonly averages = new Map<string, { value: number | null; at: number }>();
  /** Moves with every write: an average read while a write was in flight may already be out of date. */
  private writes = 0;

  constructor(
    private readonly repo: QueryLogRepository,
    private readonly settings: SettingsService,
    @Inject(AppLogger) private readonly logger: AppLogger,
    @Optional() private readonly leases?: JobLeases,
  ) {
    this.work = new BackgroundWork((what, e) =>
      this.logger.warning(`Query log: ${what} failed`, { error: e instanceof Error ? e.message : String(e) }),
    );
  }

  /** Records a run in the background; never throws and never delays the caller. */
  record(run: ExecutionRecord): void {
    this.pending.push({
      ...run,
      card_id: run.card_id ?? null,
      dashboard_id: run.dashboard_id ?? null,
      running_time: Math.max(0, Math.round(run.running_time)),
    });
    if (this.pending.length >= WRITE_BATCH) this.writePending();
    else this.writeTimer ??= setTimeout(() => this.writePending(), WRITE_DELAY_MS).unref();
    if (Date.now() - this.lastPruneAt >= PRUNE_EVERY_MS) {
      this.lastPruneAt = Date.now();
      this.work.start('pruning', () =>
        this.leases ? this.leases.runOncePer('query-log-prune', PRUNE_EVERY_MS, () => this.prune()) : this.prune(),
      );
    }
  }

  /** Mean running time (ms, rounded) of the latest successful uncached runs of a query, or null when there are none. */
  async averageExecutionTime(hash: string): Promise<number | null> {
    const now = Date.now();
    const kept = this.averages.get(hash);
    if (kept && now - kept.at < AVERAGE_REUSE_MS) return kept.value;
    const writes = this.writes;
    try {
      const times = await this.repo.recentRunningTimes(hash, AVERAGE_OVER_RUNS);
      const value = times.length === 0 ? null : Math.round(times.reduce((a, b) => a + b, 0) / times.length);
      if (writes === this.writes) this.keepAverage(hash, value, now);
      return value;
    } catch (e) {
      this.logger.warning('Query log: reading the average execution time failed', { error: e instanceof Error ? e.message : String(e) });
      return null;
    }
  }

  /** Deletes executions older than the retention setting (a value below 1 keeps everything); answers how many. */
  async prune(now = new Date()): Promise<number> {
    const days = Number(await this.settings.get<number | null>(RETENTION_SETTING));
    if (!Number.isFinite(days) || days < 1) return 0;
    return this.repo.deleteStartedBefore(new Date(now.getTime() - days * 86_400_000));
  }

  /** Writes what is waiting and waits for the writes still in flight. */
  flush(): Promise<void> {
    this.writePending();
    return this.work.flush();
  }

  private writePending(): void {
    if (this.writeTimer) clearTimeout(this.writeTimer);
    this.writeTimer = null;
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    this.work.start(rows.length === 1 ? 'recording an execution' : 'recording executions', async () => {
      this.writes++;
      try {
        await this.repo.insertMany(rows);
      } finally {
        this.writes++;
        for (const r of rows) this.averages.delete(r.hash);
      }
    });
  }

  private keepAverage(hash: string, value: number | null, at: number): void {
    this.averages.delete(hash);
    this.averages.set(hash, { value, at });
    if (this.averages.size > AVERAGES_KEPT) this.averages.delete(this.averages.keys().next().value as string);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.flush();
  }
}
