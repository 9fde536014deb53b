import { sampleWarehouses, type SampleWarehouse } from './query-cases/warehouses';
import { QueryCompileError } from '../../src/query-engine/compile/contract';
import type { Engine } from '../../src/query-engine/execute/drivers';
import type { InnerQuery } from '../../src/query-engine/mbql/types';
import { groupingSetsApply, PivotOutcome, PivotQueryRunner, PivotRequest, runPivot } from '../../src/query-engine/postprocess/pivot';
import type { FailedResults, QueryResults } from '../../src/query-engine/postprocess/results';
import { availableEngines } from '../support/warehouses';
import { fieldId } from './query-cases/metadata';
import { O, ORDERS, P, PRODUCTS, U } from './query-cases/types';

/**
 * The same pivots on every engine: Postgres and DuckDB compute every grouping in one GROUPING SETS query, SQLite and
 * MariaDB run one query per grouping. On each engine the one-query result must equal the one-query-per-grouping
 * result row for row (same pivot-grouping values, same order), and all engines must agree with each other.
 */
const engines = availableEngines();
const OPTS = { timezone: null, now: new Date('2025-06-15T12:34:56Z') };

type Warehouse = SampleWarehouse;

const byCategoryYear: InnerQuery = {
  'source-table': ORDERS,
  aggregation: [['count'], ['sum', O('TOTAL')]],
  breakout: [P('CATEGORY', { 'source-field': fieldId('ORDERS', 'PRODUCT_ID') }), O('CREATED_AT', { 'temporal-unit': 'year' })],
};
const threeBreakouts: InnerQuery = {
  'source-table': ORDERS,
  aggregation: [['count'], ['avg', O('QUANTITY')]],
  breakout: [
    P('CATEGORY', { 'source-field': fieldId('ORDERS', 'PRODUCT_ID') }),
    U('SOURCE', { 'source-field': fieldId('ORDERS', 'USER_ID') }),
    O('CREATED_AT', { 'temporal-unit': 'quarter-of-year' }),
  ],
  'order-by': [['desc', ['aggregation', 0]]],
};
/** DISCOUNT is NULL on many orders: a NULL value next to the NULLs of a left-out breakout. */
const withNulls: InnerQuery = {
  'source-table': ORDERS,
  aggregation: [['count']],
  breakout: [
    O('DISCOUNT', { binning: { strategy: 'num-bins', 'num-bins': 4 } }),
    P('CATEGORY', { 'source-field': fieldId('ORDERS', 'PRODUCT_ID') }),
  ],
};
const onProducts: InnerQuery = { 'source-table': PRODUCTS, aggregation: [['max', P('PRICE')]], breakout: [P('CATEGORY'), P('VENDOR')] };

const CASES: Array<{ name: string; query: InnerQuery; request: Omit<PivotRequest, 'groupingSets'>; nullOrder?: boolean }> = [
  { name: 'every subset of two breakouts (no split)', query: byCategoryYear, request: { maxRows: 2000 } },
  { name: 'rows only', query: byCategoryYear, request: { rows: [0, 1], maxRows: 2000 } },
  {
    name: 'rows and columns of three breakouts, ordered by an aggregation',
    query: threeBreakouts,
    request: { rows: [0, 2], cols: [1], maxRows: 2000 },
  },
  { name: 'every subset of three breakouts', query: threeBreakouts, request: { maxRows: 2000 } },
  {
    name: 'split by column names',
    query: byCategoryYear,
    request: { split: { rows: ['CREATED_AT'], columns: ['PRODUCTS__via__PRODUCT_ID__CATEGORY'] }, maxRows: 2000 },
  },
  { name: 'a breakout with NULLs', query: withNulls, request: { maxRows: 2000 }, nullOrder: true },
  { name: 'the row cap across all groupings', query: onProducts, request: { maxRows: 30 } },
];

