import { parseDateParam, type DateParamOptions, type DateRange } from '../../src/query-engine/parameters/date-params';
import { ParameterError } from '../../src/query-engine/parameters/errors';

// Wednesday 15 May 2024, 14:30 UTC.
const NOW = new Date('2024-05-15T14:30:00Z');
const utc: DateParamOptions = { now: NOW, timezone: 'UTC' };

function r(value: string, opts: DateParamOptions = utc): DateRange {
  const parsed = parseDateParam(value, opts);
  if (parsed.kind !== 'range') throw new Error(`not a range: ${value}`);
  return parsed;
}
const bounds = (value: string, opts: DateParamOptions = utc) => {
  const x = r(value, opts);
  return [x.start, x.end, x.unit];
};

describe('absolute date parameters', () => {
  it.each([
    ['2024-05-01', '2024-05-01', '2024-05-02', 'day'],
    ['2024-02-29', '2024-02-29', '2024-03-01', 'day'],
    ['2023-02-28', '2023-02-28', '2023-03-01', 'day'],
    ['2024-12-31', '2024-12-31', '2025-01-01', 'day'],
    ['2024-04-30', '2024-04-30', '2024-05-01', 'day'],
    ['2024-05-01~2024-05-31', '2024-05-01', '2024-06-01', 'day'],
    ['2024-01-01~2024-12-31', '2024-01-01', '2025-01-01', 'day'],
    ['2024-05-01T10:30~2024-05-01T12:00', '2024-05-01T10:30:00', '2024-05-01T12:01:00', 'minute'],
    ['2024-05-01~2024-05-02T08:00', '2024-05-01T00:00:00', '2024-05-02T08:01:00', 'minute'],
    ['2024-05', '2024-05-01', '2024-06-01', 'month'],
    ['2024-02', '2024-02-01', '2024-03-01', 'month'],
    ['2024-12', '2024-12-01', '2025-01-01', 'month'],
    ['Q1-2024', '2024-01-01', '2024-04-01', 'quarter'],
    ['Q2-2024', '2024-04-01', '2024-07-01', 'quarter'],
    ['Q3-2023', '2023-07-01', '2023-10-01', 'quarter'],
    ['Q4-2024', '2024-10-01', '2025-01-01', 'quarter'],
    ['2024-05-01T10:30', '2024-05-01T10:30:00', '2024-05-01T10:31:00', 'minute'],
    ['2024-05-01 23:59', '2024-05-01T23:59:00', '2024-05-02T00:00:00', 'minute'],
    ['2024-12-31T23:59:59', '2024-12-31T23:59:00', '2025-01-01T00:00:00', 'minute'],
  ])('%s', (value, start, end, unit) => {
    expect(bounds(value)).toEqual([start, end, unit]);
  });

  it('open-ended ranges', () => {
    const before = r('~2024-05-01');
    expect(before.start).toBeUndefined();
    expect(before.end).toBe('2024-05-02');
    const after = r('2024-05-01~');
    expect(after.start).toBe('2024-05-01');
    expect(after.end).toBeUndefined();
    expect(r('~2024-05-01T10:00').end).toBe('2024-05-01T10:01:00');
  });

  it('absolute values do not depend on now and carry UTC instants', () => {
    const x = r('2024-05-01', { now: new Date('1999-01-01T00:00:00Z'), timezone: 'UTC' });
    expect(x).toEqual({
      kind: 'range',
      unit: 'day',
      start: '2024-05-01',
      end: '2024-05-02',
      startInstant: '2024-05-01T00:00:00Z',
      endInstant: '2024-05-02T00:00:00Z',
    });
    expect(r('2024-05-01', { timezone: 'Asia/Tokyo' }).startInstant).toBe('2024-04-30T15:00:00Z');
    expect(r('2024-05-01', { timezone: null }).startInstant).toBe('2024-05-01T00:00:00Z');
  });
});

