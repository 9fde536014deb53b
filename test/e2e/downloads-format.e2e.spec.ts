import { makeCard, nativeQuery, tableQuery } from '../support/card-factories';
import { binary, parseCsv, readXlsx } from '../support/downloads';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(90_000);

/** The column settings of a card, applied to its downloads: formatted with format_rows=true, raw without. */
describe('card downloads: visualization settings and value formatting', () => {
  let s: SampleApp;
  const download = (cardId: number, format: string, formatRows: boolean) =>
    s.t
      .http()
      .post(`/api/card/${cardId}/query/${format}`)
      .set(auth(s.admin))
      .type('form')
      .send({ format_rows: String(formatRows) })
      .buffer(true)
      .parse(binary)
      .expect(200);
  const csv = async (cardId: number, formatRows: boolean) => parseCsv((await download(cardId, 'csv', formatRows)).body.toString());
  const json = async (cardId: number, formatRows: boolean) => JSON.parse((await download(cardId, 'json', formatRows)).body.toString());

  beforeAll(async () => {
    s = await startSampleApp();
  });
  afterAll(() => s.t.close());

  const name = (column: string) => JSON.stringify(['name', column]);

  it('numbers: separators, decimals, scale, prefix and suffix, percent, scientific, currency in the value or the header', async () => {
    const sql = 'SELECT 1234567.891 AS big, 0.1234 AS share, 123456.0 AS sci, 7 AS n, 1234.5 AS money, 99.5 AS price, 42.25 AS plain';
    const viz = {
      column_settings: {
        [name('big')]: { number_separators: ',.', decimals: 1 },
        [name('share')]: { number_style: 'percent', decimals: 1 },
        [name('sci')]: { number_style: 'scientific' },
        [name('n')]: { scale: 10, prefix: '#', suffix: ' pcs' },
        [name('money')]: { number_style: 'currency', currency: 'EUR', currency_style: 'symbol', currency_in_header: false },
        [name('price')]: { number_style: 'currency', currency: 'USD', currency_style: 'code', column_title: 'Price' },
      },
    };
    const card = await makeCard(s.t, s.admin, nativeQuery(s.db, sql), { visualization_settings: viz });
    const formatted = await csv(card.id, true);
    expect(formatted).toEqual([
      ['big', 'share', 'sci', 'n', 'money', 'Price (USD)', 'plain'],
      ['1.234.567,9', '12.3%', '1.23e+5', '#70 pcs', '€1,234.50', '99.50', '42.25'],
    ]);
    // Raw: the values as the query answered them; titles still renamed, no currency in the header.
    expect(await csv(card.id, false)).toEqual([
      ['big', 'share', 'sci', 'n', 'money', 'Price', 'plain'],
      ['1234567.891', '0.1234', '123456', '7', '1234.5', '99.5', '42.25'],
    ]);
    expect((await json(card.id, true))[0]).toEqual({
      big: '1.234.567,9',
      share: '12.3%',
      sci: '1.23e+5',
      n: '#70 pcs',
      money: '€1,234.50',
      'Price (USD)': '99.50',
      plain: '42.25',
    });
    expect((await json(card.id, false))[0]).toEqual({
      big: 1234567.891,
      share: 0.1234,
      sci: 123456,
      n: 7,
      money: 1234.5,
      Price: 99.5,
      plain: 42.25,
    });

    // XLSX keeps numbers as numbers (scaled), with an Excel number format after the settings.
    const sheet = await readXlsx((await download(card.id, 'xlsx', true)).body);
    expect(sheet.getRow(1).values).toEqual([undefined, 'big', 'share', 'sci', 'n', 'money', 'Price (USD)', 'plain']);
    const cells = ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((c) => sheet.getCell(`${c}2`));
    expect(cells.map((c) => c.value)).toEqual([1234567.891, 0.1234, 123456, 70, 1234.5, 99.5, 42.25]);
    expect(cells.map((c) => c.numFmt ?? null)).toEqual([
      '#,##0.0',
      '#,##0.0%',
      '0.00E+00',
      '"#"#,##0" pcs"',
      '"€"#,##0.00',
      '#,##0.00',
      null,
    ]);
    const raw = await readXlsx((await download(card.id, 'xlsx', false)).body);
    expect(raw.getCell('D2').value).toBe(7);
    expect(raw.getCell('D2').numFmt ?? null).toBeNull();
  });

  it('dates: style, separator, abbreviation, time style and precision, and the unit of a breakout', async () => {
    const createdAt = s.field('ORDERS', 'CREATED_AT');
    const query = tableQuery(s.db, s.table('ORDERS').id, {
      fields: [
        ['field', s.field('ORDERS', 'ID'), null],
        ['field', createdAt, null],
      ],
      'order-by': [['asc', ['field', s.field('ORDERS', 'ID'), null]]],
      limit: 3,
    });
    const viz = {
      column_settings: {
        [JSON.stringify(['ref', ['field', createdAt, null]])]: {
          date_style: 'D/M/YYYY',
          date_separator: '-',
          time_style: 'HH:mm',
          time_enabled: 'seconds',
        },
      },
    };
    const card = await makeCard(s.t, s.admin, query, { visualization_settings: viz });
    const raw = (await csv(card.id, false)).slice(1);
    const formatted = (await csv(card.id, true)).slice(1);
    raw.forEach((r, i) => {
      const [, y, mo, d, h, mi, sec] = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)/.exec(r[1])!;
      expect(formatted[i][1]).toBe(`${Number(d)}-${Number(mo)}-${y}, ${h}:${mi}:${sec}`);
    });
    const sheet = await readXlsx((await download(card.id, 'xlsx', true)).body);
    expect(sheet.getCell('B2').value).toBeInstanceOf(Date);
    expect(sheet.getCell('B2').numFmt).toBe('d-m-yyyy, hh:mm:ss');

    const abbreviated = await makeCard(s.t, s.admin, query, {
      visualization_settings: {
        column_settings: { [name('CREATED_AT')]: { date_style: 'dddd, MMMM D, YYYY', date_abbreviate: true, time_enabled: null } },
      },
    });
    expect((await csv(abbreviated.id, true))[1][1]).toMatch(
      /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat), (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}$/,
    );

    const byMonth = tableQuery(s.db, s.table('ORDERS').id, {
      aggregation: [['count']],
      breakout: [['field', createdAt, { 'temporal-unit': 'month' }]],
      limit: 2,
    });
    const monthly = await makeCard(s.t, s.admin, byMonth, {
      visualization_settings: { column_settings: { [name('CREATED_AT')]: { date_style: 'M/D/YYYY' } } },
    });
    const months = await csv(monthly.id, true);
    expect(months[1][0]).toMatch(/^\d{1,2}\/\d{4}$/);
    const monthSheet = await readXlsx((await download(monthly.id, 'xlsx', true)).body);
    expect(monthSheet.getCell('A2').numFmt).toBe('m/yyyy');
  });

  it('columns: order and hidden columns from table.columns, titles from column_title; XLSX typed, bold frozen header, widths', async () => {
    const query = tableQuery(s.db, s.table('PRODUCTS').id, {
      fields: [
        ['field', s.field('PRODUCTS', 'ID'), null],
        ['field', s.field('PRODUCTS', 'TITLE'), null],
        ['field', s.field('PRODUCTS', 'PRICE'), null],
        ['field', s.field('PRODUCTS', 'CREATED_AT'), null],
      ],
      'order-by': [['asc', ['field', s.field('PRODUCTS', 'ID'), null]]],
    });
    const viz = {
      'table.columns': [
        { name: 'TITLE', fieldRef: ['field', s.field('PRODUCTS', 'TITLE'), null], enabled: true },
        { name: 'ID', enabled: false },
        { name: 'CREATED_AT', enabled: true },
        { name: 'PRICE', enabled: true },
      ],
      column_settings: { [name('TITLE')]: { column_title: 'Product name' } },
    };
    const card = await makeCard(s.t, s.admin, query, { visualization_settings: viz });
    const rows = await csv(card.id, false);
    expect(rows[0]).toEqual(['Product name', 'Created At', 'Price']);
    expect(rows).toHaveLength(201);
    const sheet = await readXlsx((await download(card.id, 'xlsx', false)).body);
    expect(sheet.getRow(1).values).toEqual([undefined, 'Product name', 'Created At', 'Price']);
    expect(sheet.getRow(1).font?.bold ?? sheet.getCell('A1').font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(typeof sheet.getCell('A2').value).toBe('string');
    expect(sheet.getCell('B2').value).toBeInstanceOf(Date);
    expect(sheet.getCell('B2').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(typeof sheet.getCell('C2').value).toBe('number');
    expect(sheet.rowCount).toBe(201);
    // Titles are long, prices short: the widths follow the content.
    const longest = Math.max(...rows.slice(1, 101).map((r) => r[0].length));
    expect(sheet.getColumn(1).width).toBeGreaterThanOrEqual(Math.min(longest, 60));
    expect(sheet.getColumn(3).width).toBeLessThan(sheet.getColumn(1).width!);
  });
});
