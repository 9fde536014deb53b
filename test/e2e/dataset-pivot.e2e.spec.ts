import { DataSource } from 'typeorm';
import { DatasetService } from '../../src/modules/dataset/dataset.service';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import type { Engine } from '../../src/query-engine/execute/drivers';
import { e2eWarehouse, E2eWarehouse } from '../support/e2e-warehouses';
import { auth, MadeUser, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { startTestApp, TestApp } from '../support/test-app';
import { grantsChanged } from '../support/grants';

/** CATEGORY, CREATED_AT, pivot-grouping, count: Metabase puts `pivot-grouping` after the breakouts. */
type Row = [string | null, string | null, number, number];

describe('POST /api/dataset/pivot on the Sample Database', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  let db: number;
  let orderCount: number;
  let table: SampleApp['table'];
  let field: SampleApp['field'];
  const pivot = (body: unknown, session = admin) =>
    t
      .http()
      .post('/api/dataset/pivot')
      .set(auth(session))
      .send(body as object);
  /** ORDERS count by PRODUCTS.CATEGORY (implicit join through ORDERS.PRODUCT_ID) and CREATED_AT by year. */
  const byCategoryAndYear = (extra: Record<string, unknown> = {}) => ({
    database: db,
    type: 'query',
    query: {
      'source-table': table('ORDERS').id,
      aggregation: [['count']],
      breakout: [
        ['field', field('PRODUCTS', 'CATEGORY'), { 'source-field': field('ORDERS', 'PRODUCT_ID') }],
        ['field', field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'year' }],
      ],
    },
    ...extra,
  });
  const group = (rows: Row[], mask: number) => rows.filter((r) => r[2] === mask);
  const sum = (rows: Row[]) => rows.reduce((n, r) => n + r[3], 0);
  const masks = (rows: Row[]) => [...new Set(rows.map((r) => r[2]))];

  beforeAll(async () => {
    ({ t, admin, user, db, table, field } = await startSampleApp());
    const count = await t
      .http()
      .post('/api/dataset')
      .set(auth(admin))
      .send({ database: db, type: 'query', query: { 'source-table': table('ORDERS').id, aggregation: [['count']] } })
      .expect(202);
    orderCount = count.body.data.rows[0][0];
  });
  afterAll(() => t.close());

  it('with rows only: detail rows, subtotals per category and the grand total', async () => {
    const res = await pivot(byCategoryAndYear({ pivot_rows: [0, 1] })).expect(202);
    expect(res.body).toMatchObject({ status: 'completed', context: 'ad-hoc', database_id: db });
    const cols = res.body.data.cols;
    expect(cols.map((c: { name: string }) => c.name)).toEqual([
      expect.stringMatching(/CATEGORY$/),
      'CREATED_AT',
      'pivot-grouping',
      'count',
    ]);
    expect(cols[2]).toMatchObject({
      name: 'pivot-grouping',
      display_name: 'pivot-grouping',
      base_type: 'type/Integer',
      source: 'breakout',
      field_ref: ['expression', 'pivot-grouping'],
    });
    expect(cols[3]).toMatchObject({ name: 'count', source: 'aggregation', field_ref: ['aggregation', 0] });
    expect(res.body.data.results_metadata.columns.map((c: { name: string }) => c.name)).toEqual([
      expect.stringMatching(/CATEGORY$/),
      'CREATED_AT',
      'pivot-grouping',
      'count',
    ]);
    const rows: Row[] = res.body.data.rows;
    expect(res.body.row_count).toBe(rows.length);
    expect(masks(rows)).toEqual([0, 2, 3]);

    const detail = group(rows, 0);
    expect(detail.length).toBeGreaterThan(4);
    expect(detail.every((r) => r[0] !== null && r[1] !== null)).toBe(true);
    expect(sum(detail)).toBe(orderCount);
    const subtotals = group(rows, 2);
    expect(subtotals.map((r) => r[0])).toEqual(['Doohickey', 'Gadget', 'Gizmo', 'Widget']);
    for (const s of subtotals) {
      expect(s[1]).toBeNull();
      expect(s[3]).toBe(sum(detail.filter((r) => r[0] === s[0])));
    }
    expect(group(rows, 3)).toEqual([[null, null, 3, orderCount]]);
  });

  it('logs one execution per pivot, not one per subtotal query', async () => {
    const log = t.app.get(QueryLogService);
    const ds = t.app.get(DataSource);
    await log.flush();
    const before = Number((await ds.query('SELECT COUNT(*) AS n FROM query_execution'))[0].n);
    await pivot(byCategoryAndYear({ pivot_rows: [0], pivot_cols: [1] })).expect(202);
    await log.flush();
    const after = Number((await ds.query('SELECT COUNT(*) AS n FROM query_execution'))[0].n);
    expect(after - before).toBe(1);
  });

  it('adds the column totals when pivot_rows and pivot_cols split the breakouts', async () => {
    const res = await pivot(byCategoryAndYear({ pivot_rows: [0], pivot_cols: [1] })).expect(202);
    const rows: Row[] = res.body.data.rows;
    expect(masks(rows)).toEqual([0, 1, 2, 3]);
    const detail = group(rows, 0);
    const yearTotals = group(rows, 1);
    expect(yearTotals.length).toBe(new Set(detail.map((r) => r[1])).size);
    for (const y of yearTotals) {
      expect(y[0]).toBeNull();
      expect(y[1]).toMatch(/^\d{4}-01-01/);
      expect(y[3]).toBe(sum(detail.filter((r) => r[1] === y[1])));
    }
    expect(sum(yearTotals)).toBe(orderCount);
    expect(sum(group(rows, 2))).toBe(orderCount);
    expect(group(rows, 3)[0][3]).toBe(orderCount);
  });

  it('queries every combination when no split is given (as public and embedded pivots)', async () => {
    const res = await pivot(byCategoryAndYear()).expect(202);
    const rows: Row[] = res.body.data.rows;
    expect(masks(rows)).toEqual([0, 1, 2, 3]);
    expect(sum(group(rows, 1))).toBe(orderCount);
    expect(sum(group(rows, 2))).toBe(orderCount);
  });

  it('reads the split from visualization_settings', async () => {
    const body = byCategoryAndYear();
    const split = { rows: [body.query.breakout[1]], columns: [body.query.breakout[0]] };
    const res = await pivot({ ...body, visualization_settings: { 'pivot_table.column_split': split } }).expect(202);
    const rows: Row[] = res.body.data.rows;
    // Rows = year (index 1), columns = category (index 0): the category totals are bitmask 2, the year totals 1.
    expect(masks(rows)).toEqual([0, 1, 2, 3]);
    expect(group(rows, 1).every((r) => r[0] === null && r[1] !== null)).toBe(true);
    // Column names work too (the current form of the setting).
    const byName = await pivot({
      ...body,
      visualization_settings: { 'pivot_table.column_split': { rows: ['CREATED_AT'], columns: [] } },
    }).expect(202);
    expect(masks(byName.body.data.rows)).toEqual([0, 1, 3]);
  });

  it('answers a single grand total for a query without breakouts, and keeps aggregation ordering', async () => {
    const res = await pivot({
      database: db,
      type: 'query',
      query: { 'source-table': table('ORDERS').id, aggregation: [['count'], ['sum', ['field', field('ORDERS', 'QUANTITY'), null]]] },
    }).expect(202);
    expect(res.body.data.rows).toHaveLength(1);
    expect(res.body.data.rows[0][0]).toBe(0);
    expect(res.body.data.rows[0][1]).toBe(orderCount);
    const query = byCategoryAndYear().query;
    const orderBy = [
      ['asc', query.breakout[1]],
      ['desc', ['aggregation', 0]],
    ];
    const ordered = await pivot(byCategoryAndYear({ pivot_rows: [0, 1], query: { ...query, 'order-by': orderBy } })).expect(202);
    expect(ordered.body.status).toBe('completed');
    for (const mask of [0, 2]) {
      const counts = group(ordered.body.data.rows, mask).map((r) => r[3]);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
    }
  });

  it('caps the stacked rows like an ad-hoc query', async () => {
    const res = await pivot({ ...byCategoryAndYear(), constraints: { 'max-results': 5 } }).expect(202);
    expect(res.body.row_count).toBe(5);
    expect(res.body.data.rows_truncated).toBe(5);
  });

  it('refuses more than 8 breakouts with a 400, before running anything', async () => {
    const runs = jest.spyOn(t.app.get(DatasetService), 'run');
    try {
      const breakout = Array.from({ length: 9 }, () => ['field', field('PRODUCTS', 'CATEGORY'), null]);
      const res = await pivot({
        database: db,
        type: 'query',
        query: { 'source-table': table('PRODUCTS').id, aggregation: [['count']], breakout },
      }).expect(400);
      expect(res.body).toEqual({ message: 'A pivot table can have at most 8 breakouts; this query has 9.' });
      expect(runs).not.toHaveBeenCalled();
      // 8 are fine.
      const rows = [0, 1, 2, 3, 4, 5, 6, 7];
      const ok = await pivot({
        database: db,
        type: 'query',
        query: { 'source-table': table('PRODUCTS').id, aggregation: [['count']], breakout: breakout.slice(0, 8) },
        pivot_rows: rows,
      }).expect(202);
      expect(ok.body.status).toBe('completed');
      expect(ok.body.data.cols).toHaveLength(10);
    } finally {
      runs.mockRestore();
    }
  });

  it('holds at most the row cap across the subtotal queries, and never more than the download cap', async () => {
    const runs = jest.spyOn(t.app.get(DatasetService), 'run');
    try {
      // The detail rows alone fill the cap: no subtotal query runs, and no query may return more than is left.
      const capped = await pivot({ ...byCategoryAndYear(), constraints: { 'max-results': 5 } }).expect(202);
      expect(capped.body).toMatchObject({ status: 'completed', row_count: 5, data: { rows_truncated: 5 } });
      expect(runs).toHaveBeenCalledTimes(1);
      runs.mockClear();
      // A cap above the download limit is the download limit, for every run of the pivot.
      const huge = await pivot({ ...byCategoryAndYear(), constraints: { 'max-results': 50_000_000 } }).expect(202);
      expect(huge.body.status).toBe('completed');
      expect(huge.body.data.rows_truncated).toBeUndefined();
      const caps = runs.mock.calls.map((c) => (c[0] as { constraints: { 'max-results': number } }).constraints['max-results']);
      expect(caps.length).toBeGreaterThan(1);
      expect(Math.max(...caps)).toBeLessThanOrEqual(1_048_575);
      // Each subtotal query may return only the rows still allowed.
      expect(caps[1]).toBe(1_048_575 - group(huge.body.data.rows, 0).length);
    } finally {
      runs.mockRestore();
    }
  });

  it('refuses native queries and bad pivot indexes with the failed shape', async () => {
    const native = await pivot({ database: db, type: 'native', native: { query: 'SELECT 1' } }).expect(202);
    expect(native.body).toMatchObject({ status: 'failed', error_type: 'invalid-query', row_count: 0, data: { rows: [], cols: [] } });
    expect(native.body.error).toMatch(/only be used with structured \(MBQL\) queries/);
    const bad = await pivot(byCategoryAndYear({ pivot_rows: [5] })).expect(202);
    expect(bad.body).toMatchObject({
      status: 'failed',
      error: 'Invalid pivot-rows: specified breakout at index 5, but we only have 2 breakouts',
    });
    const invalid = await pivot({
      database: db,
      type: 'query',
      query: { 'source-table': table('ORDERS').id, aggregation: [['frobnicate']] },
    }).expect(202);
    expect(invalid.body).toMatchObject({ status: 'failed', error_type: 'invalid-query' });
  });

  it('validates the body and the database', async () => {
    const res = await pivot({ database: 'one', type: 'query', query: {} }).expect(400);
    expect(res.body.errors.database).toBe('nullable value must be an integer greater than zero.');
    expect((await pivot({ database: 0, type: 'query', query: {} }).expect(400)).body.errors.database).toBe(
      'nullable value must be an integer greater than zero.',
    );
    expect((await pivot([1, 2]).expect(400)).body.errors.query).toBe('value must be a map.');
    expect((await pivot({ ...byCategoryAndYear(), database: 99999 }).expect(404)).text).toBe('Not found.');
    expect((await pivot({ database: 99999, type: 'native', native: { query: 'SELECT 1' } }).expect(404)).text).toBe('Not found.');
    const { database: _omitted, ...withoutDb } = byCategoryAndYear();
    expect((await pivot(withoutDb).expect(400)).body.message).toBe('`database` is required for all queries.');
    expect((await t.http().post('/api/dataset/pivot').send(byCategoryAndYear()).expect(401)).text).toBe('Unauthenticated');
  });

  it('needs data access to the database', async () => {
    await pivot(byCategoryAndYear(), user.session).expect(202);
    const ds = t.app.get(DataSource);
    await ds.query("UPDATE database_permission SET data = 'no', native = 'none'");
    await grantsChanged(t.app);
    try {
      expect((await pivot(byCategoryAndYear(), user.session).expect(403)).text).toBe("You don't have permissions to do that.");
      await pivot({ database: db, type: 'native', native: { query: 'SELECT 1' } }, user.session).expect(403);
      await pivot(byCategoryAndYear(), admin).expect(202);
    } finally {
      await ds.query("UPDATE database_permission SET data = 'unrestricted', native = 'write'");
      await grantsChanged(t.app);
    }
  });
});