describe('relative date parameters', () => {
  it.each([
    ['today', '2024-05-15', '2024-05-16', 'day'],
    ['yesterday', '2024-05-14', '2024-05-15', 'day'],
    ['thisday', '2024-05-15', '2024-05-16', 'day'],
    ['thisweek', '2024-05-12', '2024-05-19', 'week'],
    ['thismonth', '2024-05-01', '2024-06-01', 'month'],
    ['thisquarter', '2024-04-01', '2024-07-01', 'quarter'],
    ['thisyear', '2024-01-01', '2025-01-01', 'year'],
    ['lastday', '2024-05-14', '2024-05-15', 'day'],
    ['lastweek', '2024-05-05', '2024-05-12', 'week'],
    ['lastmonth', '2024-04-01', '2024-05-01', 'month'],
    ['lastquarter', '2024-01-01', '2024-04-01', 'quarter'],
    ['lastyear', '2023-01-01', '2024-01-01', 'year'],
    ['nextmonth', '2024-06-01', '2024-07-01', 'month'],
    ['thishour', '2024-05-15T14:00:00', '2024-05-15T15:00:00', 'hour'],
    ['past30days', '2024-04-15', '2024-05-15', 'day'],
    ['past30days~', '2024-04-15', '2024-05-16', 'day'],
    ['past1days', '2024-05-14', '2024-05-15', 'day'],
    ['past3months', '2024-02-01', '2024-05-01', 'month'],
    ['past3months~', '2024-02-01', '2024-06-01', 'month'],
    ['past2quarters', '2023-10-01', '2024-04-01', 'quarter'],
    ['past2years', '2022-01-01', '2024-01-01', 'year'],
    ['past2weeks', '2024-04-28', '2024-05-12', 'week'],
    ['past2hours', '2024-05-15T12:00:00', '2024-05-15T14:00:00', 'hour'],
    ['past15minutes', '2024-05-15T14:15:00', '2024-05-15T14:30:00', 'minute'],
    ['next3months', '2024-06-01', '2024-09-01', 'month'],
    ['next3months~', '2024-05-01', '2024-09-01', 'month'],
    ['next2weeks~', '2024-05-12', '2024-06-02', 'week'],
    ['next7days', '2024-05-16', '2024-05-23', 'day'],
    ['next1years', '2025-01-01', '2026-01-01', 'year'],
    ['past3months-from-1years', '2023-02-01', '2023-05-01', 'month'],
    ['next2days-from-1weeks', '2024-05-23', '2024-05-25', 'day'],
  ])('%s', (value, start, end, unit) => {
    expect(bounds(value)).toEqual([start, end, unit]);
  });

  it('marks the strings that are exactly a time-interval', () => {
    expect(r('today').relative).toEqual({ n: 'current', unit: 'day' });
    expect(r('yesterday').relative).toEqual({ n: 'last', unit: 'day' });
    expect(r('thisquarter').relative).toEqual({ n: 'current', unit: 'quarter' });
    expect(r('lastmonth').relative).toEqual({ n: 'last', unit: 'month' });
    expect(r('past30days').relative).toEqual({ n: -30, unit: 'day' });
    expect(r('past30days~').relative).toEqual({ n: -30, unit: 'day', includeCurrent: true });
    expect(r('next3months').relative).toEqual({ n: 3, unit: 'month' });
    expect(r('past3months-from-1years').relative).toBeUndefined();
    expect(r('2024-05-01').relative).toBeUndefined();
  });

  it('is case-insensitive for keywords', () => {
    expect(bounds('Past30Days')).toEqual(bounds('past30days'));
    expect(bounds('TODAY')).toEqual(bounds('today'));
    expect(bounds('q2-2024')).toEqual(bounds('Q2-2024'));
  });

  it('honours the start of the week', () => {
    expect(bounds('thisweek', { ...utc, startOfWeek: 'monday' })).toEqual(['2024-05-13', '2024-05-20', 'week']);
    expect(bounds('lastweek', { ...utc, startOfWeek: 'monday' })).toEqual(['2024-05-06', '2024-05-13', 'week']);
    expect(bounds('thisweek', { ...utc, startOfWeek: 'wednesday' })).toEqual(['2024-05-15', '2024-05-22', 'week']);
    expect(bounds('thisweek', { ...utc, startOfWeek: 'thursday' })).toEqual(['2024-05-09', '2024-05-16', 'week']);
  });

  it('handles month ends', () => {
    const opts = { now: new Date('2024-03-31T12:00:00Z'), timezone: 'UTC' };
    expect(bounds('lastmonth', opts)).toEqual(['2024-02-01', '2024-03-01', 'month']);
    expect(bounds('past1months', opts)).toEqual(['2024-02-01', '2024-03-01', 'month']);
    expect(bounds('nextmonth', opts)).toEqual(['2024-04-01', '2024-05-01', 'month']);
    expect(bounds('past3months', opts)).toEqual(['2023-12-01', '2024-03-01', 'month']);
    expect(bounds('today', opts)).toEqual(['2024-03-31', '2024-04-01', 'day']);
    expect(bounds('past31days~', opts)).toEqual(['2024-02-29', '2024-04-01', 'day']);
    const jan31 = { now: new Date('2023-01-31T00:00:00Z'), timezone: 'UTC' };
    expect(bounds('nextmonth', jan31)).toEqual(['2023-02-01', '2023-03-01', 'month']);
    expect(bounds('next30days', jan31)).toEqual(['2023-02-01', '2023-03-03', 'day']);
  });

  it('handles leap years', () => {
    const leap = { now: new Date('2024-02-29T12:00:00Z'), timezone: 'UTC' };
    expect(bounds('today', leap)).toEqual(['2024-02-29', '2024-03-01', 'day']);
    expect(bounds('yesterday', leap)).toEqual(['2024-02-28', '2024-02-29', 'day']);
    expect(bounds('past1years', leap)).toEqual(['2023-01-01', '2024-01-01', 'year']);
    expect(bounds('past365days', leap)).toEqual(['2023-03-01', '2024-02-29', 'day']);
    expect(bounds('past1days-from-1years', leap)).toEqual(['2023-02-28', '2023-03-01', 'day']);
    const mar1 = { now: new Date('2024-03-01T06:00:00Z'), timezone: 'UTC' };
    expect(bounds('yesterday', mar1)).toEqual(['2024-02-29', '2024-03-01', 'day']);
    const mar1NonLeap = { now: new Date('2023-03-01T06:00:00Z'), timezone: 'UTC' };
    expect(bounds('yesterday', mar1NonLeap)).toEqual(['2023-02-28', '2023-03-01', 'day']);
  });

  it('handles quarters and years at their boundaries', () => {
    const jan = { now: new Date('2024-01-01T00:00:00Z'), timezone: 'UTC' };
    expect(bounds('lastquarter', jan)).toEqual(['2023-10-01', '2024-01-01', 'quarter']);
    expect(bounds('thisquarter', jan)).toEqual(['2024-01-01', '2024-04-01', 'quarter']);
    expect(bounds('yesterday', jan)).toEqual(['2023-12-31', '2024-01-01', 'day']);
    expect(bounds('past1weeks', jan)).toEqual(['2023-12-24', '2023-12-31', 'week']);
    const dec = { now: new Date('2024-12-31T23:59:59Z'), timezone: 'UTC' };
    expect(bounds('nextquarter', dec)).toEqual(['2025-01-01', '2025-04-01', 'quarter']);
    expect(bounds('thisquarter', dec)).toEqual(['2024-10-01', '2025-01-01', 'quarter']);
    expect(bounds('next2quarters~', dec)).toEqual(['2024-10-01', '2025-07-01', 'quarter']);
  });
});

