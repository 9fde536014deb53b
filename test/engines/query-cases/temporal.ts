import type { TemporalUnit } from '../../../src/query-engine/mbql/types';
import type { QueryCase } from './types';
import { O, ORDERS, PEOPLE, U } from './types';

type Row = unknown[];
const ms = (ts: unknown) => Date.parse(`${String(ts).length === 10 ? `${ts}T00:00:00` : ts}Z`);
const iso = (t: number) => new Date(t).toISOString().slice(0, 19);
const DAY = 86_400_000;

/** JS versions of the buckets, on 'YYYY-MM-DDTHH:MM:SS' (UTC) strings. */
export function bucket(ts: unknown, unit: TemporalUnit): unknown {
  const s = String(ts);
  const t = ms(s);
  const d = new Date(t);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (unit) {
    case 'minute':
      return `${s.slice(0, 16)}:00`;
    case 'hour':
      return `${s.slice(0, 13)}:00:00`;
    case 'day':
      return `${s.slice(0, 10)}T00:00:00`;
    case 'week':
      return iso(Date.UTC(y, m, d.getUTCDate()) - d.getUTCDay() * DAY);
    case 'month':
      return iso(Date.UTC(y, m, 1));
    case 'quarter':
      return iso(Date.UTC(y, Math.floor(m / 3) * 3, 1));
    case 'year':
      return iso(Date.UTC(y, 0, 1));
    case 'minute-of-hour':
      return d.getUTCMinutes();
    case 'hour-of-day':
      return d.getUTCHours();
    case 'day-of-week':
      return d.getUTCDay() + 1;
    case 'day-of-month':
      return d.getUTCDate();
    case 'day-of-year':
      return Math.round((Date.UTC(y, m, d.getUTCDate()) - Date.UTC(y, 0, 1)) / DAY) + 1;
    case 'week-of-year': {
      const jan1 = new Date(Date.UTC(y, 0, 1)).getUTCDay();
      const doy = Math.round((Date.UTC(y, m, d.getUTCDate()) - Date.UTC(y, 0, 1)) / DAY) + 1;
      return Math.floor((doy - 1 + jan1) / 7) + 1;
    }
    case 'month-of-year':
      return m + 1;
    case 'quarter-of-year':
      return Math.floor(m / 3) + 1;
    default:
      return ts;
  }
}

function grouped(rows: Row[], f: (r: Row) => unknown): Row[] {
  const counts = new Map<string, [unknown, number]>();
  for (const r of rows) {
    const k = f(r);
    const key = JSON.stringify(k);
    counts.set(key, [k, (counts.get(key)?.[1] ?? 0) + 1]);
  }
  const cmp = (a: unknown, b: unknown): number => {
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < a.length; i++) if (cmp(a[i], b[i])) return cmp(a[i], b[i]);
      return 0;
    }
    return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
  };
  return [...counts.values()].sort((a, b) => cmp(a[0], b[0]));
}

const UNITS: TemporalUnit[] = [
  'minute',
  'hour',
  'day',
  'week',
  'month',
  'quarter',
  'year',
  'minute-of-hour',
  'hour-of-day',
  'day-of-week',
  'day-of-month',
  'day-of-year',
  'week-of-year',
  'month-of-year',
  'quarter-of-year',
];

const byUnit: QueryCase[] = UNITS.map((unit) => ({
  name: `breakout on a timestamp by ${unit}`,
  query: {
    'source-table': ORDERS,
    breakout: [O('CREATED_AT', { 'temporal-unit': unit })],
    aggregation: [['count']],
    ...(unit === 'minute' || unit === 'hour' ? { filter: ['<', O('ID'), 40] } : {}),
  },
  expectedFrom: (d) =>
    grouped(unit === 'minute' || unit === 'hour' ? d.orders.filter((r) => (r[0] as number) < 40) : d.orders, (r) => bucket(r[7], unit)),
}));