describe('pivots on every engine', () => {
  const warehouses: Warehouse[] = [];

  beforeAll(async () => {
    warehouses.push(...(await sampleWarehouses(engines, 500)));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(warehouses.map((w) => w.wh.drop()));
  });

  /** What the query processor does for one run: compile with the row cap as LIMIT, run, flag a full page as truncated. */
  function runner(w: Warehouse, sqls: string[]): PivotQueryRunner {
    return async (query, opts) => {
      const compiled = w.compiler.compile({ ...query, limit: opts.maxRows }, w.meta, { ...OPTS, groupingSets: opts.groupingSets });
      sqls.push(compiled.sql);
      const { rows } = await w.driver.query(compiled.sql, compiled.params);
      const normalized = rows.map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
      return {
        status: 'completed',
        context: 'ad-hoc',
        json_query: { database: 1, type: 'query', query },
        started_at: '',
        running_time: 0,
        database_id: 1,
        row_count: rows.length,
        data: {
          rows: normalized,
          cols: compiled.columns,
          native_form: { query: compiled.sql, params: [] },
          results_timezone: 'UTC',
          results_metadata: { columns: [] },
          insights: null,
          ...(rows.length >= opts.maxRows ? { rows_truncated: opts.maxRows } : {}),
        },
      } as QueryResults;
    };
  }

  async function pivot(w: Warehouse, query: InnerQuery, request: Omit<PivotRequest, 'groupingSets'>, groupingSets: boolean) {
    const sqls: string[] = [];
    const out = await runPivot(query, { ...request, groupingSets }, runner(w, sqls));
    if (!('head' in out)) throw new Error(`${w.engine}: ${(out as FailedResults).error}`);
    return { ...(out as PivotOutcome), sqls };
  }

  const round = (rows: unknown[][]) =>
    rows.map((r) => r.map((v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(6)) : v)));
  const sorted = (rows: unknown[][]) =>
    [...round(rows)].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0));

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    expect(groupingSetsApply(c.query)).toBe(true);
    const results: Array<{ engine: Engine; rows: unknown[][]; truncated: boolean }> = [];
    for (const w of warehouses) {
      const perGrouping = await pivot(w, c.query, c.request, false);
      const actual = await pivot(w, c.query, c.request, w.compiler.groupingSets === true);
      if (w.compiler.groupingSets) {
        expect({ engine: w.engine, queries: actual.queries }).toEqual({ engine: w.engine, queries: 1 });
        expect(actual.sqls[0]).toMatch(/GROUP BY GROUPING SETS \(/);
      } else {
        expect(actual.queries).toBe(perGrouping.queries);
      }
      // Past the cap no further grouping is queried.
      if (c.request.maxRows === 30) expect(perGrouping.queries).toBe(1);
      else expect(perGrouping.queries).toBeGreaterThan(1);
      expect({ engine: w.engine, rows: round(actual.rows), truncated: actual.truncated }).toEqual({
        engine: w.engine,
        rows: round(perGrouping.rows),
        truncated: perGrouping.truncated,
      });
      expect(actual.rows.length).toBeLessThanOrEqual(c.request.maxRows);
      results.push({ engine: w.engine, rows: actual.rows, truncated: actual.truncated });
    }
    const [first, ...rest] = results;
    // NULLs sort first on SQLite and MariaDB and last on Postgres and DuckDB: compared as sets then.
    const comparable = (rows: unknown[][]) => (c.nullOrder ? sorted(rows) : round(rows));
    for (const r of rest)
      expect({ engine: r.engine, rows: comparable(r.rows) }).toEqual({ engine: r.engine, rows: comparable(first.rows) });
    if (c.request.maxRows === 30) expect(first).toMatchObject({ truncated: true, rows: expect.any(Array) });
  });

  it('runs every grouping on the row cap in one query, and refuses GROUPING SETS where the engine has none', async () => {
    for (const w of warehouses) {
      const compile = () => w.compiler.compile({ ...byCategoryYear }, w.meta, { ...OPTS, groupingSets: () => [[0, 1], []] });
      if (w.compiler.groupingSets)
        expect(compile().columns.map((col) => col.name)).toEqual([
          'PRODUCTS__via__PRODUCT_ID__CATEGORY',
          'CREATED_AT',
          'count',
          'sum',
          'pivot-grouping',
        ]);
      else expect(compile).toThrow(QueryCompileError);
    }
  });

  it('falls back to one query per grouping for cumulative aggregations and a limit of its own', () => {
    expect(groupingSetsApply({ ...byCategoryYear, aggregation: [['cum-count']] })).toBe(false);
    expect(groupingSetsApply({ ...byCategoryYear, limit: 10 })).toBe(false);
    expect(groupingSetsApply({ ...byCategoryYear, breakout: [['expression', 'x']] })).toBe(false);
  });
});