describe('time zones', () => {
  const ny = (iso: string): DateParamOptions => ({ now: new Date(iso), timezone: 'America/New_York' });

  it('takes today from the wall clock of the zone', () => {
    // 03:30 UTC on 10 March is still 9 March in New York.
    expect(bounds('today', ny('2024-03-10T03:30:00Z'))).toEqual(['2024-03-09', '2024-03-10', 'day']);
    expect(bounds('today', { now: new Date('2024-03-10T03:30:00Z'), timezone: 'UTC' })).toEqual(['2024-03-10', '2024-03-11', 'day']);
    expect(bounds('today', { now: new Date('2024-05-15T20:00:00Z'), timezone: 'Asia/Tokyo' })).toEqual(['2024-05-16', '2024-05-17', 'day']);
  });

  it('spring forward: the day has 23 hours', () => {
    const today = r('today', ny('2024-03-10T16:00:00Z'));
    expect(today).toMatchObject({
      start: '2024-03-10',
      end: '2024-03-11',
      startInstant: '2024-03-10T05:00:00Z',
      endInstant: '2024-03-11T04:00:00Z',
    });
    const yesterday = r('yesterday', ny('2024-03-10T16:00:00Z'));
    expect(yesterday).toMatchObject({ start: '2024-03-09', startInstant: '2024-03-09T05:00:00Z', endInstant: '2024-03-10T05:00:00Z' });
    const month = r('thismonth', ny('2024-03-10T16:00:00Z'));
    expect(month).toMatchObject({ startInstant: '2024-03-01T05:00:00Z', endInstant: '2024-04-01T04:00:00Z' });
  });

  it('fall back: the day has 25 hours', () => {
    const today = r('today', ny('2024-11-03T15:00:00Z'));
    expect(today).toMatchObject({
      start: '2024-11-03',
      end: '2024-11-04',
      startInstant: '2024-11-03T04:00:00Z',
      endInstant: '2024-11-04T05:00:00Z',
    });
  });

  it('counts hours as elapsed time across the change', () => {
    // 04:15 EDT; the two whole hours before 04:00 EDT start at 01:00 EST (02:00 does not exist that day).
    const x = r('past2hours', ny('2024-03-10T08:15:00Z'));
    expect(x).toMatchObject({
      start: '2024-03-10T01:00:00',
      end: '2024-03-10T04:00:00',
      startInstant: '2024-03-10T06:00:00Z',
      endInstant: '2024-03-10T08:00:00Z',
    });
    // A minute inside the skipped hour resolves to the instant after the gap.
    expect(r('2024-03-10T02:30', ny('2024-03-10T08:15:00Z')).startInstant).toBe('2024-03-10T07:30:00Z');
    // The repeated hour: the first (EDT) occurrence.
    expect(r('2024-11-03T01:30', ny('2024-11-03T08:15:00Z')).startInstant).toBe('2024-11-03T05:30:00Z');
  });

  it('rejects unknown zones', () => {
    expect(() => parseDateParam('today', { now: NOW, timezone: 'Mars/Olympus' })).toThrow(ParameterError);
  });
});

