import { DataSource } from 'typeorm';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { auth, MadeUser } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { TestApp } from '../support/test-app';

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
  const pivot = (body: unknown, session = admin) => t.http().post('/api/dataset/pivot').set(auth(session)).send(body as object);
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
    const count = await t.http().post('/api/dataset').set(auth(admin)).send({ database: db, type: 'query', query: { 'source-table': table('ORDERS').id, aggregation: [['count']] } }).expect(202);
    orderCount = count.body.data.rows[0][0];
  });
  afterAll(() => t.close());

  it('with rows only: detail rows, subtotals per category and the grand total', async () => {
    const res = await pivot(byCategoryAndYear({ pivot_rows: [0, 1] })).expect(202);
    expect(res.body).toMatchObject({ status: 'completed', context: 'ad-hoc', database_id: db });
    const cols = res.body.data.cols;
    expect(cols.map((c: { name: string }) => c.name)).toEqual([expect.stringMatching(/CATEGORY$/), 'CREATED_AT', 'pivot-grouping', 'count']);
    expect(cols[2]).toMatchObject({ name: 'pivot-grouping', display_name: 'pivot-grouping', base_type: 'type/Integer', source: 'breakout', field_ref: ['expression', 'pivot-grouping'] });
    expect(cols[3]).toMatchObject({ name: 'count', source: 'aggregation', field_ref: ['aggregation', 0] });
    expect(res.body.data.results_metadata.columns.map((c: { name: string }) => c.name)).toEqual([expect.stringMatching(/CATEGORY$/), 'CREATED_AT', 'pivot-grouping', 'count']);
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
    const byName = await pivot({ ...body, visualization_settings: { 'pivot_table.column_split': { rows: ['CREATED_AT'], columns: [] } } }).expect(202);
    expect(masks(byName.body.data.rows)).toEqual([0, 1, 3]);
  });

  it('answers a single grand total for a query without breakouts, and keeps aggregation ordering', async () => {
    const res = await pivot({ database: db, type: 'query', query: { 'source-table': table('ORDERS').id, aggregation: [['count'], ['sum', ['field', field('ORDERS', 'QUANTITY'), null]]] } }).expect(202);
    expect(res.body.data.rows).toHaveLength(1);
    expect(res.body.data.rows[0][0]).toBe(0);
    expect(res.body.data.rows[0][1]).toBe(orderCount);
    const query = byCategoryAndYear().query;
    const orderBy = [['asc', query.breakout[1]], ['desc', ['aggregation', 0]]];
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

  it('refuses native queries and bad pivot indexes with the failed shape', async () => {
    const native = await pivot({ database: db, type: 'native', native: { query: 'SELECT 1' } }).expect(202);
    expect(native.body).toMatchObject({ status: 'failed', error_type: 'invalid-query', row_count: 0, data: { rows: [], cols: [] } });
    expect(native.body.error).toMatch(/only be used with structured \(MBQL\) queries/);
    const bad = await pivot(byCategoryAndYear({ pivot_rows: [5] })).expect(202);
    expect(bad.body).toMatchObject({ status: 'failed', error: 'Invalid pivot-rows: specified breakout at index 5, but we only have 2 breakouts' });
    const invalid = await pivot({ database: db, type: 'query', query: { 'source-table': table('ORDERS').id, aggregation: [['frobnicate']] } }).expect(202);
    expect(invalid.body).toMatchObject({ status: 'failed', error_type: 'invalid-query' });
  });

  it('validates the body and the database', async () => {
    const res = await pivot({ database: 'one', type: 'query', query: {} }).expect(400);
    expect(res.body.errors.database).toBe('nullable value must be an integer greater than zero.');
    expect((await pivot({ database: 0, type: 'query', query: {} }).expect(400)).body.errors.database).toBe('nullable value must be an integer greater than zero.');
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
    try {
      expect((await pivot(byCategoryAndYear(), user.session).expect(403)).text).toBe("You don't have permissions to do that.");
      await pivot({ database: db, type: 'native', native: { query: 'SELECT 1' } }, user.session).expect(403);
      await pivot(byCategoryAndYear(), admin).expect(202);
    } finally {
      await ds.query("UPDATE database_permission SET data = 'unrestricted', native = 'write'");
    }
  });
});
