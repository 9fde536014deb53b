import { sampleWarehouses, type SampleWarehouse } from './query-cases/warehouses';
import type { CompileOptions } from '../../src/query-engine/compile/contract';
import { QueryCompileError } from '../../src/query-engine/compile/contract';
import type { Engine } from '../../src/query-engine/execute/drivers';
import { SampleData } from '../../src/sample-data';
import { availableEngines } from '../support/warehouses';
import { normalizeDatasetQuery } from '../../src/query-engine/mbql/normalize';
import type { InnerQuery } from '../../src/query-engine/mbql/types';
import { hasMbql5Form, toMbql5 } from '../support/mbql5';
import { ALL_CASES } from './query-cases';
import type { QueryCase } from './query-cases/types';

/**
 * The same MBQL query cases on every engine over the same Sample Database (500 orders, seed 42): each compiles
 * per dialect, runs, and must give the same rows everywhere (floats to 6 significant digits; row order only
 * when the query orders them), and the expected values where a case states them. Every case is also sent as
 * MBQL 5 (test/support/mbql5.ts), converted as the server converts it, and must give the same rows.
 */
const ORDER_COUNT = 500;
export const CASE_OPTIONS: CompileOptions = { timezone: null, now: new Date('2025-06-15T12:34:56Z') };

type Warehouse = SampleWarehouse;

export function normalizeValue(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Object.is(v, -0)) return 0;
  return v;
}

/** Floats agree to about 6 significant digits (sums in a different order differ in the last bits). */
function close(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => close(x, b[i]));
  return a === b;
}

function expectRows(label: string, actual: unknown, expected: unknown): void {
  if (!close(actual, expected)) expect({ label, rows: actual }).toEqual({ label, rows: expected });
}

const rounded = (v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(6)) : v);
const key = (row: unknown[]) => JSON.stringify(row.map(rounded));
const sortRows = (rows: unknown[][]) => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

function generatorData() {
  const data = new SampleData();
  const orders = [...data.orderBatches(ORDER_COUNT)].flat();
  const ts = (s: unknown) => (typeof s === 'number' ? new Date(s * 1000).toISOString().slice(0, 19) : s);
  const day = (d: unknown) => (typeof d === 'number' ? new Date(d * 86_400_000).toISOString().slice(0, 10) : d);
  return {
    products: data.products.map((r) => [...r.slice(0, 7), ts(r[7])]),
    people: data.people.map((r) => [...r.slice(0, 9), day(r[9]), r[10], r[11], ts(r[12])]),
    orders: orders.map((r) => [...r.slice(0, 7), ts(r[7]), r[8]]),
    reviews: data.reviews.map((r) => [...r.slice(0, 5), ts(r[5])]),
  };
}

const engines = availableEngines();

