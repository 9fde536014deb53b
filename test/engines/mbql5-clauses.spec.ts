import { sampleWarehouses, type SampleWarehouse } from './query-cases/warehouses';
import type { CompileOptions } from '../../src/query-engine/compile/contract';
import { normalizeDatasetQuery } from '../../src/query-engine/mbql/normalize';
import type { InnerQuery } from '../../src/query-engine/mbql/types';
import { availableEngines } from '../support/warehouses';
import { fieldId } from './query-cases/metadata';
import { O, ORDERS, P, PEOPLE, PRODUCTS, U } from './query-cases/types';

/**
 * MBQL 5 clauses that Metabase's current clients send and the server rewrites into legacy ones
 * (src/query-engine/mbql/mbql5.ts): each case is written by hand in both forms, and the MBQL 5 one must give the
 * legacy twin's rows on every engine, over the query cases' Sample Database and clock.
 */
const ORDER_COUNT = 500;
/** The query cases' clock and zone (query-cases.spec.ts). */
const OPTIONS: CompileOptions = { timezone: null, now: new Date('2025-06-15T12:34:56Z') };
const normalizeValue = (v: unknown) => (typeof v === 'bigint' ? Number(v) : Object.is(v, -0) ? 0 : v);

let n = 0;
const o = (extra: object = {}) => ({ 'lib/uuid': `00000000-0000-4000-9000-${String(++n).padStart(12, '0')}`, ...extra });
/** An MBQL 5 field ref as the frontend sends it: types and a uuid in its options. */
const f5 = (table: string, column: string, extra: object = {}) => [
  'field',
  o({ 'base-type': 'type/DateTime', 'effective-type': 'type/DateTime', ...extra }),
  fieldId(table, column),
];
const count = () => ['count', o()];
const rel = (n: number, unit: string) => ['relative-datetime', o(), n, unit];

interface Twin {
  name: string;
  legacy: InnerQuery;
  mbql5: Record<string, unknown>;
  /** The legacy rows hold a count that must be neither 0 nor everything (the filter really selects). */
  selective?: number;
}

const counted = (name: string, table: number, total: number, legacyFilter: unknown, filter5: unknown): Twin => ({
  name,
  legacy: { 'source-table': table, aggregation: [['count']], filter: legacyFilter } as InnerQuery,
  mbql5: { 'source-table': table, aggregation: [count()], filters: [filter5] },
  selective: total,
});

const extract = (unit: string, fn: string): Twin => ({
  name: `temporal-extract ${unit} (${fn})`,
  legacy: {
    'source-table': ORDERS,
    expressions: { x: [fn, O('CREATED_AT')] },
    aggregation: [['count']],
    breakout: [['expression', 'x']],
  } as InnerQuery,
  mbql5: {
    'source-table': ORDERS,
    expressions: [['temporal-extract', o({ 'lib/expression-name': 'x' }), f5('ORDERS', 'CREATED_AT'), unit]],
    aggregation: [count()],
    breakout: [['expression', o({ 'base-type': 'type/Integer' }), 'x']],
  },
});