describe('exclusions', () => {
  it.each([
    ['exclude-days-Mon-Tue', 'day-of-week', [2, 3]],
    ['exclude-days-Sun-Sat', 'day-of-week', [1, 7]],
    ['exclude-months-Jan', 'month-of-year', [1]],
    ['exclude-months-Feb-Dec', 'month-of-year', [2, 12]],
    ['exclude-quarters-1', 'quarter-of-year', [1]],
    ['exclude-quarters-2-4', 'quarter-of-year', [2, 4]],
    ['exclude-hours-0-23', 'hour-of-day', [0, 23]],
    ['exclude-hours-5', 'hour-of-day', [5]],
  ])('%s', (value, unit, values) => {
    expect(parseDateParam(value, utc)).toEqual({ kind: 'exclude', unit, values });
  });

  it('numbers days of the week from the start of the week', () => {
    expect(parseDateParam('exclude-days-Mon-Sun', { ...utc, startOfWeek: 'monday' })).toEqual({
      kind: 'exclude',
      unit: 'day-of-week',
      values: [1, 7],
    });
  });
});

describe('invalid date parameters', () => {
  it('names the value', () => {
    expect(() => parseDateParam('Q5-2024', utc)).toThrow(new ParameterError('"Q5-2024" is not a valid date parameter'));
    expect(() => parseDateParam('Q5-2024', utc)).toThrow(ParameterError);
  });

  it.each([
    '',
    '  ',
    'foo',
    '2024-5-1',
    '2024-02-30',
    '2023-02-29',
    '2024-13',
    '2024-00',
    '2024-05-32',
    '2024-05-01T25:00',
    '2024-05-01T10:60',
    'Q0-2024',
    'Q1-24',
    '~',
    '2024-05-01~2024-05-02~',
    '2024-05~2024-06',
    'past0days',
    'pastdays',
    'past3fortnights',
    'thisfortnight',
    'exclude-days-Foo',
    'exclude-hours-24',
    'exclude-quarters-5',
    'exclude-months-',
    'exclude-weeks-1',
    '2024-05-01T10:30:00Z',
    'today~',
    'past30days~~',
    'next-3days',
  ])('%j', (value) => {
    expect(() => parseDateParam(value, utc)).toThrow(ParameterError);
  });

  it('rejects non-strings', () => {
    for (const v of [null, 12, {}, ['2024-05-01']]) expect(() => parseDateParam(v, utc)).toThrow(ParameterError);
  });
});

describe('calendar edge cases', () => {
  it('does not treat years below 100 as 19xx', () => {
    expect(bounds('0099-12-31')).toEqual(['0099-12-31', '0100-01-01', 'day']);
    expect(bounds('0001-01')).toEqual(['0001-01-01', '0001-02-01', 'month']);
  });

  it('knows century leap years', () => {
    expect(bounds('2000-02-29')).toEqual(['2000-02-29', '2000-03-01', 'day']);
    expect(() => parseDateParam('1900-02-29', utc)).toThrow(ParameterError);
    expect(() => parseDateParam('2100-02-29', utc)).toThrow(ParameterError);
  });
});