describe('MBQL query cases on every engine', () => {
  const warehouses: Warehouse[] = [];
  let data: ReturnType<typeof generatorData>;
  /** Whether the MySQL/MariaDB server has its time zone tables; without them report time zones fail clearly. */
  let mysqlZoneTables = true;

  beforeAll(async () => {
    data = generatorData();
    warehouses.push(...(await sampleWarehouses(engines, ORDER_COUNT)));
    const mysql = warehouses.find((w) => w.engine === 'mysql');
    if (mysql) {
      // The driver itself refuses this conversion when the tables are missing.
      mysqlZoneTables = await mysql.driver.query("SELECT CONVERT_TZ('2024-01-01 00:00:00', '+00:00', 'America/New_York')").then(
        ({ rows }) => rows[0][0] !== null,
        (e: Error) => (/time zone tables/.test(e.message) ? false : Promise.reject(e)),
      );
      if (!mysqlZoneTables)
        console.warn('MySQL/MariaDB has no time zone tables: its report time zone cases check the clear error instead.');
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(warehouses.map((w) => w.wh.drop()));
  });

  async function run(c: QueryCase, query: InnerQuery = c.query) {
    const results: Array<{ engine: Engine; rows: unknown[][]; columns: string[] }> = [];
    await Promise.all(
      warehouses
        .filter((w) => !c.engines || c.engines.includes(w.engine))
        .map(async (w) => {
          const expectError = c.unsupported?.[w.engine];
          let compiled;
          try {
            compiled = w.compiler.compile(query, w.meta, { ...CASE_OPTIONS, timezone: c.timezone ?? null });
          } catch (e) {
            if (expectError && e instanceof QueryCompileError && expectError.test(e.message)) return;
            throw new Error(`${w.engine}: ${(e as Error).message}`);
          }
          if (expectError) throw new Error(`${w.engine}: expected a compile error ${expectError}`);
          const zoneRefused = w.engine === 'mysql' && !mysqlZoneTables && Boolean(c.timezone) && c.timezone !== 'UTC';
          if (zoneRefused) {
            await expect(w.driver.query(compiled.sql, compiled.params)).rejects.toThrow(
              /needs the MySQL time zone tables \(mysql_tzinfo_to_sql\)/,
            );
            return;
          }
          try {
            const { rows } = await w.driver.query(compiled.sql, compiled.params);
            results.push({ engine: w.engine, rows: rows.map((r) => r.map(normalizeValue)), columns: compiled.columns.map((x) => x.name) });
          } catch (e) {
            throw new Error(`${w.engine}: ${(e as Error).message}\n${compiled.sql}\n${JSON.stringify(compiled.params)}`);
          }
        }),
    );
    results.sort((a, b) => engines.indexOf(a.engine) - engines.indexOf(b.engine));
    return results;
  }

  const cases: QueryCase[] = ALL_CASES;
  it('has enough cases, with unique names', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  /** Each case's rows per engine, for its MBQL 5 twin. */
  const legacyResults = new Map<string, Awaited<ReturnType<typeof run>>>();
  const comparableRows = (c: QueryCase) => {
    const ordered = Boolean(c.query['order-by']?.length || c.query.breakout?.length) && !c.unordered;
    return (rows: unknown[][]) => (ordered ? rows : sortRows(rows));
  };

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const results = await run(c);
    legacyResults.set(c.name, results);
    if (!results.length) return;
    const comparable = comparableRows(c);
    const [first, ...rest] = results;
    for (const r of rest) {
      expect({ engine: r.engine, columns: r.columns }).toEqual({ engine: r.engine, columns: first.columns });
      expectRows(`${r.engine} vs ${first.engine}`, comparable(r.rows), comparable(first.rows));
    }
    if (c.columns) expect(first.columns).toEqual(c.columns);
    const expected = c.expected ?? c.expectedFrom?.(data)?.map((r) => r.map(normalizeValue));
    if (expected) expectRows(`${first.engine} vs expected`, comparable(first.rows), comparable(expected));
    c.check?.(first.rows);
  });

  // The one case left out has a native source query inside a structured one, which MBQL 5 cannot send us.
  it.each(cases.filter((c) => hasMbql5Form(c.query as Record<string, unknown>)).map((c) => [c.name, c] as const))(
    'as MBQL 5: %s',
    async (_name, c) => {
      const sent = toMbql5({ database: 1, type: 'query', query: c.query });
      const results = await run(c, normalizeDatasetQuery(sent).query);
      const legacy = legacyResults.get(c.name) ?? (await run(c));
      const comparable = comparableRows(c);
      expect(results.map((r) => r.engine)).toEqual(legacy.map((r) => r.engine));
      for (const r of results) {
        const twin = legacy.find((l) => l.engine === r.engine)!;
        expect({ engine: r.engine, columns: r.columns }).toEqual({ engine: r.engine, columns: twin.columns });
        expectRows(`${r.engine}: MBQL 5 vs legacy`, comparable(r.rows), comparable(twin.rows));
      }
    },
  );
});
