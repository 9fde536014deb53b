import { DataSource } from 'typeorm';
import { QueryExecution } from '../../src/schema/query-execution.entity';
import { rawQueryHash } from '../../src/modules/query-log/query-hash';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

/**
 * Queries in MBQL 5, as Metabase's current clients send them, on every query endpoint: each answers what its legacy
 * twin answers. The twins are written by hand here, options and all (test/engines runs every query case both ways).
 */
describe('MBQL 5 queries over HTTP', () => {
  let s: SampleApp;
  let n = 0;
  const uuid = () => ({ 'lib/uuid': `6f1c2d3e-0000-4000-8000-${String(++n).padStart(12, '0')}` });
  const post = (path: string, body: unknown) =>
    s.t
      .http()
      .post(`/api/dataset${path}`)
      .set(auth(s.admin))
      .send(body as object);

  /** Legacy: orders over 20 by product category (joined) and year, counted and summed, the most frequent first. */
  let legacy: () => Record<string, unknown>;
  let mbql5: () => Record<string, unknown>;
  /** Legacy: categories counted, then those with more than 100 orders (a second stage). */
  let legacyNested: () => Record<string, unknown>;
  let mbql5Nested: () => Record<string, unknown> & { stages: unknown[] };

  beforeAll(async () => {
    s = await startSampleApp();
    const O = (c: string) => s.field('ORDERS', c);
    const P = (c: string) => s.field('PRODUCTS', c);
    const orders = s.table('ORDERS').id;
    const products = s.table('PRODUCTS').id;
    const t = (base: string) => ({ 'base-type': base });
    const typed = (base: string, extra: Record<string, unknown> = {}) => ({
      ...uuid(),
      'base-type': base,
      'effective-type': base,
      ...extra,
    });

    legacy = () => ({
      database: s.db,
      type: 'query',
      query: {
        'source-table': orders,
        joins: [
          {
            alias: 'Products',
            'source-table': products,
            strategy: 'left-join',
            fields: 'none',
            condition: [
              '=',
              ['field', O('PRODUCT_ID'), t('type/Integer')],
              ['field', P('ID'), { ...t('type/BigInteger'), 'join-alias': 'Products' }],
            ],
          },
        ],
        expressions: { Net: ['-', ['field', O('TOTAL'), t('type/Float')], ['field', O('TAX'), t('type/Float')]] },
        filter: [
          'and',
          ['>', ['field', O('TOTAL'), t('type/Float')], 20],
          ['contains', ['field', P('CATEGORY'), { ...t('type/Text'), 'join-alias': 'Products' }], 'g', { 'case-sensitive': false }],
        ],
        aggregation: [['count'], ['aggregation-options', ['sum', ['expression', 'Net']], { name: 'net', 'display-name': 'Net total' }]],
        breakout: [
          ['field', P('CATEGORY'), { ...t('type/Text'), 'join-alias': 'Products' }],
          ['field', O('CREATED_AT'), { ...t('type/DateTime'), 'temporal-unit': 'year' }],
        ],
        'order-by': [
          ['desc', ['aggregation', 0]],
          ['asc', ['field', P('CATEGORY'), { ...t('type/Text'), 'join-alias': 'Products' }]],
        ],
        limit: 8,
      },
    });
    mbql5 = () => {
      const count = uuid();
      return {
        'lib/type': 'mbql/query',
        database: s.db,
        stages: [
          {
            'lib/type': 'mbql.stage/mbql',
            'source-table': orders,
            joins: [
              {
                'lib/type': 'mbql/join',
                'lib/options': uuid(),
                stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-table': products }],
                conditions: [
                  [
                    '=',
                    uuid(),
                    ['field', typed('type/Integer'), O('PRODUCT_ID')],
                    ['field', typed('type/BigInteger', { 'join-alias': 'Products' }), P('ID')],
                  ],
                ],
                alias: 'Products',
                strategy: 'left-join',
                fields: 'none',
              },
            ],
            expressions: [
              [
                '-',
                { ...uuid(), 'lib/expression-name': 'Net' },
                ['field', typed('type/Float'), O('TOTAL')],
                ['field', typed('type/Float'), O('TAX')],
              ],
            ],
            filters: [
              ['>', uuid(), ['field', typed('type/Float'), O('TOTAL')], 20],
              [
                'contains',
                { ...uuid(), 'case-sensitive': false },
                ['field', typed('type/Text', { 'join-alias': 'Products' }), P('CATEGORY')],
                'g',
              ],
            ],
            aggregation: [
              ['count', count],
              ['sum', { ...uuid(), name: 'net', 'display-name': 'Net total' }, ['expression', typed('type/Float'), 'Net']],
            ],
            breakout: [
              ['field', typed('type/Text', { 'join-alias': 'Products' }), P('CATEGORY')],
              ['field', typed('type/DateTime', { 'temporal-unit': 'year' }), O('CREATED_AT')],
            ],
            'order-by': [
              ['desc', uuid(), ['aggregation', uuid(), count['lib/uuid']]],
              ['asc', uuid(), ['field', typed('type/Text', { 'join-alias': 'Products' }), P('CATEGORY')]],
            ],
            limit: 8,
            'lib/stage-metadata': { 'lib/type': 'metadata/results', columns: [{ name: 'CATEGORY' }] },
          },
        ],
      };
    };
    legacyNested = () => ({
      database: s.db,
      type: 'query',
      query: {
        'source-query': { 'source-table': orders, breakout: [['field', O('PRODUCT_ID'), t('type/Integer')]], aggregation: [['count']] },
        filter: ['>', ['field', 'count', t('type/BigInteger')], 6],
        'order-by': [['asc', ['field', 'PRODUCT_ID', t('type/Integer')]]],
      },
    });
    mbql5Nested = () => ({
      'lib/type': 'mbql/query',
      database: s.db,
      stages: [
        {
          'lib/type': 'mbql.stage/mbql',
          'source-table': orders,
          breakout: [['field', typed('type/Integer'), O('PRODUCT_ID')]],
          aggregation: [['count', uuid()]],
        },
        {
          'lib/type': 'mbql.stage/mbql',
          filters: [['>', uuid(), ['field', typed('type/BigInteger'), 'count'], 6]],
          'order-by': [['asc', uuid(), ['field', typed('type/Integer'), 'PRODUCT_ID']]],
        },
      ],
    });
  });
  afterAll(() => s.t.close());

  const answer = (res: {
    body: {
      status: string;
      row_count: number;
      data: { rows: unknown[][]; cols: Array<{ name: string; display_name: string; field_ref: unknown }> };
    };
  }) => ({
    status: res.body.status,
    rows: res.body.data.rows,
    cols: res.body.data.cols.map((c) => [c.name, c.display_name, c.field_ref]),
  });

  it('POST /api/dataset: the same rows and columns as the legacy twin, for one stage and for two', async () => {
    const want = answer(await post('', legacy()).expect(202));
    expect(want.status).toBe('completed');
    expect(want.rows.length).toBeGreaterThan(0);
    expect(want.cols.map((c) => c[1])).toContain('Net total');
    expect(answer(await post('', mbql5()).expect(202))).toEqual(want);

    const nested = answer(await post('', legacyNested()).expect(202));
    expect(nested.rows.length).toBeGreaterThan(0);
    expect(answer(await post('', mbql5Nested()).expect(202))).toEqual(nested);
  });

  it('POST /api/dataset: relative-datetime and absolute-datetime filters give the rows of their legacy twins', async () => {
    const orders = s.table('ORDERS').id;
    const created = (unit?: string) => [
      'field',
      { ...uuid(), 'base-type': 'type/DateTime', ...(unit ? { 'temporal-unit': unit } : {}) },
      s.field('ORDERS', 'CREATED_AT'),
    ];
    const legacyCreated = (unit?: string) => ['field', s.field('ORDERS', 'CREATED_AT'), unit ? { 'temporal-unit': unit } : null];
    const counted5 = (filter: unknown) => ({
      'lib/type': 'mbql/query',
      database: s.db,
      stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-table': orders, aggregation: [['count', uuid()]], filters: [filter] }],
    });
    const countedLegacy = (filter: unknown) => ({
      database: s.db,
      type: 'query',
      query: { 'source-table': orders, aggregation: [['count']], filter },
    });
    const rows = async (body: unknown) => {
      const res = await post('', body).expect(202);
      expect(res.body.status).toBe('completed');
      return res.body.data.rows;
    };
    const pairs: Array<[unknown, unknown]> = [
      [
        ['between', uuid(), created('month'), ['relative-datetime', uuid(), -36, 'month'], ['relative-datetime', uuid(), -1, 'month']],
        ['time-interval', legacyCreated(), -36, 'month'],
      ],
      [
        ['=', uuid(), created('year'), ['relative-datetime', uuid(), -2, 'year']],
        ['and', ['time-interval', legacyCreated(), -2, 'year'], ['not', ['time-interval', legacyCreated(), -1, 'year']]],
      ],
      [
        ['>', uuid(), created(), ['absolute-datetime', uuid(), '2024-03-14T10:11:12', 'month']],
        ['>', legacyCreated(), '2024-03-01T00:00:00'],
      ],
    ];
    for (const [five, old] of pairs) {
      const want = await rows(countedLegacy(old));
      expect(want[0][0]).toBeGreaterThan(0);
      expect(await rows(counted5(five))).toEqual(want);
    }
  });

  it("POST /api/dataset: offset in an aggregation gives its legacy twin's rows (last month's count); refused in a filter", async () => {
    const orders = s.table('ORDERS').id;
    const month5 = ['field', { ...uuid(), 'base-type': 'type/DateTime', 'temporal-unit': 'month' }, s.field('ORDERS', 'CREATED_AT')];
    const count = () => ['count', uuid()];
    const growth = {
      'lib/type': 'mbql/query',
      database: s.db,
      stages: [
        {
          'lib/type': 'mbql.stage/mbql',
          'source-table': orders,
          aggregation: [count(), ['-', { ...uuid(), name: 'growth', 'display-name': 'Growth' }, count(), ['offset', uuid(), count(), -1]]],
          breakout: [month5],
        },
      ],
    };
    const twin = {
      database: s.db,
      type: 'query',
      query: {
        'source-table': orders,
        aggregation: [
          ['count'],
          ['aggregation-options', ['-', ['count'], ['offset', {}, ['count'], -1]], { name: 'growth', 'display-name': 'Growth' }],
        ],
        breakout: [['field', s.field('ORDERS', 'CREATED_AT'), { 'base-type': 'type/DateTime', 'temporal-unit': 'month' }]],
      },
    };
    const want = answer(await post('', twin).expect(202));
    expect(want.status).toBe('completed');
    expect(want.cols.map((c) => c[1])).toEqual(['Created At: Month', 'Count', 'Growth']);
    const rows = want.rows as Array<[string, number, number | null]>;
    expect(rows.length).toBeGreaterThan(2);
    expect(rows.map((r) => r[2])).toEqual(rows.map((r, i) => (i === 0 ? null : r[1] - rows[i - 1][1])));
    expect(answer(await post('', growth).expect(202))).toEqual(want);
    // A pivot of it: the grand total has one row, and no previous one.
    const pivot = answer(await post('/pivot', { ...growth, pivot_rows: [0], pivot_cols: [] }).expect(202));
    expect(pivot.status).toBe('completed');
    // Its rows: the month, pivot-grouping, the count and the growth.
    expect(pivot.rows.slice(0, rows.length).map((r) => r[3])).toEqual(rows.map((r) => r[2]));
    expect(pivot.rows.at(-1)).toEqual([null, 1, rows.reduce((sum, r) => sum + r[1], 0), null]);

    const inFilter = {
      'lib/type': 'mbql/query',
      database: s.db,
      stages: [
        {
          'lib/type': 'mbql.stage/mbql',
          'source-table': orders,
          aggregation: [count()],
          filters: [
            ['>', uuid(), ['offset', uuid(), ['field', { ...uuid(), 'base-type': 'type/Float' }, s.field('ORDERS', 'TOTAL')], -1], 0],
          ],
        },
      ],
    };
    expect((await post('', inFilter).expect(202)).body).toMatchObject({
      status: 'failed',
      error_type: 'invalid-query',
      error: '"offset" can only be used in an aggregation, not in a custom column or a filter in "stages[0].filters[0]".',
    });
  });

  it('POST /api/dataset: a native stage runs as a native query, with its template tags and parameters', async () => {
    const tags = { cat: { id: 'a1', name: 'cat', 'display-name': 'Cat', type: 'text' } };
    const sql = 'SELECT COUNT(*) AS n FROM PRODUCTS WHERE CATEGORY = {{cat}}';
    const parameters = [{ type: 'category', target: ['variable', ['template-tag', 'cat']], value: 'Gizmo' }];
    const want = await post('', { database: s.db, type: 'native', native: { query: sql, 'template-tags': tags }, parameters }).expect(202);
    const got = await post('', {
      'lib/type': 'mbql/query',
      database: s.db,
      stages: [{ 'lib/type': 'mbql.stage/native', native: sql, 'template-tags': tags }],
      parameters,
    }).expect(202);
    expect(got.body.status).toBe('completed');
    expect(got.body.data.rows).toEqual(want.body.data.rows);
    expect(got.body.data.rows[0][0]).toBeGreaterThan(0);
  });

  it('POST /api/dataset/native: the same SQL, for the query as the body or wrapped as {database, query}', async () => {
    const want = (await post('/native', { database: s.db, query: legacy().query, pretty: false }).expect(200)).body;
    expect(want.query).toMatch(/SELECT/);
    expect((await post('/native', { ...mbql5(), pretty: false }).expect(200)).body).toEqual(want);
    expect((await post('/native', { database: s.db, query: mbql5() }).expect(200)).body).toEqual(want);
    const nested = (await post('/native', { database: s.db, query: legacyNested().query }).expect(200)).body;
    expect((await post('/native', mbql5Nested()).expect(200)).body).toEqual(nested);
  });

  it('POST /api/dataset/pivot: the same detail and subtotal rows', async () => {
    const pivot = { pivot_rows: [0, 1], pivot_cols: [] };
    const want = answer(await post('/pivot', { ...legacy(), ...pivot }).expect(202));
    expect(want.status).toBe('completed');
    expect(want.cols.map((c) => c[0])).toContain('pivot-grouping');
    expect(answer(await post('/pivot', { ...mbql5(), ...pivot }).expect(202))).toEqual(want);
  });

  it('POST /api/dataset/csv: the same file, also as a pivot export', async () => {
    const csv = async (query: unknown, extra: Record<string, string> = {}) =>
      (
        await s.t
          .http()
          .post('/api/dataset/csv')
          .set(auth(s.admin))
          .type('form')
          .send({ query: JSON.stringify(query), format_rows: 'true', ...extra })
          .expect(200)
      ).text;
    const want = await csv(legacy());
    expect(want.split('\n')[0]).toContain('Net total');
    expect(await csv(mbql5())).toBe(want);
    const pivot = {
      pivot_results: 'true',
      visualization_settings: JSON.stringify({
        'pivot_table.column_split': { rows: ['CATEGORY', 'CREATED_AT'], columns: [], values: ['count'] },
      }),
    };
    const pivotWant = await csv(legacy(), pivot);
    expect(pivotWant).not.toBe(want);
    expect(await csv(mbql5(), pivot)).toBe(pivotWant);
  });

  it('POST /api/dataset/duration: the same average as the legacy twin (one query in the execution log)', async () => {
    await post('', legacy()).expect(202);
    await s.t.app.get(QueryLogService).flush();
    // A known running time makes the average checkable (a fast run may take 0 ms).
    await s.t.app
      .get(DataSource)
      .getRepository(QueryExecution)
      .update({ hash: rawQueryHash(legacy()) }, { running_time: 40 });
    expect(rawQueryHash(mbql5())).toBe(rawQueryHash(legacy()));
    expect((await post('/duration', legacy()).expect(200)).body).toEqual({ average: 40 });
    expect((await post('/duration', mbql5()).expect(200)).body).toEqual({ average: 40 });
    expect((await post('/duration', { database: s.db, query: mbql5() }).expect(200)).body).toEqual({ average: 40 });
  });

  it('POST /api/dataset/query_metadata: the same tables and fields', async () => {
    const want = (await post('/query_metadata', legacy()).expect(200)).body;
    expect(want.tables.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['ORDERS', 'PRODUCTS']));
    expect((await post('/query_metadata', mbql5()).expect(200)).body).toEqual(want);
    expect((await post('/query_metadata', { database: s.db, query: mbql5() }).expect(200)).body).toEqual(want);
  });

  describe('a malformed MBQL 5 query', () => {
    const bad = () => ({
      ...mbql5Nested(),
      stages: [mbql5Nested().stages[0], { 'lib/type': 'mbql.stage/mbql', filters: [['foo', uuid(), 1]] }],
    });
    const message = /^Invalid query: stages\[1\]\.filters\[0\]: unknown clause \["foo",\{"lib\/uuid":"[^"]+"\},1\]\.$/;

    it('is the invalid-query failure on /api/dataset, /pivot and the API export, naming the stage and clause', async () => {
      for (const [path, body] of [
        ['', bad()],
        ['/pivot', { ...bad(), pivot_rows: [0] }],
        ['/api', { query: bad() }],
      ] as const) {
        const res = await post(path, body).expect(202);
        expect({ path, status: res.body.status, error_type: res.body.error_type }).toEqual({
          path,
          status: 'failed',
          error_type: 'invalid-query',
        });
        expect(res.body.error).toMatch(message);
        expect(res.body.json_query).toMatchObject({ 'lib/type': 'mbql/query' });
      }
    });

    it('is a 400 naming the stage and clause on /native, /query_metadata and the file exports', async () => {
      expect((await post('/native', bad()).expect(400)).body.errors.query).toMatch(message);
      expect((await post('/query_metadata', bad()).expect(400)).body.errors.query).toMatch(message);
      const csv = await s.t
        .http()
        .post('/api/dataset/csv')
        .set(auth(s.admin))
        .type('form')
        .send({ query: JSON.stringify(bad()) })
        .expect(400);
      expect(csv.body).toMatchObject({ status: 'failed', error_type: 'invalid-query', error: expect.stringMatching(message) });
    });

    it('names the stage of a problem the legacy checks find, and a legacy clause sent in MBQL 5', async () => {
      const between = {
        ...mbql5Nested(),
        stages: [mbql5Nested().stages[0], { 'lib/type': 'mbql.stage/mbql', filters: [['between', uuid(), ['field', uuid(), 'count']]] }],
      };
      expect((await post('', between).expect(202)).body.error).toBe('Invalid query: stages[1].filters[0]: "between" needs a value.');
      const legacyRef = {
        ...mbql5Nested(),
        stages: [
          { 'lib/type': 'mbql.stage/mbql', 'source-table': s.table('ORDERS').id, breakout: [['field', s.field('ORDERS', 'ID'), null]] },
        ],
      };
      expect((await post('', legacyRef).expect(202)).body.error).toMatch(
        /^Invalid query: stages\[0\]\.breakout\[0\]: expected the options map second in \["field",\d+,null\]/,
      );
      expect((await post('', { 'lib/type': 'mbql/query', database: s.db, stages: 'x' }).expect(202)).body.error).toBe(
        'Invalid query: stages: must be a non-empty list of stages.',
      );
    });

    it('names its own places in the errors found after the conversion (compiling), on /api/dataset and /native', async () => {
      const orders = s.table('ORDERS').id;
      const created = ['field', { ...uuid(), 'base-type': 'type/DateTime' }, s.field('ORDERS', 'CREATED_AT')];
      const total = ['field', { ...uuid(), 'base-type': 'type/Float' }, s.field('ORDERS', 'TOTAL')];
      const badDate = {
        'lib/type': 'mbql/query',
        database: s.db,
        stages: [
          {
            'lib/type': 'mbql.stage/mbql',
            'source-table': orders,
            filters: [
              ['>', uuid(), total, 1],
              ['<', uuid(), created, 'soon'],
            ],
          },
        ],
      };
      const run = (await post('', badDate).expect(202)).body;
      expect(run).toMatchObject({ status: 'failed', error_type: 'invalid-query', error: 'Invalid date "soon" in "stages[0].filters[1]".' });
      expect((await post('/native', badDate).expect(400)).body.message).toBe('Invalid date "soon" in "stages[0].filters[1]".');
      const secondStage = {
        ...mbql5Nested(),
        stages: [
          mbql5Nested().stages[0],
          { 'lib/type': 'mbql.stage/mbql', fields: [['field', { ...uuid(), 'base-type': 'type/Text' }, 'NOPE']] },
        ],
      };
      expect((await post('', secondStage).expect(202)).body.error).toBe(
        'Unknown column "NOPE" of the source query in "stages[1].fields[0]".',
      );
      const unknownField = {
        'lib/type': 'mbql/query',
        database: s.db,
        stages: [
          {
            'lib/type': 'mbql.stage/mbql',
            'source-table': orders,
            aggregation: [['count', uuid()]],
            breakout: [['field', { ...uuid(), 'base-type': 'type/Integer' }, 987654]],
          },
        ],
      };
      expect((await post('', unknownField).expect(202)).body.error).toBe('Field 987654 does not exist in "stages[0].breakout[0]".');
      // Its legacy twin keeps the legacy place.
      const legacyBad = {
        database: s.db,
        type: 'query',
        query: { 'source-table': orders, filter: ['<', ['field', s.field('ORDERS', 'CREATED_AT'), null], 'soon'] },
      };
      expect((await post('', legacyBad).expect(202)).body.error).toBe('Invalid date "soon" in "filter".');
    });

    it('still gets the body checks of its endpoint first', async () => {
      expect((await post('', { ...mbql5(), database: 'one' }).expect(400)).body.errors.database).toBe(
        'value may be nil, or if non-nil, value must be an integer.',
      );
      const { database: _omitted, ...withoutDb } = mbql5();
      expect((await post('/pivot', withoutDb).expect(400)).body.message).toBe('`database` is required for all queries.');
      expect((await post('/native', { ...mbql5(), database: 0 }).expect(400)).body.errors.database).toBe(
        'value must be an integer greater than zero.',
      );
      expect((await post('', { ...mbql5(), database: 99999 }).expect(404)).text).toBe('Not found.');
    });
  });
});
