import type { CompileOptions } from '../../src/query-engine/compile/contract';
import { ENGINES } from '../../src/query-engine/execute/drivers/driver';
import { normalizeDatasetQuery } from '../../src/query-engine/mbql/normalize';
import type { InnerQuery } from '../../src/query-engine/mbql/types';
import { availableEngines } from '../support/warehouses';
import { caseCompiler } from './query-cases/compiler';
import { fieldId, sampleSnapshot, SNAPSHOT_FINGERPRINTS } from './query-cases/metadata';
import { O, ORDERS, P } from './query-cases/types';
import { sampleWarehouses, type SampleWarehouse } from './query-cases/warehouses';

/**
 * `offset` (Metabase 0.50+): the value of an aggregation expression n rows before (n < 0) or after the current row,
 * in the order of the query's rows. Each case is checked against the same query without offset, its rows shifted
 * here (an independent computation from the same rows), on every engine.
 */
const ORDER_COUNT = 500;
const OPTIONS: CompileOptions = { timezone: null, now: new Date('2025-06-15T12:34:56Z') };
const num = (v: unknown) => (v === null ? null : Number(v));
const month = O('CREATED_AT', { 'temporal-unit': 'month' });
const category = P('CATEGORY', { 'source-field': fieldId('ORDERS', 'PRODUCT_ID') });

