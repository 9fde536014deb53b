import { wallFromDate, wallText } from '../../../src/query-engine/compile/temporal';
import type { QueryCase } from './types';
import { O, ORDERS } from './types';
import { bucket } from './temporal';

const NY = 'America/New_York';
/** A naive UTC timestamp as wall-clock time in New York, ISO. */
const inZone = (ts: unknown, zone: string) => wallText(wallFromDate(new Date(`${ts}Z`), zone)).replace(' ', 'T');
const ny = (ts: unknown) => inZone(ts, NY);

function grouped(keys: unknown[]): unknown[][] {
  const m = new Map<unknown, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1));
}

/**
 * Report time zones: every engine converts to the zone before bucketing and in date filters (MySQL/MariaDB only
 * with the server's time zone tables; without them the query fails clearly, see query-cases.spec.ts).
 */
export const TIMEZONE_CASES: QueryCase[] = [
  {
    name: 'time zone: breakout by day in New York',
    timezone: NY,
    query: {
      'source-table': ORDERS,
      breakout: [O('CREATED_AT', { 'temporal-unit': 'day' })],
      aggregation: [['count']],
      filter: ['<', O('ID'), 100],
    },
    expectedFrom: (d) => grouped(d.orders.filter((o) => (o[0] as number) < 100).map((o) => bucket(ny(o[7]), 'day'))),
  },
  {
    name: 'time zone: breakout by hour-of-day in New York',
    timezone: NY,
    query: { 'source-table': ORDERS, breakout: [O('CREATED_AT', { 'temporal-unit': 'hour-of-day' })], aggregation: [['count']] },
    expectedFrom: (d) => grouped(d.orders.map((o) => bucket(ny(o[7]), 'hour-of-day'))),
  },
  {
    name: 'time zone: filter = a New York day',
    timezone: NY,
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['=', O('CREATED_AT'), '2024-03-05'] },
    expectedFrom: (d) => [[d.orders.filter((o) => ny(o[7]).startsWith('2024-03-05')).length]],
  },
  {
    name: 'time zone: cum-count by month in New York',
    timezone: NY,
    query: {
      'source-table': ORDERS,
      breakout: [O('CREATED_AT', { 'temporal-unit': 'month' })],
      aggregation: [['cum-count']],
      'order-by': [['asc', O('CREATED_AT')]],
    },
    check: (rows) => expect(rows[rows.length - 1][1]).toBe(500),
  },
  {
    name: 'time zone: time-interval this month in New York',
    timezone: NY,
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['time-interval', O('CREATED_AT'), 'current', 'month'] },
    expectedFrom: (d) => [[d.orders.filter((o) => ny(o[7]).startsWith('2025-06')).length]],
  },
  {
    name: 'time zone: breakout by day-of-week in a half-hour zone',
    timezone: 'Asia/Kolkata',
    query: { 'source-table': ORDERS, breakout: [O('CREATED_AT', { 'temporal-unit': 'day-of-week' })], aggregation: [['count']] },
    expectedFrom: (d) => grouped(d.orders.map((o) => bucket(inZone(o[7], 'Asia/Kolkata'), 'day-of-week'))),
  },
  {
    name: 'time zone: relative dates from the wall clock of the zone',
    timezone: 'Pacific/Kiritimati',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['time-interval', O('CREATED_AT'), 'current', 'day'] },
    expectedFrom: (d) => [[d.orders.filter((o) => inZone(o[7], 'Pacific/Kiritimati').startsWith('2025-06-16')).length]],
  },
];
