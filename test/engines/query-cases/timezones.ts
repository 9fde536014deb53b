import { wallFromDate, wallText } from '../../../src/query-engine/compile/temporal';
import type { QueryCase } from './types';
import { O, ORDERS } from './types';
import { bucket } from './temporal';

const NY = 'America/New_York';
/** A naive UTC timestamp as wall-clock time in New York, ISO. */
const ny = (ts: unknown) => wallText(wallFromDate(new Date(`${ts}Z`), NY)).replace(' ', 'T');

function grouped(keys: unknown[]): unknown[][] {
  const m = new Map<unknown, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1));
}

/** Report time zones: Postgres and DuckDB convert before bucketing; MySQL and SQLite bucket in UTC (documented). */
export const TIMEZONE_CASES: QueryCase[] = [
  {
    name: 'time zone: breakout by day in New York',
    timezone: NY,
    engines: ['postgres', 'duckdb'],
    query: { 'source-table': ORDERS, breakout: [O('CREATED_AT', { 'temporal-unit': 'day' })], aggregation: [['count']], filter: ['<', O('ID'), 100] },
    expectedFrom: (d) => grouped(d.orders.filter((o) => (o[0] as number) < 100).map((o) => bucket(ny(o[7]), 'day'))),
  },
  {
    name: 'time zone: breakout by hour-of-day in New York',
    timezone: NY,
    engines: ['postgres', 'duckdb'],
    query: { 'source-table': ORDERS, breakout: [O('CREATED_AT', { 'temporal-unit': 'hour-of-day' })], aggregation: [['count']] },
    expectedFrom: (d) => grouped(d.orders.map((o) => bucket(ny(o[7]), 'hour-of-day'))),
  },
  {
    name: 'time zone: filter = a New York day',
    timezone: NY,
    engines: ['postgres', 'duckdb'],
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['=', O('CREATED_AT'), '2024-03-05'] },
    expectedFrom: (d) => [[d.orders.filter((o) => ny(o[7]).startsWith('2024-03-05')).length]],
  },
  {
    name: 'time zone: cum-count by month in New York',
    timezone: NY,
    engines: ['postgres', 'duckdb'],
    query: { 'source-table': ORDERS, breakout: [O('CREATED_AT', { 'temporal-unit': 'month' })], aggregation: [['cum-count']], 'order-by': [['asc', O('CREATED_AT')]] },
    check: (rows) => expect(rows[rows.length - 1][1]).toBe(500),
  },
  {
    name: 'time zone: time-interval this month in New York',
    timezone: NY,
    engines: ['postgres', 'duckdb'],
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['time-interval', O('CREATED_AT'), 'current', 'month'] },
    expectedFrom: (d) => [[d.orders.filter((o) => ny(o[7]).startsWith('2025-06')).length]],
  },
  {
    name: 'time zone: MySQL and SQLite bucket in UTC',
    timezone: NY,
    engines: ['mysql', 'sqlite'],
    query: { 'source-table': ORDERS, breakout: [O('CREATED_AT', { 'temporal-unit': 'hour-of-day' })], aggregation: [['count']] },
    expectedFrom: (d) => grouped(d.orders.map((o) => bucket(o[7], 'hour-of-day'))),
  },
  {
    name: 'time zone: MySQL and SQLite compute relative dates in UTC',
    timezone: 'Pacific/Kiritimati',
    engines: ['mysql', 'sqlite'],
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['time-interval', O('CREATED_AT'), 'current', 'day'] },
    expectedFrom: (d) => [[d.orders.filter((o) => String(o[7]).startsWith('2025-06-15')).length]],
  },
];