const dateUnits: TemporalUnit[] = ['day', 'week', 'month', 'quarter', 'year', 'day-of-week', 'month-of-year', 'week-of-year'];
const byDateUnit: QueryCase[] = dateUnits.map((unit) => ({
  name: `breakout on a date by ${unit}`,
  query: {
    'source-table': PEOPLE,
    breakout: [U('BIRTH_DATE', { 'temporal-unit': unit })],
    aggregation: [['count']],
    filter: ['<', U('ID'), 80],
  },
  expectedFrom: (d) =>
    grouped(
      d.people.filter((r) => (r[0] as number) < 80),
      (r) => {
        const b = bucket(`${r[9]}T00:00:00`, unit);
        return typeof b === 'string' ? b.slice(0, 10) : b;
      },
    ),
}));

const inRange = (ts: unknown, from: string, to: string) => String(ts) >= from && String(ts) < to;
const count = (rows: Row[], pred: (r: Row) => boolean) => [[rows.filter(pred).length]];

/** CASE_OPTIONS.now is 2025-06-15T12:34:56Z. */
export const TEMPORAL_CASES: QueryCase[] = [
  ...byUnit,
  ...byDateUnit,
  {
    name: 'breakout by month and year with two columns',
    query: {
      'source-table': ORDERS,
      breakout: [O('CREATED_AT', { 'temporal-unit': 'year' }), O('CREATED_AT', { 'temporal-unit': 'month-of-year' })],
      aggregation: [['count']],
    },
    expectedFrom: (d) =>
      grouped(d.orders, (r) => [bucket(r[7], 'year'), bucket(r[7], 'month-of-year')]).map(([k, n]) => [...(k as unknown[]), n]),
    columns: ['CREATED_AT', 'CREATED_AT_2', 'count'],
  },
  {
    name: 'filter = a day',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['=', O('CREATED_AT'), '2024-03-05'] },
    expectedFrom: (d) => count(d.orders, (r) => String(r[7]).startsWith('2024-03-05')),
  },
  {
    name: 'filter = a month by temporal unit',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['=', O('CREATED_AT', { 'temporal-unit': 'month' }), '2024-03-01'] },
    expectedFrom: (d) => count(d.orders, (r) => String(r[7]).startsWith('2024-03')),
  },
  {
    name: 'filter != a year',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['!=', O('CREATED_AT', { 'temporal-unit': 'year' }), '2024-01-01'] },
    expectedFrom: (d) => count(d.orders, (r) => !String(r[7]).startsWith('2024')),
  },
  {
    name: 'filter between dates is inclusive of the last day',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['between', O('CREATED_AT'), '2024-01-01', '2024-06-30'] },
    expectedFrom: (d) => count(d.orders, (r) => inRange(r[7], '2024-01-01', '2024-07-01')),
  },
  {
    name: 'filter between timestamps',
    query: {
      'source-table': ORDERS,
      aggregation: [['count']],
      filter: ['between', O('CREATED_AT'), '2024-01-01T06:00:00', '2024-06-30T18:00:00'],
    },
    expectedFrom: (d) => count(d.orders, (r) => String(r[7]) >= '2024-01-01T06:00:00' && String(r[7]) <= '2024-06-30T18:00:00'),
  },
  {
    name: 'filter < a date',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['<', O('CREATED_AT'), '2023-01-01'] },
    expectedFrom: (d) => count(d.orders, (r) => String(r[7]) < '2023-01-01'),
  },
  {
    name: 'filter > a date means after that day',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['>', O('CREATED_AT'), '2025-12-31'] },
    expectedFrom: (d) => count(d.orders, (r) => String(r[7]) >= '2026-01-01'),
  },
  {
    name: 'filter >= a timestamp',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['>=', O('CREATED_AT'), '2025-12-31T12:00:00'] },
    expectedFrom: (d) => count(d.orders, (r) => String(r[7]) >= '2025-12-31T12:00:00'),
  },
  {
    name: 'filter on a date column',
    query: { 'source-table': PEOPLE, aggregation: [['count']], filter: ['<', U('BIRTH_DATE'), '1970-01-01'] },
    expectedFrom: (d) => count(d.people, (r) => String(r[9]) < '1970-01-01'),
  },
  {
    name: 'filter between on a date column',
    query: { 'source-table': PEOPLE, aggregation: [['count']], filter: ['between', U('BIRTH_DATE'), '1980-01-01', '1989-12-31'] },
    expectedFrom: (d) => count(d.people, (r) => String(r[9]) >= '1980-01-01' && String(r[9]) <= '1989-12-31'),
  },
  {
    name: 'filter on an extracted unit',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['=', O('CREATED_AT', { 'temporal-unit': 'day-of-week' }), 1] },
    expectedFrom: (d) => count(d.orders, (r) => bucket(r[7], 'day-of-week') === 1),
  },
  {
    name: 'time-interval last 30 days',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['time-interval', O('CREATED_AT'), -30, 'day'] },
    expectedFrom: (d) => count(d.orders, (r) => inRange(r[7], '2025-05-16', '2025-06-15')),
  },
  {
    name: 'time-interval last 30 days including today',
    query: {
      'source-table': ORDERS,
      aggregation: [['count']],
      filter: ['time-interval', O('CREATED_AT'), -30, 'day', { 'include-current': true }],
    },
    expectedFrom: (d) => count(d.orders, (r) => inRange(r[7], '2025-05-16', '2025-06-16')),
  },
  {
    name: 'time-interval current month',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['time-interval', O('CREATED_AT'), 'current', 'month'] },
    expectedFrom: (d) => count(d.orders, (r) => inRange(r[7], '2025-06-01', '2025-07-01')),
  },
  {
    name: 'time-interval last year',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['time-interval', O('CREATED_AT'), 'last', 'year'] },
    expectedFrom: (d) => count(d.orders, (r) => inRange(r[7], '2024-01-01', '2025-01-01')),
  },
  {
    name: 'time-interval next 3 months',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['time-interval', O('CREATED_AT'), 3, 'month'] },
    expectedFrom: (d) => count(d.orders, (r) => inRange(r[7], '2025-07-01', '2025-10-01')),
  },
  {
    name: 'time-interval last 2 weeks',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['time-interval', O('CREATED_AT'), -2, 'week'] },
    expectedFrom: (d) => count(d.orders, (r) => inRange(r[7], '2025-05-25', '2025-06-08')),
  },
  {
    name: 'time-interval last quarter',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['time-interval', O('CREATED_AT'), 'last', 'quarter'] },
    expectedFrom: (d) => count(d.orders, (r) => inRange(r[7], '2025-01-01', '2025-04-01')),
  },
  {
    name: 'time-interval on a date column',
    query: { 'source-table': PEOPLE, aggregation: [['count']], filter: ['time-interval', U('CREATED_AT'), -12, 'month'] },
    expectedFrom: (d) => count(d.people, (r) => inRange(r[12], '2024-06-01', '2025-06-01')),
  },
  {
    name: 'order by a bucketed breakout descending',
    query: {
      'source-table': ORDERS,
      breakout: [O('CREATED_AT', { 'temporal-unit': 'year' })],
      aggregation: [['count']],
      'order-by': [['desc', O('CREATED_AT', { 'temporal-unit': 'year' })]],
    },
    expectedFrom: (d) => grouped(d.orders, (r) => bucket(r[7], 'year')).reverse(),
  },
  {
    name: 'fields with a temporal unit',
    query: {
      'source-table': ORDERS,
      fields: [O('ID'), O('CREATED_AT', { 'temporal-unit': 'month' })],
      'order-by': [['asc', O('ID')]],
      limit: 5,
    },
    expectedFrom: (d) => d.orders.slice(0, 5).map((r) => [r[0], bucket(r[7], 'month')]),
  },
];
