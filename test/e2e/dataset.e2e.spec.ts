import * as http from 'node:http';
import { DataSource } from 'typeorm';
import { QueryExecution } from '../../src/schema/query-execution.entity';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { STOPPED_EARLY } from '../../src/query-engine/execute/query-processor';
import { auth, MadeUser } from '../support/factories';
import { until } from '../support/until';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { TestApp } from '../support/test-app';
import { grantsChanged } from '../support/grants';

describe('POST /api/dataset on the Sample Database', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  let db: number;
  let table: SampleApp['table'];
  let field: SampleApp['field'];
  const run = (body: unknown, session = admin) =>
    t
      .http()
      .post('/api/dataset')
      .set(auth(session))
      .send(body as object);

  beforeAll(async () => {
    ({ t, admin, user, db, table, field } = await startSampleApp());
  });
  afterAll(() => t.close());

  it('runs a structured count and answers 202 in the result shape', async () => {
    const res = await run({
      database: db,
      type: 'query',
      query: { 'source-table': table('PRODUCTS').id, aggregation: [['count']] },
    }).expect(202);
    expect(res.body).toMatchObject({ status: 'completed', row_count: 1, context: 'ad-hoc', database_id: db, data: { rows: [[200]] } });
    expect(res.body.data.cols[0]).toMatchObject({
      name: 'count',
      display_name: 'Count',
      base_type: 'type/BigInteger',
      semantic_type: 'type/Quantity',
      source: 'aggregation',
      field_ref: ['aggregation', 0],
    });
    expect(res.body.data.native_form.query).toMatch(/SELECT/i);
    expect(res.body.data.results_metadata.columns[0].name).toBe('count');
    expect(typeof res.body.running_time).toBe('number');
    expect(res.body.json_query.query['source-table']).toBe(table('PRODUCTS').id);
  });

  it('breaks out by category with legacy snake_case keys', async () => {
    const res = await run({
      database: db,
      type: 'query',
      query: { source_table: table('PRODUCTS').id, aggregation: [['count']], breakout: [['field-id', field('PRODUCTS', 'CATEGORY')]] },
    }).expect(202);
    expect(res.body.data.rows.map((r: unknown[]) => r[0])).toEqual(['Doohickey', 'Gadget', 'Gizmo', 'Widget']);
    expect(res.body.data.rows.reduce((n: number, r: number[]) => n + r[1], 0)).toBe(200);
    expect(res.body.data.cols[0]).toMatchObject({ name: 'CATEGORY', source: 'breakout', id: field('PRODUCTS', 'CATEGORY') });
  });

  it('applies parameters to structured queries', async () => {
    const res = await run({
      database: db,
      type: 'query',
      query: { 'source-table': table('PRODUCTS').id, aggregation: [['count']] },
      parameters: [{ type: 'category', target: ['dimension', ['field', field('PRODUCTS', 'CATEGORY'), null]], value: ['Gizmo', 'Widget'] }],
    }).expect(202);
    const all = await run({
      database: db,
      type: 'query',
      query: { 'source-table': table('PRODUCTS').id, aggregation: [['count']], breakout: [['field', field('PRODUCTS', 'CATEGORY'), null]] },
    });
    const expected = all.body.data.rows
      .filter((r: unknown[]) => r[0] === 'Gizmo' || r[0] === 'Widget')
      .reduce((n: number, r: number[]) => n + r[1], 0);
    expect(res.body.data.rows).toEqual([[expected]]);
  });

  it('runs native SQL with template tags, values bound', async () => {
    const res = await run({
      database: db,
      type: 'native',
      native: {
        query: 'SELECT COUNT(*) AS n FROM PRODUCTS WHERE CATEGORY = {{cat}} [[AND PRICE > {{min}}]]',
        'template-tags': {
          cat: { name: 'cat', 'display-name': 'Category', type: 'text' },
          min: { name: 'min', 'display-name': 'Min', type: 'number' },
        },
      },
      parameters: [{ type: 'category', target: ['variable', ['template-tag', 'cat']], value: "Gizmo' OR 1=1 --" }],
    }).expect(202);
    expect(res.body).toMatchObject({ status: 'completed', data: { rows: [[0]] } });
    expect(res.body.data.native_form.query).not.toContain('OR 1=1');
    expect(res.body.data.cols[0]).toMatchObject({ name: 'n', source: 'native' });
  });

  it('answers the failed shape (also 202) for a query the database or the engine rejects', async () => {
    const bad = await run({ database: db, type: 'native', native: { query: 'SELECT * FROM NO_SUCH_TABLE' } }).expect(202);
    expect(bad.body).toMatchObject({ status: 'failed', row_count: 0, data: { rows: [], cols: [] }, error_type: 'db' });
    expect(bad.body.error).toMatch(/NO_SUCH_TABLE/);
    const invalid = await run({
      database: db,
      type: 'query',
      query: { 'source-table': table('PRODUCTS').id, aggregation: [['frobnicate']] },
    }).expect(202);
    expect(invalid.body).toMatchObject({ status: 'failed', error_type: 'invalid-query' });
    expect(invalid.body.error).toMatch(/aggregation\[0\].*frobnicate/);
    const missing = await run({
      database: db,
      type: 'native',
      native: { query: 'SELECT {{x}}', 'template-tags': { x: { name: 'x', 'display-name': 'X', type: 'text', required: true } } },
    }).expect(202);
    expect(missing.body.error).toBe("You'll need to pick a value for 'X' before this query can run.");
    const write = await run({ database: db, type: 'native', native: { query: 'DELETE FROM PRODUCTS' } }).expect(202);
    expect(write.body.status).toBe('failed');
    const second = await run({ database: db, type: 'native', native: { query: 'SELECT 1; SELECT 2' } }).expect(202);
    expect(second.body.status).toBe('failed');
    const count = await run({ database: db, type: 'query', query: { 'source-table': table('PRODUCTS').id, aggregation: [['count']] } });
    expect(count.body.data.rows).toEqual([[200]]);
  });

  it('caps ad-hoc results at 2,000 rows and says so', async () => {
    const res = await run({ database: db, type: 'query', query: { 'source-table': table('ORDERS').id } }).expect(202);
    expect(res.body.row_count).toBe(2000);
    expect(res.body.data.rows_truncated).toBe(2000);
    const limited = await run({ database: db, type: 'query', query: { 'source-table': table('ORDERS').id, limit: 5 } }).expect(202);
    expect(limited.body.row_count).toBe(5);
    expect(limited.body.data.rows_truncated).toBeUndefined();
    const constrained = await run({
      database: db,
      type: 'query',
      query: { 'source-table': table('ORDERS').id },
      constraints: { 'max-results': 10 },
    }).expect(202);
    expect(constrained.body.row_count).toBe(10);
  });

  it('sends large results intact (written in chunks)', async () => {
    const res = await run({
      database: db,
      type: 'query',
      query: { 'source-table': table('ORDERS').id, 'order-by': [['asc', ['field', field('ORDERS', 'ID'), null]]] },
      constraints: { 'max-results': 5000 },
    }).expect(202);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.row_count).toBe(5000);
    expect(res.body.data.rows).toHaveLength(5000);
    expect(res.body.data.rows.map((r: number[]) => r[0])).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    expect(res.body.data.rows_truncated).toBe(5000);
    expect(res.body.data.cols.length).toBe(res.body.data.rows[0].length);
  });

  it('buckets by the report-timezone setting', async () => {
    const byHour = async () => {
      const res = await run({
        database: db,
        type: 'query',
        query: {
          'source-table': table('ORDERS').id,
          aggregation: [['count']],
          breakout: [['field', field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'hour-of-day' }]],
        },
      }).expect(202);
      return { tz: res.body.data.results_timezone, rows: res.body.data.rows as number[][] };
    };
    const utc = await byHour();
    await t.http().put('/api/setting/report-timezone').set(auth(admin)).send({ value: 'Asia/Kolkata' }).expect(204);
    try {
      const kolkata = await byHour();
      expect([utc.tz, kolkata.tz]).toEqual(['UTC', 'Asia/Kolkata']);
      // +05:30: every order moves to another hour bucket, so the histograms differ but the totals do not.
      expect(kolkata.rows).not.toEqual(utc.rows);
      const total = (rows: number[][]) => rows.reduce((n, r) => n + r[1], 0);
      expect(total(kolkata.rows)).toBe(total(utc.rows));
    } finally {
      await t.http().put('/api/setting/report-timezone').set(auth(admin)).send({ value: null }).expect(204);
    }
  });

  it('validates the body and the database', async () => {
    const res = await run({ database: 'one', type: 'query', query: {} }).expect(400);
    expect(res.body.errors.database).toBe('value may be nil, or if non-nil, value must be an integer.');
    expect((await run({ database: 99999, type: 'native', native: { query: 'SELECT 1' } }).expect(404)).text).toBe('Not found.');
    expect(
      (
        await t
          .http()
          .post('/api/dataset')
          .send({ database: db, type: 'native', native: { query: 'SELECT 1' } })
          .expect(401)
      ).text,
    ).toBe('Unauthenticated');
  });

  it('enforces data and native permissions per group', async () => {
    const native = { database: db, type: 'native', native: { query: 'SELECT 1 AS one' } };
    const mbql = { database: db, type: 'query', query: { 'source-table': table('PRODUCTS').id, aggregation: [['count']] } };
    await run(native, user.session).expect(202);
    const ds = t.app.get(DataSource);
    await ds.query("UPDATE database_permission SET native = 'none'");
    await grantsChanged(t.app);
    expect((await run(native, user.session).expect(403)).text).toBe("You don't have permissions to do that.");
    await run(mbql, user.session).expect(202);
    await ds.query("UPDATE database_permission SET data = 'no'");
    await grantsChanged(t.app);
    await run(mbql, user.session).expect(403);
    await run(mbql, admin).expect(202);
    await ds.query("UPDATE database_permission SET data = 'unrestricted', native = 'write'");
    await grantsChanged(t.app);
  });

  it('shows the SQL a structured query becomes', async () => {
    const res = await t
      .http()
      .post('/api/dataset/native')
      .set(auth(admin))
      .send({
        database: db,
        pretty: true,
        query: { 'source-table': table('PRODUCTS').id, filter: ['=', ['field', field('PRODUCTS', 'CATEGORY'), null], 'Gizmo'] },
      })
      .expect(200);
    expect(res.body.query).toMatch(/\nFROM/);
    expect(res.body.query).not.toContain('Gizmo');
    expect(res.body.params).toEqual(['Gizmo']);
    const bad = await t.http().post('/api/dataset/native').set(auth(admin)).send({ database: 0, query: {} }).expect(400);
    expect(bad.body.errors.database).toBe('value must be an integer greater than zero.');
  });

  /** A raw request to POST /api/dataset on the listening server (supertest cannot leave half-way). */
  const rawRequest = async (body: unknown, onResponse?: (res: http.IncomingMessage) => void) => {
    const server = t.app.getHttpServer();
    const address = server.address() ?? (await new Promise<void>((r) => server.listen(0, '127.0.0.1', r)), server.address());
    const req = http.request(
      {
        port: (address as { port: number }).port,
        host: '127.0.0.1',
        path: '/api/dataset',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Metabase-Session': admin },
      },
      onResponse,
    );
    req.on('error', () => undefined);
    req.end(JSON.stringify(body));
    return req;
  };
  const busy = async () =>
    (await t.http().get('/api/util/diagnostic_info/connection_pool_info').set(auth(admin))).body['connection-pools'][`db-${db}`]
      ?.numBusyConnections ?? 0;
  const lazySeries = (select: string) =>
    `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT ${select} FROM c`;

  it('cancels the query on the database when the client disconnects', async () => {
    const req = await rawRequest({ database: db, type: 'native', native: { query: lazySeries('count(*)') } });
    await until(async () => (await busy()) === 1);
    req.destroy();
    await until(async () => (await busy()) === 0);
  });

  it('stops reading a large result, and frees the connection, when the client disconnects half-way', async () => {
    const body = { database: db, type: 'native', native: { query: lazySeries('x') }, constraints: { 'max-results': 100_000_000 } };
    const firstBytes = await new Promise<string>((resolve, reject) => {
      void rawRequest(body, (res) => {
        res.once('data', (chunk: Buffer) => {
          resolve(chunk.toString());
          res.destroy();
        });
        res.on('close', () => reject(new Error('closed before any rows')));
      });
    });
    // The rows were on their way: the answer had started streaming before the client left.
    expect(firstBytes.startsWith('{"data":{"rows":[[1],[2],')).toBe(true);
    await until(async () => (await busy()) === 0);
    // The execution log shows the run as cut short (cancelled on the database, or no longer read), with the rows
    // read until then.
    await t.app.get(QueryLogService).flush();
    const [logged] = await t.app
      .get(DataSource)
      .getRepository(QueryExecution)
      .find({ where: { native: true }, order: { id: 'DESC' }, take: 1 });
    expect(['The query was cancelled.', STOPPED_EARLY]).toContain(logged.error);
    expect(logged.result_rows).toBeGreaterThan(0);
  });
});
