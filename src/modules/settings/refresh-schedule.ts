/**
 * The `persisted-model-refresh-cron-schedule` setting: a Quartz cron expression as Metabase stores it
 * (`seconds minutes hours day-of-month month day-of-week [year]`; the default `0 0 0/6 * * ? *` is every six hours),
 * or a plain number of hours between refreshes (`6`). Only schedules within a day are understood: the seconds,
 * minutes and hours fields may be `*`, a number, a list, a range or `start/step`; the day, month and year fields
 * must be `*` or `?`. Times are UTC.
 */
export const DEFAULT_REFRESH_SCHEDULE = '0 0 0/6 * * ? *';

export interface RefreshSchedule {
  /** Minutes of the day (0..1439) at which refreshes are due, ascending. */
  minutesOfDay: number[];
}

export function parseRefreshSchedule(text: string): RefreshSchedule | string {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) {
    const hours = Number(trimmed);
    if (hours < 1 || hours > 24) return 'value must be a number of hours from 1 to 24, or a cron expression such as "0 0 0/6 * * ? *".';
    return { minutesOfDay: range(0, 23, hours).map((h) => h * 60) };
  }
  const parts = trimmed.split(/\s+/);
  if (parts.length < 6 || parts.length > 7)
    return 'value must be a cron expression of 6 or 7 fields ("0 0 0/6 * * ? *"), or a number of hours.';
  const [sec, min, hour, ...rest] = parts;
  if (!rest.every((f) => f === '*' || f === '?'))
    return 'value must repeat within a day: day-of-month, month, day-of-week and year must be * or ?.';
  const seconds = field(sec, 0, 59);
  const minutes = field(min, 0, 59);
  const hours = field(hour, 0, 23);
  if (!seconds || !minutes || !hours)
    return 'value must be a cron expression: the seconds, minutes and hours fields take *, numbers, lists, ranges and steps.';
  if (seconds.length !== 1 || seconds[0] !== 0) return 'value must run on the minute: the seconds field must be 0.';
  return { minutesOfDay: hours.flatMap((h) => minutes.map((m) => h * 60 + m)).sort((a, b) => a - b) };
}

/** Whether a refresh is due at `now` for a model last refreshed (or attempted) at `last`: a scheduled time has passed since. */
export function isDue(schedule: RefreshSchedule, last: Date | null, now: Date): boolean {
  if (!last) return true;
  const previous = previousRun(schedule, now);
  return previous !== null && last.getTime() < previous.getTime();
}

/** The latest scheduled instant at or before `now` (looking back at most two days). */
export function previousRun(schedule: RefreshSchedule, now: Date): Date | null {
  if (schedule.minutesOfDay.length === 0) return null;
  const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (const day of [0, -1, -2]) {
    for (const m of [...schedule.minutesOfDay].reverse()) {
      const t = dayStart + day * 86_400_000 + m * 60_000;
      if (t <= now.getTime()) return new Date(t);
    }
  }
  return null;
}

function field(text: string, min: number, max: number): number[] | null {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^(\*|\d+)(?:-(\d+))?(?:\/(\d+))?$/.exec(part);
    if (!m) return null;
    const start = m[1] === '*' ? min : Number(m[1]);
    const end = m[2] !== undefined ? Number(m[2]) : m[1] === '*' || m[3] !== undefined ? max : start;
    const step = m[3] !== undefined ? Number(m[3]) : 1;
    if (start < min || end > max || start > end || step < 1) return null;
    for (const v of range(start, end, step)) out.add(v);
  }
  return [...out].sort((a, b) => a - b);
}

function range(start: number, end: number, step: number): number[] {
  const out: number[] = [];
  for (let v = start; v <= end; v += step) out.push(v);
  return out;
}

/** The first scheduled instant after `now`. */
export function nextRun(schedule: RefreshSchedule, now: Date): Date | null {
  if (schedule.minutesOfDay.length === 0) return null;
  const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (const day of [0, 1]) {
    for (const m of schedule.minutesOfDay) {
      const t = dayStart + day * 86_400_000 + m * 60_000;
      if (t > now.getTime()) return new Date(t);
    }
  }
  return null;
}
