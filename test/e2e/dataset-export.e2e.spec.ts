import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { binary, parseCsv, readXlsx } from '../support/downloads';
import { auth } from '../support/factories';
import { expect400, expect403 } from '../support/expect-wire';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { grantsChanged } from '../support/grants';

const DATE_TIME =
  /^(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}, \d{1,2}:\d\d (AM|PM)$/;

describe('POST /api/dataset/:export-format on the Sample Database', () => {
  let s: SampleApp;
  let orders: (limit: number, extra?: Record<string, unknown>) => Record<string, unknown>;
  const post = (format: string, session = s.admin) => s.t.http().post(`/api/dataset/${format}`).set(auth(session));
  const form = (format: string, fields: Record<string, string>, session = s.admin) => post(format, session).type('form').send(fields);

  beforeAll(async () => {
    s = await startSampleApp();
    orders = (limit, extra = {}) => ({
      database: s.db,
      type: 'query',
      query: {
        'source-table': s.table('ORDERS').id,
        fields: [
          ['field', s.field('ORDERS', 'ID'), null],
          ['field', s.field('ORDERS', 'TOTAL'), null],
          ['field', s.field('ORDERS', 'CREATED_AT'), null],
        ],
        'order-by': [['asc', ['field', s.field('ORDERS', 'ID'), null]]],
        limit,
        ...extra,
      },
    });
  });
  afterAll(() => s.t.close());

  it('downloads CSV from a form: display names, readable dates, attachment header', async () => {
    const res = await form('csv', { query: JSON.stringify(orders(3)), visualization_settings: '{}', format_rows: 'true' }).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="query_result_\d{4}-\d\d-\d\dT\d{6}\.csv"$/);
    const [header, ...rows] = parseCsv(res.text);
    // Total is a currency column: its currency goes in the header when formatting, as in Metabase.
    expect(header).toEqual(['ID', 'Total ($)', 'Created At']);
    expect(rows.map((r) => r[0])).toEqual(['1', '2', '3']);
    expect(Number(rows[0][1])).toBeGreaterThan(0);
    expect(rows[0][2]).toMatch(DATE_TIME);
  });

  it("writes raw values without format_rows (Metabase's default) or with false, from a JSON body too", async () => {
    const res = await post('csv')
      .send({ query: JSON.stringify(orders(2)), format_rows: 'false' })
      .expect(200);
    const rows = parseCsv(res.text).slice(1);
    expect(rows[0][2]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    expect(
      parseCsv(
        (
          await post('csv')
            .send({ query: JSON.stringify(orders(2)) })
            .expect(200)
        ).text,
      ).slice(1),
    ).toEqual(rows);
    const formatted = parseCsv(
      (
        await post('csv')
          .send({ query: JSON.stringify(orders(2)), format_rows: 'true' })
          .expect(200)
      ).text,
    ).slice(1);
    expect(formatted.map((r) => r.slice(0, 2))).toEqual(rows.map((r) => r.slice(0, 2)));
  });

  it('formats temporal buckets after their unit', async () => {
    const byMonth = {
      database: s.db,
      type: 'query',
      query: {
        'source-table': s.table('ORDERS').id,
        aggregation: [['count']],
        breakout: [['field', s.field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'month' }]],
        limit: 3,
      },
    };
    const rows = parseCsv((await form('csv', { query: JSON.stringify(byMonth), format_rows: 'true' }).expect(200)).text);
    expect(rows[0]).toEqual(['Created At: Month', 'Count']);
    expect(rows[1][0]).toMatch(/^[A-Z][a-z]+, \d{4}$/);
  });

  it('renames columns by column_title, by name and by field ref', async () => {
    const viz = {
      column_settings: {
        '["name","TOTAL"]': { column_title: 'Total $' },
        [JSON.stringify(['ref', ['field', s.field('ORDERS', 'CREATED_AT'), null]])]: { column_title: 'Ordered', date_style: 'M/D/YYYY' },
      },
    };
    const res = await form('json', { query: JSON.stringify(orders(1)), visualization_settings: JSON.stringify(viz) }).expect(200);
    expect(Object.keys(res.body[0])).toEqual(['ID', 'Total $', 'Ordered']);
  });

  it('defuses text cells and titles a spreadsheet would run as formulas in CSV, and leaves XLSX text as text', async () => {
    const sql = `SELECT '=cmd|''/C calc''!A0' AS "@evil", '-2+3' AS t, -5 AS n, 'fine' AS ok`;
    const query = JSON.stringify({ database: s.db, type: 'native', native: { query: sql } });
    const rows = parseCsv((await form('csv', { query }).expect(200)).text);
    expect(rows).toEqual([
      ["'@evil", 't', 'n', 'ok'],
      ["'=cmd|'/C calc'!A0", "'-2+3", '-5', 'fine'],
    ]);
    const sheet = await readXlsx((await form('xlsx', { query }).buffer(true).parse(binary).expect(200)).body);
    expect(sheet.getCell('A2').value).toBe("=cmd|'/C calc'!A0");
    expect(sheet.getCell('A2').formula).toBeUndefined();
  });

  it('downloads JSON: objects keyed by display name', async () => {
    const res = await form('json', { query: JSON.stringify(orders(2)), format_rows: 'true' }).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(/filename="query_result_.*\.json"/);
    expect(res.body).toHaveLength(2);
    expect(Object.keys(res.body[0])).toEqual(['ID', 'Total ($)', 'Created At']);
    expect(res.body[0].ID).toBe('1');
    expect(res.body[0]['Total ($)']).toMatch(/^[\d,]+\.\d\d$/);
    expect(res.body[0]['Created At']).toMatch(DATE_TIME);
    const raw = await form('json', { query: JSON.stringify(orders(1)), format_rows: 'false' }).expect(200);
    expect(raw.body[0]['Created At']).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('downloads XLSX: a bold header and real dates', async () => {
    const res = await form('xlsx', { query: JSON.stringify(orders(3)), format_rows: 'true' })
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/filename="query_result_.*\.xlsx"/);
    const sheet = await readXlsx(res.body);
    expect(sheet.getRow(1).values).toEqual([undefined, 'ID', 'Total ($)', 'Created At']);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getCell('A1').font?.bold).toBe(true);
    expect([sheet.getCell('A2').value, sheet.getCell('A4').value]).toEqual([1, 3]);
    expect(typeof sheet.getCell('B2').value).toBe('number');
    expect(sheet.getCell('C2').value).toBeInstanceOf(Date);
    expect(sheet.getCell('C2').numFmt).toBe('mmmm d, yyyy, h:mm AM/PM');
    expect(sheet.rowCount).toBe(4);
  });

  it('answers the api format as result JSON with 200', async () => {
    const res = await form('api', { query: JSON.stringify(orders(2)) }).expect(200);
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.body).toMatchObject({ status: 'completed', row_count: 2, context: 'ad-hoc' });
    expect(res.body.data.rows.map((r: unknown[]) => r[0])).toEqual([1, 2]);
    expect(res.body.data.rows[0][2]).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('is not held to the 2,000-row ad-hoc cap, nor to the query constraints', async () => {
    const query = { ...orders(5000), constraints: { 'max-results': 10, 'max-results-bare-rows': 10 } };
    const csv = parseCsv((await form('csv', { query: JSON.stringify(query) }).expect(200)).text);
    expect(csv).toHaveLength(5001);
    expect(csv[5000][0]).toBe('5000');
    const json = await post('json')
      .send({ query: JSON.stringify(orders(5000)) })
      .expect(200);
    expect(json.body).toHaveLength(5000);
    const sheet = await readXlsx(
      (
        await form('xlsx', { query: JSON.stringify(orders(5000)) })
          .buffer(true)
          .parse(binary)
          .expect(200)
      ).body,
    );
    expect(sheet.rowCount).toBe(5001);
    expect(sheet.getCell('A5001').value).toBe(5000);
    const api = await form('api', { query: JSON.stringify(orders(5000)) }).expect(200);
    expect([api.body.row_count, api.body.data.rows.length]).toEqual([5000, 5000]);
  });

  it('logs each run with its download context', async () => {
    const ds = s.t.app.get(DataSource);
    const log = s.t.app.get(QueryLogService);
    const contexts = async () =>
      (await ds.query('SELECT context FROM query_execution ORDER BY id')).map((r: { context: string }) => r.context);
    await log.flush();
    const before = (await contexts()).length;
    for (const f of ['csv', 'json', 'xlsx', 'api'])
      await form(f, { query: JSON.stringify(orders(1)) })
        .buffer(true)
        .parse(binary)
        .expect(200);
    await log.flush();
    expect((await contexts()).slice(before)).toEqual(['csv-download', 'json-download', 'xlsx-download', 'ad-hoc']);
  });

  it('validates the format, the query and the flags', async () => {
    const query = JSON.stringify(orders(1));
    expect400(await form('pdf', { query }), 'export-format', 'value must be one of: `csv`, `api`, `xlsx`, `json`.');
    expect400(await form('csv', {}), 'query', 'value must be a valid JSON string.');
    expect400(await form('csv', { query: '{"database":' }), 'query', 'value must be a valid JSON string.');
    expect400(await form('csv', { query, format_rows: 'yes' }), 'format_rows', 'value must be a valid boolean string.');
    expect400(await form('csv', { query, pivot_results: 'maybe' }), 'pivot_results', 'value must be a valid boolean string.');
    expect400(await form('csv', { query, visualization_settings: 'nope' }), 'visualization_settings', 'value must be a valid JSON string.');
    // Without breakouts there is nothing to pivot: the rows come as the query answers them.
    expect(parseCsv((await form('csv', { query, pivot_results: 'true' }).expect(200)).text)).toHaveLength(2);
    expect((await s.t.http().post('/api/dataset/csv').type('form').send({ query }).expect(401)).text).toBe('Unauthenticated');
  });

  it('lays out a query with breakouts as the pivot table shows it with pivot_results, totals matching independent sums', async () => {
    const byCategoryAndYear = {
      database: s.db,
      type: 'query',
      query: {
        'source-table': s.table('PRODUCTS').id,
        aggregation: [['count']],
        breakout: [
          ['field', s.field('PRODUCTS', 'CATEGORY'), null],
          ['field', s.field('PRODUCTS', 'CREATED_AT'), { 'temporal-unit': 'year' }],
        ],
      },
    };
    const viz = { 'pivot_table.column_split': { rows: ['CATEGORY'], columns: ['CREATED_AT'], values: ['count'] } };
    const plain = parseCsv((await form('csv', { query: JSON.stringify(byCategoryAndYear) }).expect(200)).text);
    expect(plain[0]).toEqual(['Category', 'Created At: Year', 'Count']);
    const res = await form('csv', {
      query: JSON.stringify(byCategoryAndYear),
      visualization_settings: JSON.stringify(viz),
      pivot_results: 'true',
    }).expect(200);
    const [header, ...rows] = parseCsv(res.text);
    const years = [...new Set(plain.slice(1).map((r) => r[1].slice(0, 4)))].sort();
    expect(header).toEqual(['Category', ...years, 'Row totals']);
    const categories = [...new Set(plain.slice(1).map((r) => r[0]))].sort();
    expect(rows.map((r) => r[0])).toEqual([...categories, 'Grand totals']);
    // Each cell is the detail row's count; the totals are the sums of the cells (a count adds up).
    const sum = (cells: string[]) => cells.reduce((a, c) => a + (c === '' ? 0 : Number(c)), 0);
    for (const row of rows.slice(0, -1)) {
      const counts = plain.slice(1).filter((r) => r[0] === row[0]);
      for (const [i, year] of years.entries()) expect(row[i + 1]).toBe(counts.find((r) => r[1].startsWith(year))?.[2] ?? '');
      expect(Number(row[row.length - 1])).toBe(sum(row.slice(1, -1)));
    }
    const grand = rows[rows.length - 1];
    years.forEach((_, i) => expect(Number(grand[i + 1])).toBe(sum(rows.slice(0, -1).map((r) => r[i + 1]))));
    expect(Number(grand[grand.length - 1])).toBe(200);
    const sheet = await readXlsx(
      (
        await form('xlsx', { query: JSON.stringify(byCategoryAndYear), visualization_settings: JSON.stringify(viz), pivot_results: 'true' })
          .buffer(true)
          .parse(binary)
          .expect(200)
      ).body,
    );
    expect(sheet.getCell(`A${rows.length + 1}`).value).toBe('Grand totals');
    expect(sheet.getCell(sheet.getRow(rows.length + 1).getCell(header.length).address).value).toBe(200);
  });

  it('answers 403 as the usual error, not as a file, without data access', async () => {
    const ds = s.t.app.get(DataSource);
    const query = JSON.stringify(orders(1));
    expect(parseCsv((await form('csv', { query }, s.user.session).expect(200)).text)).toHaveLength(2);
    await ds.query("UPDATE database_permission SET data = 'no'");
    await grantsChanged(s.t.app);
    try {
      for (const f of ['csv', 'xlsx', 'json', 'api']) {
        const res = await form(f, { query }, s.user.session);
        expect403(res);
        expect(res.headers['content-disposition']).toBeUndefined();
      }
    } finally {
      await ds.query("UPDATE database_permission SET data = 'unrestricted'");
      await grantsChanged(s.t.app);
    }
  });

  it('answers 400 with the error of a query that fails before any row (202 for api)', async () => {
    const bad = JSON.stringify({ database: s.db, type: 'native', native: { query: 'SELECT * FROM NO_SUCH_TABLE' } });
    for (const f of ['csv', 'xlsx', 'json']) {
      const res: Response = await form(f, { query: bad });
      expect([res.status, res.body.status, res.body.error_type]).toEqual([400, 'failed', 'db']);
      expect(res.body.message).toBe(res.body.error);
      expect(res.body.error).toMatch(/NO_SUCH_TABLE/);
      expect(res.headers['content-disposition']).toBeUndefined();
    }
    const invalid = await form('csv', {
      query: JSON.stringify({
        database: s.db,
        type: 'query',
        query: { 'source-table': s.table('ORDERS').id, aggregation: [['frobnicate']] },
      }),
    });
    expect([invalid.status, invalid.body.error_type]).toEqual([400, 'invalid-query']);
    const api = await form('api', { query: bad }).expect(202);
    expect(api.body).toMatchObject({ status: 'failed', error_type: 'db', row_count: 0 });
  });

  it('leaves the literal /api/dataset routes to their own handlers', async () => {
    const native = await post('native')
      .send({ database: s.db, query: { 'source-table': s.table('PRODUCTS').id } })
      .expect(200);
    expect(native.body.query).toMatch(/SELECT/);
    const duration = await post('duration')
      .send({ database: s.db, type: 'query', query: { 'source-table': s.table('PRODUCTS').id } })
      .expect(200);
    expect(typeof duration.body.average).toBe('number');
    const pivot = await post('pivot')
      .send({ database: s.db, type: 'query', query: { 'source-table': s.table('PRODUCTS').id, aggregation: [['count']] } })
      .expect(202);
    expect(pivot.body.status).toBe('completed');
  });
});
