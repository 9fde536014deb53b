import { DataSource } from 'typeorm';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { STOPPED_EARLY } from '../../src/query-engine/execute/query-processor';
import { QuerySlots } from '../../src/modules/warehouse/query-slots';
import { makeCard, nativeQuery, tableQuery } from '../support/card-factories';
import { binary, leaveAfterFirstBytes, parseCsv, readXlsx } from '../support/downloads';
import { expect400, expect404 } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { until } from '../support/until';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { waitForSync } from '../support/sync-wait';
import { availableEngines, serverAdmin } from '../support/warehouses';

jest.setTimeout(90_000);

const STAMP = '\\d{4}-\\d\\d-\\d\\dT\\d{6}';
const TYPES: Record<string, RegExp> = {
  csv: /^text\/csv/,
  json: /^application\/json/,
  xlsx: /^application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet$/,
};

/** A recursive CTE of `n` rows on SQLite: `x` from 1. */
const counting = (n: number, select = 'x') =>
  `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${n}) SELECT ${select} FROM c`;

describe('POST /api/card/:card-id/query/:export-format', () => {
  let s: SampleApp;
  let ordersCard: { id: number; name: string };
  const post = (path: string, session = s.admin) => s.t.http().post(path).set(auth(session));
  const download = (cardId: number, format: string, fields: Record<string, string> = {}) =>
    post(`/api/card/${cardId}/query/${format}`).type('form').send(fields).buffer(true).parse(binary);
  const logged = async () => {
    await s.t.app.get(QueryLogService).flush();
    return s.t.app.get(DataSource).query('SELECT context, card_id, dashboard_id, result_rows, error FROM query_execution ORDER BY id');
  };

  beforeAll(async () => {
    s = await startSampleApp();
    const query = tableQuery(s.db, s.table('ORDERS').id, {
      fields: [
        ['field', s.field('ORDERS', 'ID'), null],
        ['field', s.field('ORDERS', 'TOTAL'), null],
        ['field', s.field('ORDERS', 'CREATED_AT'), null],
      ],
      'order-by': [['asc', ['field', s.field('ORDERS', 'ID'), null]]],
      limit: 2500,
    });
    ordersCard = (await makeCard(s.t, s.admin, query, { name: 'Orders report' })) as unknown as { id: number; name: string };
  });
  afterAll(() => s.t.close());

  it('answers every format as a file named after the card, with as many rows as the card query, beyond the 2,000 ad-hoc rows', async () => {
    const run = await post(`/api/card/${ordersCard.id}/query`).send({}).expect(202);
    expect(run.body.row_count).toBe(2000);
    for (const format of ['csv', 'json', 'xlsx']) {
      const res = await download(ordersCard.id, format).expect(200);
      expect(res.headers['content-type']).toMatch(TYPES[format]);
      expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="Orders report_${STAMP}\\.${format}"$`));
      const body = res.body as Buffer;
      if (format === 'csv') {
        const [header, ...rows] = parseCsv(body.toString());
        expect(header).toEqual(['ID', 'Total', 'Created At']);
        expect(rows).toHaveLength(2500);
        expect(rows[2499][0]).toBe('2500');
      } else if (format === 'json') {
        const rows = JSON.parse(body.toString());
        expect(rows).toHaveLength(2500);
        expect(Object.keys(rows[0])).toEqual(['ID', 'Total', 'Created At']);
        expect(rows[0].ID).toBe(1);
      } else {
        const sheet = await readXlsx(body);
        expect(sheet.getRow(1).values).toEqual([undefined, 'ID', 'Total', 'Created At']);
        expect(sheet.rowCount).toBe(2501);
        expect(sheet.getCell('A2501').value).toBe(2500);
      }
    }
    const api = await post(`/api/card/${ordersCard.id}/query/api`).send({}).expect(200);
    expect(api.headers['content-disposition']).toBeUndefined();
    expect([api.body.status, api.body.row_count]).toEqual(['completed', 2500]);
  });

  it('logs each download with its context and the card id', async () => {
    const card = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT 1 AS one'));
    for (const format of ['csv', 'xlsx', 'json', 'api']) await download(card.id, format).expect(200);
    const mine = (await logged()).filter((r: { card_id: number }) => r.card_id === card.id);
    expect(mine.map((r: { context: string; dashboard_id: number | null }) => [r.context, r.dashboard_id])).toEqual([
      ['csv-download', null],
      ['xlsx-download', null],
      ['json-download', null],
      ['question', null],
    ]);
  });

  it('takes parameters as a JSON string (form) or as a list (JSON body), and the card defaults', async () => {
    const tags = { cat: { id: 'c1', name: 'cat', 'display-name': 'Cat', type: 'text' } };
    const card = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT count(*) AS n FROM PRODUCTS WHERE CATEGORY = {{cat}}', tags), {
      parameters: [
        { id: 'c1', slug: 'cat', name: 'Cat', type: 'category', target: ['variable', ['template-tag', 'cat']], default: 'Gizmo' },
      ],
    });
    const count = async (category: string) =>
      (
        await post('/api/dataset')
          .send(nativeQuery(s.db, `SELECT count(*) AS n FROM PRODUCTS WHERE CATEGORY = '${category}'`))
          .expect(202)
      ).body.data.rows[0][0];
    const widget = [{ id: 'c1', type: 'category', target: ['variable', ['template-tag', 'cat']], value: 'Widget' }];
    const form = parseCsv((await download(card.id, 'csv', { parameters: JSON.stringify(widget) }).expect(200)).body.toString());
    expect(form).toEqual([['n'], [String(await count('Widget'))]]);
    const json = await post(`/api/card/${card.id}/query/json`).send({ parameters: widget }).expect(200);
    expect(json.body).toEqual([{ n: await count('Widget') }]);
    const byDefault = await post(`/api/card/${card.id}/query/json`).send({}).expect(200);
    expect(byDefault.body).toEqual([{ n: await count('Gizmo') }]);
  });

  it('validates the format, the parameters and the flags, and answers 404 for a missing card', async () => {
    const id = ordersCard.id;
    expect400(
      await post(`/api/card/${id}/query/pdf`).type('form').send({}),
      'export-format',
      'value must be one of: `csv`, `api`, `xlsx`, `json`.',
    );
    expect400(
      await post(`/api/card/${id}/query/csv`).type('form').send({ parameters: '[{' }),
      'parameters',
      'value must be a valid JSON string.',
    );
    expect400(
      await post(`/api/card/${id}/query/csv`).type('form').send({ parameters: '{"a":1}' }),
      'parameters',
      'value must be a valid JSON string.',
    );
    expect400(await post(`/api/card/${id}/query/csv`).send({ parameters: 'x' }), 'parameters', 'value must be a valid JSON string.');
    expect400(await post(`/api/card/${id}/query/csv`).send({ parameters: [1] }), 'parameters', 'value must be an array of maps.');
    expect400(
      await post(`/api/card/${id}/query/csv`).type('form').send({ format_rows: 'yes' }),
      'format_rows',
      'value must be a valid boolean string.',
    );
    expect400(
      await post(`/api/card/${id}/query/csv`).type('form').send({ pivot_results: '1' }),
      'pivot_results',
      'value must be a valid boolean string.',
    );
    expect400(await post('/api/card/0/query/csv').type('form').send({}), 'card-id', 'value must be an integer greater than zero.');
    expect404(await post('/api/card/999999/query/csv').type('form').send({}));
    expect((await s.t.http().post(`/api/card/${id}/query/csv`).type('form').send({}).expect(401)).text).toBe('Unauthenticated');
  });

  it('puts a non-ASCII card name in filename*, with an ASCII fallback', async () => {
    const card = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT 1 AS one'), { name: 'Ventes "été" €/mois' });
    const res = await download(card.id, 'csv').expect(200);
    const disposition = res.headers['content-disposition'];
    expect(disposition).toMatch(new RegExp(`^attachment; filename="Ventes __t__ __mois_${STAMP}\\.csv"; filename\\*=UTF-8''`));
    const encoded = /filename\*=UTF-8''(.*)$/.exec(disposition)![1];
    expect(decodeURIComponent(encoded)).toMatch(new RegExp(`^Ventes "été" €_mois_${STAMP}\\.csv$`));
  });

  it('answers 400 with {message} for a query that fails before the first row', async () => {
    const card = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT * FROM NO_SUCH_TABLE'));
    for (const format of ['csv', 'xlsx', 'json']) {
      const res = await post(`/api/card/${card.id}/query/${format}`).type('form').send({});
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/NO_SUCH_TABLE/);
      expect(res.headers['content-disposition']).toBeUndefined();
    }
  });

  it('ends the file with the incomplete marker when the query fails after the first rows', async () => {
    // abs() of the smallest integer overflows: SQLite fails on row 5,000, after the first batches went out.
    const sql = counting(10000, 'x, CASE WHEN x < 5000 THEN x ELSE abs(-9223372036854775807 - 1) END AS y');
    const card = await makeCard(s.t, s.admin, nativeQuery(s.db, sql));
    const marker = /^Download incomplete: the query failed after \d+ rows\. .*overflow/i;

    const csv = parseCsv((await download(card.id, 'csv').expect(200)).body.toString());
    const last = csv[csv.length - 1];
    expect(last).toHaveLength(1);
    expect(last[0]).toMatch(marker);
    expect(csv.length - 2).toBeGreaterThan(0);
    expect(csv.length - 2).toBeLessThan(5000);
    expect(last[0]).toContain(`after ${csv.length - 2} rows`);

    const json = (await download(card.id, 'json').expect(200)).body.toString();
    expect(() => JSON.parse(json)).toThrow();
    const lastElement = JSON.parse(json.slice(json.lastIndexOf(',{"download_incomplete"') + 1));
    expect(lastElement.download_incomplete).toMatch(marker);

    const sheet = await readXlsx((await download(card.id, 'xlsx').expect(200)).body);
    expect(String(sheet.getCell(`A${sheet.rowCount}`).value)).toMatch(marker);
    expect(sheet.getCell(`B${sheet.rowCount}`).value).toBeNull();

    const errors = (await logged()).filter((r: { card_id: number }) => r.card_id === card.id).map((r: { error: string | null }) => r.error);
    expect(errors).toHaveLength(3);
    errors.forEach((e: string | null) => expect(e).toMatch(/overflow/i));
  });

  it('lays out a pivot card as its pivot table with pivot_results, and other cards as they are', async () => {
    const query = tableQuery(s.db, s.table('PRODUCTS').id, {
      aggregation: [['count']],
      breakout: [
        ['field', s.field('PRODUCTS', 'CATEGORY'), null],
        ['field', s.field('PRODUCTS', 'CREATED_AT'), { 'temporal-unit': 'year' }],
      ],
    });
    const viz = { 'pivot_table.column_split': { rows: ['CATEGORY'], columns: ['CREATED_AT'], values: ['count'] } };
    const pivot = await makeCard(s.t, s.admin, query, { display: 'pivot', visualization_settings: viz });
    const table = await makeCard(s.t, s.admin, query, { display: 'table', visualization_settings: viz });
    const plain = parseCsv((await download(pivot.id, 'csv').expect(200)).body.toString());
    expect(plain[0]).toEqual(['Category', 'Created At: Year', 'Count']);
    const laid = parseCsv((await download(pivot.id, 'csv', { pivot_results: 'true' }).expect(200)).body.toString());
    expect(laid[0][0]).toBe('Category');
    expect(laid[0][laid[0].length - 1]).toBe('Row totals');
    const grand = laid[laid.length - 1];
    expect([grand[0], grand[grand.length - 1]]).toEqual(['Grand totals', '200']);
    const years = laid[0].slice(1, -1);
    const byYear = (year: string) =>
      plain
        .slice(1)
        .filter((r) => r[1].startsWith(year))
        .reduce((a, r) => a + Number(r[2]), 0);
    years.forEach((year, i) => expect(Number(grand[i + 1])).toBe(byYear(year)));
    const json = JSON.parse((await download(pivot.id, 'json', { pivot_results: 'true' }).expect(200)).body.toString());
    expect(json[json.length - 1]).toMatchObject({ Category: 'Grand totals', 'Row totals': 200 });
    expect(parseCsv((await download(table.id, 'csv', { pivot_results: 'true' }).expect(200)).body.toString())).toEqual(plain);
  });

  it('cancels the query when the client leaves mid-download', async () => {
    const card = await makeCard(s.t, s.admin, nativeQuery(s.db, counting(2_000_000_000)));
    const adminId = (await s.t.http().get('/api/user/current').set(auth(s.admin)).expect(200)).body.id as number;
    const slots = s.t.app.get(QuerySlots);
    const left = await leaveAfterFirstBytes(s.t.app.getHttpServer(), `/api/card/${card.id}/query/csv`, auth(s.admin), '{}');
    expect(left.status).toBe(200);
    expect(left.bytes).toBeGreaterThan(0);
    // The run ends well before its 2 billion rows: logged as stopped early, and its query slot given back.
    await until(async () => (await logged()).some((r: { card_id: number }) => r.card_id === card.id));
    const run = (await logged()).find((r: { card_id: number }) => r.card_id === card.id);
    // Cancelled through the request's abort signal, or stopped by the writer seeing the socket closed first.
    expect([STOPPED_EARLY, 'The query was cancelled.']).toContain(run.error);
    expect(run.result_rows).toBeLessThan(10_000_000);
    await until(() => slots.runningFor(adminId) === 0);
  });

  describe.each(availableEngines(['postgres']).map((e) => [e]))('on a %s warehouse', () => {
    let wh: E2eWarehouse;
    let db: number;
    beforeAll(async () => {
      wh = await e2eWarehouse('postgres', s.t.config.dataDir);
      db = (await post('/api/database').send({ engine: 'postgres', name: 'Downloads target', details: wh.details }).expect(200)).body
        .id as number;
      await waitForSync(s.t, s.admin, db);
    });
    afterAll(() => wh?.drop());

    it('writes typed XLSX cells: numbers, booleans, dates with a date format, text', async () => {
      const sql =
        "SELECT 42 AS n, 2.5::float8 AS f, true AS yes, false AS no, DATE '2024-05-01' AS d," +
        " TIMESTAMP '2024-05-01 10:15:30' AS ts, 'x' AS t";
      const card = await makeCard(s.t, s.admin, nativeQuery(db, sql));
      const sheet = await readXlsx((await download(card.id, 'xlsx', { format_rows: 'true' }).expect(200)).body);
      const cells = ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((c) => sheet.getCell(`${c}2`));
      expect(cells.map((c) => c.value)).toEqual([
        42,
        2.5,
        true,
        false,
        new Date('2024-05-01T00:00:00Z'),
        new Date('2024-05-01T10:15:30Z'),
        'x',
      ]);
      expect([cells[4].numFmt, cells[5].numFmt]).toEqual(['mmmm d, yyyy', 'mmmm d, yyyy, h:mm AM/PM']);
      expect(sheet.getCell('A1').font?.bold).toBe(true);
      const csv = parseCsv((await download(card.id, 'csv').expect(200)).body.toString());
      expect(csv[1].slice(0, 4)).toEqual(['42', '2.5', 'true', 'false']);
    });

    it('cancels the statement on the database when the client leaves mid-download', async () => {
      const marker = `download_cancel_${Date.now()}`;
      // generate_series in the select list streams its rows (in FROM it would be computed whole first).
      const card = await makeCard(
        s.t,
        s.admin,
        nativeQuery(db, `SELECT g AS ${marker}, md5(g::text) AS h FROM (SELECT generate_series(1, 2000000000) AS g) AS t`),
      );
      const pg = serverAdmin('postgres');
      const running = async () =>
        (await pg(`SELECT state FROM pg_stat_activity WHERE query LIKE '%${marker}%' AND pid <> pg_backend_pid() AND state <> 'idle'`))
          .length;
      const left = await leaveAfterFirstBytes(s.t.app.getHttpServer(), `/api/card/${card.id}/query/csv`, auth(s.admin), '{}');
      expect([left.status, left.bytes > 0]).toEqual([200, true]);
      // The statement ran while rows went out; once the client has left, nothing of it runs on the database.
      await until(async () => (await running()) === 0);
      await until(async () => (await logged()).some((r: { card_id: number }) => r.card_id === card.id));
      const run = (await logged()).find((r: { card_id: number }) => r.card_id === card.id);
      expect([STOPPED_EARLY, 'The query was cancelled.']).toContain(run.error);
    });
  });
});
