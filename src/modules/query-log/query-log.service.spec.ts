import type { AppLogger } from '../../common/logging/app-logger';
import type { SettingsService } from '../settings/settings.service';
import type { QueryLogRepository } from './query-log.repository';
import { AVERAGE_REUSE_MS, ExecutionRecord, PRUNE_EVERY_MS, QueryLogService, WRITE_BATCH, WRITE_DELAY_MS } from './query-log.service';

describe('QueryLogService', () => {
  const record: ExecutionRecord = {
    hash: 'h'.repeat(64),
    started_at: new Date(),
    running_time: 12.4,
    result_rows: 3,
    native: false,
    context: 'ad-hoc',
    executor_id: 1,
    database_id: 2,
    error: null,
    cache_hit: false,
  };
  let repo: { insertMany: jest.Mock; recentRunningTimes: jest.Mock; deleteStartedBefore: jest.Mock };
  let retention: unknown;
  let logger: { warning: jest.Mock };
  let service: QueryLogService;

  beforeEach(() => {
    repo = {
      insertMany: jest.fn().mockResolvedValue(undefined),
      recentRunningTimes: jest.fn().mockResolvedValue([]),
      deleteStartedBefore: jest.fn().mockResolvedValue(4),
    };
    retention = 30;
    logger = { warning: jest.fn() };
    const settings = { get: jest.fn(async () => retention) } as unknown as SettingsService;
    service = new QueryLogService(repo as unknown as QueryLogRepository, settings, logger as unknown as AppLogger);
  });

  it('writes in the background, rounded, and swallows a failing write', async () => {
    repo.insertMany.mockRejectedValueOnce(new Error('disk full'));
    expect(() => service.record(record)).not.toThrow();
    expect(repo.insertMany).not.toHaveBeenCalled();
    await service.flush();
    expect(repo.insertMany).toHaveBeenCalledWith([{ ...record, running_time: 12, card_id: null, dashboard_id: null }]);
    expect(logger.warning).toHaveBeenCalledWith('Query log: recording an execution failed', { error: 'disk full' });
  });

  it('writes runs together: after a short delay, or at once when a batch is full', async () => {
    jest.useFakeTimers();
    try {
      service.record(record);
      service.record({ ...record, running_time: 7 });
      jest.advanceTimersByTime(WRITE_DELAY_MS - 1);
      expect(repo.insertMany).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);
      await jest.runAllTimersAsync();
      expect(repo.insertMany).toHaveBeenCalledTimes(1);
      expect(repo.insertMany.mock.calls[0][0].map((r: { running_time: number }) => r.running_time)).toEqual([12, 7]);
      for (let i = 0; i < WRITE_BATCH; i++) service.record(record);
      await jest.runOnlyPendingTimersAsync();
      expect(repo.insertMany).toHaveBeenCalledTimes(2);
      expect(repo.insertMany.mock.calls[1][0]).toHaveLength(WRITE_BATCH);
    } finally {
      jest.useRealTimers();
    }
  });

  it('prunes at most once an hour per instance', async () => {
    const now = jest.spyOn(Date, 'now');
    now.mockReturnValue(10 * PRUNE_EVERY_MS);
    service.record(record);
    service.record(record);
    await service.flush();
    expect(repo.deleteStartedBefore).toHaveBeenCalledTimes(1);
    now.mockReturnValue(11 * PRUNE_EVERY_MS);
    service.record(record);
    await service.flush();
    expect(repo.deleteStartedBefore).toHaveBeenCalledTimes(2);
    now.mockRestore();
  });

  it('deletes by the retention setting; below 1 keeps everything', async () => {
    const at = new Date('2026-01-31T00:00:00Z');
    expect(await service.prune(at)).toBe(4);
    expect(repo.deleteStartedBefore).toHaveBeenCalledWith(new Date('2026-01-01T00:00:00Z'));
    retention = 0;
    expect(await service.prune(at)).toBe(0);
    retention = null;
    expect(await service.prune(at)).toBe(0);
    expect(repo.deleteStartedBefore).toHaveBeenCalledTimes(1);
  });

  it('averages the latest successful runs, null when none or when the read fails', async () => {
    expect(await service.averageExecutionTime('none')).toBeNull();
    repo.recentRunningTimes.mockResolvedValueOnce([10, 20, 31]);
    expect(await service.averageExecutionTime('x')).toBe(20);
    expect(repo.recentRunningTimes).toHaveBeenLastCalledWith('x', 10);
    repo.recentRunningTimes.mockRejectedValueOnce(new Error('down'));
    expect(await service.averageExecutionTime('y')).toBeNull();
    // A failed read is not remembered.
    repo.recentRunningTimes.mockResolvedValueOnce([8]);
    expect(await service.averageExecutionTime('y')).toBe(8);
  });

  it('reuses an average for a while, and reads it again once a run of that query is written', async () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    try {
      repo.recentRunningTimes.mockResolvedValueOnce([10]);
      expect(await service.averageExecutionTime(record.hash)).toBe(10);
      repo.recentRunningTimes.mockResolvedValue([30]);
      expect(await service.averageExecutionTime(record.hash)).toBe(10);
      expect(repo.recentRunningTimes).toHaveBeenCalledTimes(1);
      // Another query's run leaves it; this query's run refreshes it.
      service.record({ ...record, hash: 'other' });
      await service.flush();
      expect(await service.averageExecutionTime(record.hash)).toBe(10);
      service.record(record);
      await service.flush();
      expect(await service.averageExecutionTime(record.hash)).toBe(30);
      // Runs written by other instances show once the reuse period is over.
      repo.recentRunningTimes.mockResolvedValue([50]);
      now.mockReturnValue(1_000_000 + AVERAGE_REUSE_MS - 1);
      expect(await service.averageExecutionTime(record.hash)).toBe(30);
      now.mockReturnValue(1_000_000 + AVERAGE_REUSE_MS);
      expect(await service.averageExecutionTime(record.hash)).toBe(50);
    } finally {
      now.mockRestore();
    }
  });

  it('does not keep an average whose read a write overtook', async () => {
    let finishRead!: (times: number[]) => void;
    repo.recentRunningTimes.mockReturnValueOnce(new Promise<number[]>((resolve) => (finishRead = resolve)));
    const reading = service.averageExecutionTime(record.hash);
    service.record(record);
    await service.flush();
    finishRead([10]);
    expect(await reading).toBe(10);
    repo.recentRunningTimes.mockResolvedValueOnce([20]);
    expect(await service.averageExecutionTime(record.hash)).toBe(20);
  });
});
