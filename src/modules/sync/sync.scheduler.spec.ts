import type { AppConfig } from '../../config/app-config';
import type { AppLogger } from '../../common/logging/app-logger';
import type { WarehouseDatabase } from '../../schema/database.entity';
import type { SyncRepository } from './sync.repository';
import { dueSync, FailedAttempts, SyncScheduler } from './sync.scheduler';
import type { SyncService } from './sync.service';

/** dueSync takes the time; tick() reads the clock, so the fixtures are relative to it. */
const NOW = Date.now();
const minutesAgo = (m: number) => new Date(NOW - m * 60_000);

function db(over: Partial<WarehouseDatabase> = {}): WarehouseDatabase {
  return {
    id: 1,
    metadata_sync_interval_minutes: 60,
    field_values_interval_minutes: 1440,
    last_metadata_sync_at: minutesAgo(10),
    last_field_values_at: minutesAgo(10),
    ...over,
  } as WarehouseDatabase;
}

describe('dueSync', () => {
  it('is nothing for a database synced recently', () => {
    expect(dueSync(db(), NOW)).toBeNull();
  });

  it('is metadata for a database never synced, or synced longer ago than its interval', () => {
    expect(dueSync(db({ last_metadata_sync_at: null, last_field_values_at: null }), NOW)).toBe('metadata');
    expect(dueSync(db({ last_metadata_sync_at: minutesAgo(61) }), NOW)).toBe('metadata');
    expect(dueSync(db({ last_metadata_sync_at: minutesAgo(60) }), NOW)).toBe('metadata'); // exactly the interval
    expect(dueSync(db({ last_metadata_sync_at: minutesAgo(59) }), NOW)).toBeNull();
    expect(dueSync(db({ metadata_sync_interval_minutes: 5, last_metadata_sync_at: minutesAgo(6) }), NOW)).toBe('metadata');
  });

  it('is field values when only the value lists are old (a metadata sync refreshes them too)', () => {
    expect(dueSync(db({ last_field_values_at: minutesAgo(1441) }), NOW)).toBe('field-values');
    expect(dueSync(db({ last_field_values_at: null }), NOW)).toBe('field-values');
    expect(dueSync(db({ last_field_values_at: minutesAgo(1441), last_metadata_sync_at: minutesAgo(61) }), NOW)).toBe('metadata');
    expect(dueSync(db({ field_values_interval_minutes: 60, last_field_values_at: minutesAgo(30) }), NOW)).toBeNull();
  });

  it('reads timestamps given as strings', () => {
    expect(dueSync(db({ last_metadata_sync_at: minutesAgo(90).toISOString() as unknown as Date }), NOW)).toBe('metadata');
  });

  it('counts a failed attempt like a sync, so a broken warehouse is retried once per interval', () => {
    const never = db({ last_metadata_sync_at: null, last_field_values_at: null });
    expect(dueSync(never, NOW, { metadata: minutesAgo(5) })).toBe('field-values');
    expect(dueSync(never, NOW, { metadata: minutesAgo(5), 'field-values': minutesAgo(5) })).toBeNull();
    expect(dueSync(never, NOW, { metadata: minutesAgo(61), 'field-values': minutesAgo(5) })).toBe('metadata');
    expect(dueSync(db({ last_metadata_sync_at: minutesAgo(90) }), NOW, { metadata: minutesAgo(120) })).toBe('metadata');
    expect(dueSync(db(), NOW, { metadata: null })).toBeNull();
  });

  it('treats a sync time in the future (clock skew between instances) as fresh', () => {
    expect(dueSync(db({ last_metadata_sync_at: new Date(NOW + 60_000), last_field_values_at: new Date(NOW + 60_000) }), NOW)).toBeNull();
  });
});

describe('SyncScheduler.tick', () => {
  function scheduler(
    dbs: WarehouseDatabase[],
    run: (id: number, kind: string) => Promise<boolean>,
    failed: Record<number, FailedAttempts> = {},
  ) {
    const sync = { run: jest.fn(run) };
    const repo = { allDatabases: jest.fn(async () => dbs), failedAttempts: jest.fn(async (id: number) => failed[id] ?? {}) };
    const logger = { warning: jest.fn() };
    const s = new SyncScheduler(
      sync as unknown as SyncService,
      repo as unknown as SyncRepository,
      { syncCheckSeconds: 0 } as AppConfig,
      logger as unknown as AppLogger,
    );
    return { s, sync, logger };
  }

  it('runs what is due, one database at a time, and counts the syncs that ran', async () => {
    const dbs = [
      db({ id: 1 }),
      db({ id: 2, last_metadata_sync_at: null }),
      db({ id: 3, last_field_values_at: minutesAgo(5000) }),
      db({ id: 4, last_metadata_sync_at: null }),
    ];
    let active = 0;
    const { s, sync } = scheduler(dbs, async (id) => {
      expect(++active).toBe(1);
      await new Promise((r) => setTimeout(r, 5));
      active--;
      return id !== 4; // another instance holds database 4
    });
    const ran = await s.tick();
    expect(sync.run.mock.calls).toEqual([
      [2, 'metadata'],
      [3, 'field-values'],
      [4, 'metadata'],
    ]);
    expect(ran).toBe(2);
  });

  it('reads the sync log only of databases that look due, and skips those that failed lately', async () => {
    const dbs = [db({ id: 1 }), db({ id: 2, last_metadata_sync_at: null }), db({ id: 3, last_metadata_sync_at: null })];
    const { s, sync } = scheduler(dbs, async () => true, { 2: { metadata: minutesAgo(1), 'field-values': minutesAgo(1) } });
    expect(await s.tick()).toBe(1);
    expect(sync.run.mock.calls).toEqual([[3, 'metadata']]);
  });

  it('does not start a second pass while one is running', async () => {
    let release!: () => void;
    const { s, sync } = scheduler([db({ last_metadata_sync_at: null })], () => new Promise((r) => (release = () => r(true))));
    const first = s.tick();
    await new Promise((r) => setImmediate(r));
    expect(await s.tick()).toBe(0);
    release();
    expect(await first).toBe(1);
    expect(sync.run).toHaveBeenCalledTimes(1);
  });

  it('logs a failed pass and is ready for the next one', async () => {
    const { s, logger } = scheduler([db({ last_metadata_sync_at: null })], async () => {
      throw new Error('app DB unreachable');
    });
    expect(await s.tick()).toBe(0);
    expect(logger.warning).toHaveBeenCalledWith('Sync scheduler pass failed', { error: 'app DB unreachable' });
    expect(await s.tick()).toBe(0);
    expect(logger.warning).toHaveBeenCalledTimes(2);
  });
});