describe('offset gives the value of another row on every engine', () => {
  const warehouses: SampleWarehouse[] = [];

  beforeAll(async () => {
    warehouses.push(...(await sampleWarehouses(availableEngines(), ORDER_COUNT)));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(warehouses.map((w) => w.wh.drop()));
  });

  async function rows(w: SampleWarehouse, query: InnerQuery): Promise<unknown[][]> {
    const compiled = w.compiler.compile(query, w.meta, OPTIONS);
    return (await w.driver.query(compiled.sql, compiled.params)).rows;
  }

  /** The count by month (ascending), read without offset. */
  const byMonth = (w: SampleWarehouse) => rows(w, { 'source-table': ORDERS, aggregation: [['count']], breakout: [month] } as InnerQuery);

  it("offset -1 of a count by month is the previous month's count, null in the first row, and a difference with it", async () => {
    const query = {
      'source-table': ORDERS,
      aggregation: [
        ['count'],
        ['aggregation-options', ['offset', {}, ['count'], -1], { name: 'previous' }],
        ['-', ['count'], ['offset', {}, ['count'], -1]],
      ],
      breakout: [month],
    } as InnerQuery;
    for (const w of warehouses) {
      const plain = await byMonth(w);
      expect(plain.length).toBeGreaterThan(12);
      const want = plain.map(([m, c], i) => {
        const previous = i === 0 ? null : num(plain[i - 1][1]);
        return [m, num(c), previous, previous === null ? null : num(c)! - previous];
      });
      const got = (await rows(w, query)).map(([m, c, p, d]) => [m, num(c), num(p), num(d)]);
      expect({ engine: w.engine, rows: got }).toEqual({ engine: w.engine, rows: want });
    }
  });

  it('offset 2 is the count two rows on, null in the last two; sent in MBQL 5 it gives the same rows', async () => {
    const legacy = { 'source-table': ORDERS, aggregation: [['offset', {}, ['count'], 2]], breakout: [month] } as InnerQuery;
    const uuid = (n: number) => ({ 'lib/uuid': `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` });
    const sent = normalizeDatasetQuery({
      'lib/type': 'mbql/query',
      database: 1,
      stages: [
        {
          'lib/type': 'mbql.stage/mbql',
          'source-table': ORDERS,
          aggregation: [['offset', uuid(1), ['count', uuid(2)], 2]],
          breakout: [['field', { ...uuid(3), 'base-type': 'type/DateTime', 'temporal-unit': 'month' }, fieldId('ORDERS', 'CREATED_AT')]],
        },
      ],
    }).query!;
    for (const w of warehouses) {
      const plain = await byMonth(w);
      const want = plain.map(([m], i) => [m, i + 2 < plain.length ? num(plain[i + 2][1]) : null]);
      const got = (await rows(w, legacy)).map(([m, c]) => [m, num(c)]);
      expect({ engine: w.engine, rows: got }).toEqual({ engine: w.engine, rows: want });
      expect((await rows(w, sent)).map(([m, c]) => [m, num(c)])).toEqual(want);
    }
  });

  it("with two breakouts, looks back within the other breakout's groups, along the temporal one", async () => {
    // The temporal breakout second or first: the window is ordered by it and partitioned by the category either way.
    for (const breakout of [
      [category, month],
      [month, category],
    ]) {
      const query = { 'source-table': ORDERS, aggregation: [['count'], ['offset', {}, ['count'], -1]], breakout } as InnerQuery;
      for (const w of warehouses) {
        const catIndex = breakout[0] === category ? 0 : 1;
        const got = (await rows(w, query)).map((r) => [r[catIndex], r[1 - catIndex], num(r[2]), num(r[3])]);
        const sorted = [...got].sort((a, b) => (String(a[0]) === String(b[0]) ? 0 : String(a[0]) < String(b[0]) ? -1 : 1));
        const want = sorted.map(([c, m, n], i) => [c, m, n, i > 0 && sorted[i - 1][0] === c ? sorted[i - 1][2] : null]);
        expect({ engine: w.engine, breakout: catIndex, rows: sorted }).toEqual({ engine: w.engine, breakout: catIndex, rows: want });
        expect(new Set(got.map((r) => r[0])).size).toBeGreaterThan(2);
      }
    }
  });

  it('follows the order-by of the query: by count, most first', async () => {
    const query = {
      'source-table': ORDERS,
      aggregation: [['count'], ['offset', {}, ['count'], -1]],
      breakout: [category],
      'order-by': [['desc', ['aggregation', 0]]],
    } as InnerQuery;
    for (const w of warehouses) {
      const got = (await rows(w, query)).map(([c, n, p]) => [c, num(n), num(p)] as [unknown, number, number | null]);
      expect(got.length).toBeGreaterThan(2);
      expect(got.map((r) => r[1])).toEqual([...got.map((r) => r[1])].sort((a, b) => b - a));
      expect({ engine: w.engine, previous: got.map((r) => r[2]) }).toEqual({
        engine: w.engine,
        previous: [null, ...got.slice(0, -1).map((r) => r[1])],
      });
    }
  });

  it("without breakouts is none (the aggregation has one row), as in a pivot's grand total", async () => {
    for (const w of warehouses) {
      const got = await rows(w, {
        'source-table': ORDERS,
        aggregation: [['count'], ['offset', {}, ['count'], -1], ['-', ['count'], ['offset', {}, ['count'], 1]]],
      } as InnerQuery);
      expect({ engine: w.engine, rows: got.map((r) => r.map(num)) }).toEqual({ engine: w.engine, rows: [[ORDER_COUNT, null, null]] });
    }
  });

  it('is refused outside aggregations', () => {
    const w = { compiler: warehouses[0].compiler, meta: warehouses[0].meta };
    expect(() =>
      w.compiler.compile(
        { 'source-table': ORDERS, expressions: { prev: ['offset', {}, O('TOTAL'), -1] } } as unknown as InnerQuery,
        w.meta,
        OPTIONS,
      ),
    ).toThrow('"offset" can only be used in an aggregation, not in a custom column or a filter in "fields".');
  });
});

describe('offset compiles to LAG / LEAD over the rows of the query', () => {
  it.each(ENGINES.map((e) => [e]))('%s', (engine) => {
    const query = {
      'source-table': ORDERS,
      aggregation: [['count'], ['-', ['count'], ['offset', {}, ['count'], -1]], ['offset', {}, ['sum', O('TOTAL')], 1]],
      breakout: [category, month],
      'order-by': [['desc', ['aggregation', 0]]],
    } as InnerQuery;
    expect(caseCompiler(engine).compile(query, sampleSnapshot(engine, null, SNAPSHOT_FINGERPRINTS), OPTIONS).sql).toMatchSnapshot();
  });
});
