import { dueReason } from '../persistence/persistence.scheduler';
import { queryHashOf } from '../persistence/persistence.service';
import { DEFAULT_REFRESH_SCHEDULE, isDue, nextRun, parseRefreshSchedule, RefreshSchedule } from './refresh-schedule';

const parsed = (text: string) => parseRefreshSchedule(text) as RefreshSchedule;
const at = (iso: string) => new Date(iso);

describe('the refresh schedule', () => {
  it("reads Metabase's default (every six hours), other Quartz crons within a day, and hours", () => {
    expect(parsed(DEFAULT_REFRESH_SCHEDULE).minutesOfDay).toEqual([0, 360, 720, 1080]);
    expect(parsed('0 30 1,13 * * ?').minutesOfDay).toEqual([90, 810]);
    expect(parsed('0 0 8-10 * * ? *').minutesOfDay).toEqual([480, 540, 600]);
    expect(parsed('12').minutesOfDay).toEqual([0, 720]);
  });

  it('refuses what it cannot run, saying why', () => {
    expect(parseRefreshSchedule('0 0 0/6 1 * ? *')).toMatch(/day-of-month/);
    expect(parseRefreshSchedule('0 0 24 * * ?')).toMatch(/hours field/);
    expect(parseRefreshSchedule('30 0 * * * ?')).toMatch(/seconds field must be 0/);
    expect(parseRefreshSchedule('0 0 *')).toMatch(/6 or 7 fields/);
    expect(parseRefreshSchedule('0')).toMatch(/1 to 24/);
  });

  it('is due once a scheduled time passed since the last build', () => {
    const six = parsed(DEFAULT_REFRESH_SCHEDULE);
    expect(isDue(six, null, at('2026-01-01T05:00:00Z'))).toBe(true);
    expect(isDue(six, at('2026-01-01T00:10:00Z'), at('2026-01-01T05:59:00Z'))).toBe(false);
    expect(isDue(six, at('2026-01-01T00:10:00Z'), at('2026-01-01T06:00:00Z'))).toBe(true);
    expect(isDue(six, at('2025-12-31T23:00:00Z'), at('2026-01-01T00:30:00Z'))).toBe(true);
    expect(nextRun(six, at('2026-01-01T19:00:00Z'))).toEqual(at('2026-01-02T00:00:00Z'));
  });

  it('rebuilds a stale model at once, but a failed stale build only on the schedule', () => {
    const six = parsed(DEFAULT_REFRESH_SCHEDULE);
    const row = {
      active: true,
      query_hash: queryHashOf('{"a":1}'),
      refresh_begin: at('2026-01-01T06:10:00Z'),
      state: 'persisted' as const,
    };
    const now = at('2026-01-01T07:00:00Z');
    expect(dueReason(row, '{"a":1}', six, now)).toBeNull();
    expect(dueReason(row, '{"a":2}', six, now)).toBe('stale');
    expect(dueReason({ ...row, state: 'error' }, '{"a":2}', six, now)).toBeNull();
    expect(dueReason(row, '{"a":1}', six, at('2026-01-01T12:00:00Z'))).toBe('scheduled');
    expect(dueReason({ ...row, state: 'off' }, '{"a":2}', six, now)).toBeNull();
  });
});