const TWINS: Twin[] = [
  counted(
    'in with numbers',
    ORDERS,
    ORDER_COUNT,
    ['=', O('PRODUCT_ID'), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    ['in', o(), f5('ORDERS', 'PRODUCT_ID', { 'base-type': 'type/Integer' }), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  ),
  counted(
    'not-in with numbers',
    ORDERS,
    ORDER_COUNT,
    ['!=', O('PRODUCT_ID'), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    ['not-in', o(), f5('ORDERS', 'PRODUCT_ID', { 'base-type': 'type/Integer' }), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  ),
  counted(
    'not-in with NULL among the values',
    ORDERS,
    ORDER_COUNT,
    ['!=', O('DISCOUNT'), null],
    ['not-in', o(), f5('ORDERS', 'DISCOUNT', { 'base-type': 'type/Float' }), null],
  ),
  {
    name: 'in with strings, grouped',
    legacy: {
      'source-table': PRODUCTS,
      aggregation: [['count']],
      breakout: [P('CATEGORY')],
      filter: ['=', P('CATEGORY'), 'Gizmo', 'Widget'],
    } as InnerQuery,
    mbql5: {
      'source-table': PRODUCTS,
      aggregation: [count()],
      breakout: [f5('PRODUCTS', 'CATEGORY', { 'base-type': 'type/Text' })],
      filters: [['in', o(), f5('PRODUCTS', 'CATEGORY', { 'base-type': 'type/Text' }), 'Gizmo', 'Widget']],
    },
  },
  extract('year-of-era', 'get-year'),
  extract('quarter-of-year', 'get-quarter'),
  extract('month-of-year', 'get-month'),
  extract('day-of-month', 'get-day'),
  extract('day-of-week', 'get-day-of-week'),
  extract('hour-of-day', 'get-hour'),
  extract('minute-of-hour', 'get-minute'),
  extract('second-of-minute', 'get-second'),
  counted(
    'during a month',
    ORDERS,
    ORDER_COUNT,
    ['=', O('CREATED_AT', { 'temporal-unit': 'month' }), '2024-03-01'],
    ['during', o(), f5('ORDERS', 'CREATED_AT'), '2024-03-14', 'month'],
  ),
  counted(
    'during a year, on a date column',
    PEOPLE,
    Number.MAX_SAFE_INTEGER,
    ['between', U('BIRTH_DATE'), '1990-01-01', '1990-12-31'],
    ['during', o(), f5('PEOPLE', 'BIRTH_DATE', { 'base-type': 'type/Date' }), '1990-06-30', 'year'],
  ),
  counted(
    'during a year, the column sent bucketed by month',
    ORDERS,
    ORDER_COUNT,
    ['=', O('CREATED_AT', { 'temporal-unit': 'year' }), '2024-01-01'],
    ['during', o(), f5('ORDERS', 'CREATED_AT', { 'temporal-unit': 'month' }), '2024-08-09T10:11:12', 'year'],
  ),
  counted(
    'relative-time-interval last 90 days',
    ORDERS,
    ORDER_COUNT,
    ['time-interval', O('CREATED_AT'), -90, 'day'],
    ['relative-time-interval', o(), f5('ORDERS', 'CREATED_AT'), -90, 'day', 0, 'day'],
  ),
  counted(
    'relative-time-interval last 2 quarters, column bucketed',
    ORDERS,
    ORDER_COUNT,
    ['time-interval', O('CREATED_AT'), -2, 'quarter'],
    ['relative-time-interval', o(), f5('ORDERS', 'CREATED_AT', { 'temporal-unit': 'day' }), -2, 'quarter', 0, 'month'],
  ),
  {
    name: 'relative-time-interval next 3 months',
    legacy: { 'source-table': ORDERS, aggregation: [['count']], filter: ['time-interval', O('CREATED_AT'), 3, 'month'] } as InnerQuery,
    mbql5: {
      'source-table': ORDERS,
      aggregation: [count()],
      filters: [['relative-time-interval', o(), f5('ORDERS', 'CREATED_AT'), 3, 'month', 0, 'month']],
    },
  },
  // relative-datetime against a column bucketed by its unit, as Metabase desugars time-interval; the clock is 2025-06-15.
  counted(
    'relative-datetime between -90 and -1 days',
    ORDERS,
    ORDER_COUNT,
    ['time-interval', O('CREATED_AT'), -90, 'day'],
    ['between', o(), f5('ORDERS', 'CREATED_AT', { 'temporal-unit': 'day' }), rel(-90, 'day'), rel(-1, 'day')],
  ),
  counted(
    'relative-datetime = two months ago',
    ORDERS,
    ORDER_COUNT,
    ['=', O('CREATED_AT', { 'temporal-unit': 'month' }), '2025-04-01'],
    ['=', o(), f5('ORDERS', 'CREATED_AT', { 'temporal-unit': 'month' }), rel(-2, 'month')],
  ),
  counted(
    'relative-datetime between -3 and 0 weeks',
    ORDERS,
    ORDER_COUNT,
    ['time-interval', O('CREATED_AT'), -3, 'week', { 'include-current': true }],
    ['between', o(), f5('ORDERS', 'CREATED_AT', { 'temporal-unit': 'week' }), rel(-3, 'week'), rel(0, 'week')],
  ),
  counted(
    'relative-datetime between -6 and -3 months',
    ORDERS,
    ORDER_COUNT,
    ['between', O('CREATED_AT', { 'temporal-unit': 'month' }), '2024-12-01', '2025-03-01'],
    ['between', o(), f5('ORDERS', 'CREATED_AT', { 'temporal-unit': 'month' }), rel(-6, 'month'), rel(-3, 'month')],
  ),
  counted(
    'relative-datetime != the current year',
    ORDERS,
    ORDER_COUNT,
    ['!=', O('CREATED_AT', { 'temporal-unit': 'year' }), '2025-01-01'],
    ['!=', o(), f5('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' }), ['relative-datetime', o(), 'current']],
  ),
  // absolute-datetime: the instant of its value truncated to its unit.
  counted(
    'absolute-datetime > a month (strictly after its first instant)',
    ORDERS,
    ORDER_COUNT,
    ['>=', O('CREATED_AT', { 'temporal-unit': 'month' }), '2024-03-01'],
    ['>', o(), f5('ORDERS', 'CREATED_AT'), ['absolute-datetime', o(), '2024-03-14T10:11:12', 'month']],
  ),
  counted(
    'absolute-datetime = a day, on the column bucketed by day',
    ORDERS,
    ORDER_COUNT,
    ['=', O('CREATED_AT', { 'temporal-unit': 'day' }), '2024-03-14'],
    ['=', o(), f5('ORDERS', 'CREATED_AT', { 'temporal-unit': 'day' }), ['absolute-datetime', o(), '2024-03-14T18:00:00', 'day']],
  ),
  counted(
    'absolute-datetime between two days, on a date column',
    PEOPLE,
    Number.MAX_SAFE_INTEGER,
    ['between', U('BIRTH_DATE'), '1990-01-01', '1990-12-31'],
    [
      'between',
      o(),
      f5('PEOPLE', 'BIRTH_DATE', { 'base-type': 'type/Date' }),
      ['absolute-datetime', o(), '1990-01-01', 'default'],
      ['absolute-datetime', o(), '1990-12-31', 'day'],
    ],
  ),
];

type Warehouse = SampleWarehouse;

const engines = availableEngines();

describe('MBQL 5 clauses rewritten into legacy ones give the legacy rows on every engine', () => {
  const warehouses: Warehouse[] = [];

  beforeAll(async () => {
    warehouses.push(...(await sampleWarehouses(engines, ORDER_COUNT)));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(warehouses.map((w) => w.wh.drop()));
  });

  async function rows(w: Warehouse, query: InnerQuery): Promise<unknown[][]> {
    const compiled = w.compiler.compile(query, w.meta, OPTIONS);
    const result = await w.driver.query(compiled.sql, compiled.params);
    const normalized = result.rows.map((r) => r.map(normalizeValue));
    return normalized.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }

  it.each(TWINS.map((t) => [t.name, t] as const))('%s', async (_name, t) => {
    const sent = { 'lib/type': 'mbql/query', database: 1, stages: [{ 'lib/type': 'mbql.stage/mbql', ...t.mbql5 }] };
    const converted = normalizeDatasetQuery(sent).query!;
    for (const w of warehouses) {
      const legacy = await rows(w, t.legacy);
      expect({ engine: w.engine, rows: await rows(w, converted) }).toEqual({ engine: w.engine, rows: legacy });
      if (t.selective !== undefined) {
        const [[c]] = legacy as number[][];
        expect({ engine: w.engine, selective: c > 0 && c < t.selective }).toEqual({ engine: w.engine, selective: true });
      } else {
        expect(legacy.length).toBeGreaterThan(0);
      }
    }
  });
});