/** One GROUPING SETS query on DuckDB (and Postgres), one query per grouping on SQLite: the same answer either way. */
describe('POST /api/dataset/pivot: subtotals in one query where the engine has GROUPING SETS', () => {
  let t: TestApp;
  let admin: string;
  const warehouses: E2eWarehouse[] = [];
  const dbs = new Map<Engine, { id: number; table: number; fields: Record<string, number> }>();
  const statements = [
    'CREATE TABLE sales (id INTEGER PRIMARY KEY, region VARCHAR(20), product VARCHAR(20), channel VARCHAR(20), amount INTEGER)',
    `INSERT INTO sales VALUES ${[
      [1, 'north', 'apple', 'web', 10],
      [2, 'north', 'pear', 'shop', 5],
      [3, 'south', 'apple', 'web', 7],
      [4, 'south', 'apple', 'shop', 3],
      [5, 'east', 'plum', 'web', 8],
      [6, 'east', null, 'web', 2],
      [7, 'north', 'apple', 'shop', 4],
      [8, null, 'pear', 'web', 6],
    ]
      .map((r) => `(${r.map((v) => (v === null ? 'NULL' : typeof v === 'string' ? `'${v}'` : v)).join(', ')})`)
      .join(', ')}`,
  ];

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    for (const engine of ['sqlite', 'duckdb'] as const) {
      const wh = await e2eWarehouse(engine, t.config.dataDir, { statements });
      warehouses.push(wh);
      const res = await t
        .http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine, name: `Sales ${engine}`, details: wh.details })
        .expect(200);
      await waitForSync(t, admin, res.body.id);
      const meta = (await t.http().get(`/api/database/${res.body.id}/metadata`).set(auth(admin)).expect(200)).body;
      const sales = meta.tables.find((x: { name: string }) => x.name === 'sales');
      dbs.set(engine, {
        id: res.body.id,
        table: sales.id,
        fields: Object.fromEntries(sales.fields.map((f: { name: string; id: number }) => [f.name, f.id])),
      });
    }
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all(warehouses.map((w) => w.drop()));
  });

  const salesPivot = (engine: Engine, extra: Record<string, unknown> = {}) => {
    const d = dbs.get(engine)!;
    const ref = (name: string) => ['field', d.fields[name], null];
    return {
      database: d.id,
      type: 'query',
      query: {
        'source-table': d.table,
        aggregation: [['count'], ['sum', ref('amount')]],
        breakout: [ref('region'), ref('product'), ref('channel')],
        'order-by': [['desc', ['aggregation', 1]]],
      },
      ...extra,
    };
  };

  it.each([
    ['no split (every subset)', {}, 8],
    ['rows and columns', { pivot_rows: [0, 1], pivot_cols: [2] }, 6],
  ])('%s: DuckDB answers in one query what SQLite answers in one query per grouping', async (_name, split, groupings) => {
    const runs = jest.spyOn(t.app.get(DatasetService), 'run');
    try {
      const answers: Record<string, { cols: string[]; rows: unknown[][] }> = {};
      const queries: Record<string, number> = {};
      for (const engine of ['sqlite', 'duckdb'] as const) {
        runs.mockClear();
        const res = await t.http().post('/api/dataset/pivot').set(auth(admin)).send(salesPivot(engine, split)).expect(202);
        expect(res.body.status).toBe('completed');
        queries[engine] = runs.mock.calls.length;
        answers[engine] = { cols: res.body.data.cols.map((c: { name: string }) => c.name), rows: res.body.data.rows };
      }
      expect(queries).toEqual({ sqlite: groupings, duckdb: 1 });
      expect(answers.duckdb.cols).toEqual(['region', 'product', 'channel', 'pivot-grouping', 'count', 'sum']);
      expect(answers.duckdb.cols).toEqual(answers.sqlite.cols);
      expect(new Set(answers.duckdb.rows.map((r) => r[3])).size).toBe(groupings);
      // NULLs sort first on SQLite and last on DuckDB; otherwise the same rows in the same order.
      const nullsLast = (rows: unknown[][]) => [...rows].sort((a, b) => (a[3] as number) - (b[3] as number));
      expect(nullsLast(answers.duckdb.rows).length).toBe(answers.sqlite.rows.length);
      const key = (r: unknown[]) => JSON.stringify(r);
      expect(new Set(answers.duckdb.rows.map(key))).toEqual(new Set(answers.sqlite.rows.map(key)));
      const groupOrder = (rows: unknown[][]) => rows.map((r) => r[3]);
      expect(groupOrder(answers.duckdb.rows)).toEqual(groupOrder(answers.sqlite.rows));
    } finally {
      runs.mockRestore();
    }
  });
});
