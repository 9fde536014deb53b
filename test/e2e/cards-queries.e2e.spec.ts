import { DataSource } from 'typeorm';
import { QueryCacheService } from '../../src/modules/query-cache/query-cache.service';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { makeCard, makeModel, nativeQuery, tableQuery } from '../support/card-factories';
import { auth } from '../support/factories';
import { expect400 } from '../support/expect-wire';
import { toMbql5 } from '../support/mbql5';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

/** Running cards: parameters, the result cache, the execution log, pivots, and cards as the source of other queries. */
describe('cards: queries', () => {
  let s: SampleApp;
  let orders: number;
  let products: number;
  const http = () => s.t.http();
  const run = (id: number, body: object = {}, session = s.admin) => http().post(`/api/card/${id}/query`).set(auth(session)).send(body);
  const dataset = (body: object) => http().post('/api/dataset').set(auth(s.admin)).send(body).expect(202);

  beforeAll(async () => {
    s = await startSampleApp();
    orders = s.table('ORDERS').id;
    products = s.table('PRODUCTS').id;
  });
  afterAll(() => s.t.close());

  it('answers 202 with the results, also when the query fails, and logs the run against the card', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }));
    const ok = await run(card.id).expect(202);
    expect(ok.body).toMatchObject({ status: 'completed', context: 'question', row_count: 1, data: { rows: [[200]] } });
    expect(ok.headers['content-type']).toMatch(/application\/json/);
    const broken = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT * FROM NO_SUCH_TABLE'));
    const failed = await run(broken.id).expect(202);
    expect(failed.body).toMatchObject({ status: 'failed', row_count: 0 });
    await s.t.app.get(QueryLogService).flush();
    const logged = await s.t.app.get(DataSource).query(`SELECT card_id, context FROM query_execution WHERE card_id = ${card.id}`);
    expect(logged).toEqual([{ card_id: card.id, context: 'question' }]);
    const read = (await http().get(`/api/card/${card.id}`).set(auth(s.admin)).expect(200)).body;
    expect(typeof read.average_query_time).toBe('number');
    expect(typeof read.last_query_start).toBe('string');
  });

  it('validates the body of a card query', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products));
    expect400(await run(card.id, { ignore_cache: 'yes' }), 'ignore_cache', 'value must be a boolean.');
    expect400(await run(card.id, { dashboard_id: 0 }), 'dashboard_id', 'value must be an integer greater than zero.');
    expect400(await run(card.id, { collection_preview: 1 }), 'collection_preview', 'value must be a boolean.');
    expect400(await run(card.id, { parameters: {} }), 'parameters', 'value must be an array.');
    const withDashboard = await run(card.id, { dashboard_id: 3, collection_preview: true }).expect(202);
    expect(withDashboard.body.status).toBe('completed');
  });

  it('applies parameters, and the card parameter defaults the request does not set', async () => {
    const tags = { cat: { id: 'c1', name: 'cat', 'display-name': 'Cat', type: 'text' } };
    const parameters = [{ id: 'c1', type: 'category', slug: 'cat', target: ['variable', ['template-tag', 'cat']], default: 'Gizmo' }];
    const card = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT COUNT(*) AS N FROM PRODUCTS WHERE CATEGORY = {{cat}}', tags), {
      parameters,
    });
    const byDefault = (await run(card.id).expect(202)).body;
    const gizmos = (await dataset({ ...nativeQuery(s.db, "SELECT COUNT(*) AS N FROM PRODUCTS WHERE CATEGORY = 'Gizmo'") })).body.data.rows;
    expect(byDefault.data.rows).toEqual(gizmos);
    const widgets = (
      await run(card.id, {
        parameters: [{ id: 'c1', type: 'category', target: ['variable', ['template-tag', 'cat']], value: 'Widget' }],
      }).expect(202)
    ).body;
    const expected = (await dataset({ ...nativeQuery(s.db, "SELECT COUNT(*) AS N FROM PRODUCTS WHERE CATEGORY = 'Widget'") })).body.data
      .rows;
    expect(widgets.data.rows).toEqual(expected);
  });

  it("caches results by the card's cache_ttl once caching is on; ignore_cache runs afresh", async () => {
    await http().put('/api/setting/enable-query-caching').set(auth(s.admin)).send({ value: true }).expect(204);
    // Metabase stores only runs longer than a minute by default: every run here is quicker.
    await http().put('/api/setting/query-caching-min-ttl').set(auth(s.admin)).send({ value: 0 }).expect(204);
    try {
      const card = await makeCard(
        s.t,
        s.admin,
        tableQuery(s.db, products, { aggregation: [['count']], filter: ['>', ['field', s.field('PRODUCTS', 'PRICE'), null], 1] }),
        { cache_ttl: 1 },
      );
      const first = (await run(card.id).expect(202)).body;
      expect(first.cached).toBeUndefined();
      await s.t.app.get(QueryCacheService).flush();
      const second = (await run(card.id).expect(202)).body;
      expect(second).toMatchObject({ cached: true, status: 'completed', data: { rows: first.data.rows } });
      expect(typeof second.updated_at).toBe('string');
      const fresh = (await run(card.id, { ignore_cache: true }).expect(202)).body;
      expect(fresh.cached).toBeUndefined();
      // Without a TTL on the card and no history, nothing is cached.
      const plain = await makeCard(
        s.t,
        s.admin,
        tableQuery(s.db, products, { aggregation: [['count']], filter: ['>', ['field', s.field('PRODUCTS', 'PRICE'), null], 2] }),
      );
      await run(plain.id).expect(202);
      await s.t.app.get(QueryCacheService).flush();
      expect((await run(plain.id).expect(202)).body.cached).toBeUndefined();
    } finally {
      await http().put('/api/setting/enable-query-caching').set(auth(s.admin)).send({ value: false }).expect(204);
    }
  });

  it('runs the pivot of a card', async () => {
    const query = tableQuery(s.db, orders, {
      aggregation: [['count']],
      breakout: [
        ['field', s.field('PRODUCTS', 'CATEGORY'), { 'source-field': s.field('ORDERS', 'PRODUCT_ID') }],
        ['field', s.field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'year' }],
      ],
    });
    const card = await makeCard(s.t, s.admin, query, {
      display: 'pivot',
      visualization_settings: {
        'pivot_table.column_split': {
          rows: [['field', s.field('PRODUCTS', 'CATEGORY'), { 'source-field': s.field('ORDERS', 'PRODUCT_ID') }]],
          columns: [['field', s.field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'year' }]],
          values: [['aggregation', 0]],
        },
      },
    });
    const res = await http().post(`/api/card/pivot/${card.id}/query`).set(auth(s.admin)).send({}).expect(202);
    expect(res.body.status).toBe('completed');
    expect(res.body.data.cols.map((c: { name: string }) => c.name)).toContain('pivot-grouping');
    const direct = await http()
      .post('/api/dataset/pivot')
      .set(auth(s.admin))
      .send({ ...query, pivot_rows: [0], pivot_cols: [1] })
      .expect(202);
    expect(res.body.row_count).toBe(direct.body.row_count);
  });

  it('serves saved questions as sources: card__<id> and MBQL 5 source-card give the same rows, whatever form it was saved in', async () => {
    const inner = tableQuery(s.db, products, { aggregation: [['count']], breakout: [['field', s.field('PRODUCTS', 'CATEGORY'), null]] });
    const legacyCard = await makeCard(s.t, s.admin, inner);
    const mbql5Card = await makeModel(s.t, s.admin, toMbql5(inner));
    const nativeCard = await makeCard(
      s.t,
      s.admin,
      nativeQuery(s.db, 'SELECT CATEGORY, COUNT(*) AS N FROM PRODUCTS GROUP BY CATEGORY ORDER BY CATEGORY'),
    );
    const expected = (await dataset(inner)).body.data.rows;
    for (const c of [legacyCard, mbql5Card]) {
      const outer = {
        database: s.db,
        type: 'query',
        query: { 'source-table': `card__${c.id}`, 'order-by': [['asc', ['field', 'CATEGORY', { 'base-type': 'type/Text' }]]] },
      };
      const viaLegacy = (await dataset(outer)).body;
      expect(viaLegacy.status).toBe('completed');
      expect(viaLegacy.data.rows).toEqual(expected);
      const viaMbql5 = (await dataset(toMbql5(outer))).body;
      expect(viaMbql5.data.rows).toEqual(expected);
    }
    const viaNative = (await dataset({ database: s.db, type: 'query', query: { 'source-table': `card__${nativeCard.id}` } })).body;
    expect([viaNative.status, viaNative.error]).toEqual(['completed', undefined]);
    expect(viaNative.data.rows).toEqual(expected);
    // A card built on a card: the model's rows through a saved question.
    const onModel = await makeCard(s.t, s.admin, { database: s.db, type: 'query', query: { 'source-table': `card__${mbql5Card.id}` } });
    expect(onModel).toMatchObject({ source_card_id: mbql5Card.id, table_id: null });
    expect((await run(onModel.id).expect(202)).body.data.rows.length).toBe(expected.length);
  });

  it("describes a card's virtual table and the metadata a card needs", async () => {
    const model = await makeModel(s.t, s.admin, tableQuery(s.db, products));
    const table = (await http().get(`/api/table/card__${model.id}/query_metadata`).set(auth(s.admin)).expect(200)).body;
    expect(table).toMatchObject({ id: `card__${model.id}`, db_id: s.db, display_name: model.name, type: 'model' });
    expect(table.fields.map((f: { name: string }) => f.name)).toContain('CATEGORY');
    const onModel = await makeCard(s.t, s.admin, { database: s.db, type: 'query', query: { 'source-table': `card__${model.id}` } });
    const meta = (await http().get(`/api/card/${onModel.id}/query_metadata`).set(auth(s.admin)).expect(200)).body;
    expect(meta.databases.map((d: { id: number }) => d.id)).toEqual([s.db]);
    expect(meta.tables.map((t: { id: unknown }) => t.id)).toContain(`card__${model.id}`);
    const plain = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const plainMeta = (await http().get(`/api/card/${plain.id}/query_metadata`).set(auth(s.admin)).expect(200)).body;
    expect(plainMeta.tables.map((t: { id: unknown }) => t.id)).toEqual(expect.arrayContaining([orders, products]));
    expect(plainMeta.fields).toEqual([]);
  });

  it("answers a model's run with its edited column metadata (a renamed column's new name), and a question on it too", async () => {
    const model = await makeModel(
      s.t,
      s.admin,
      tableQuery(s.db, products, {
        fields: [
          ['field', s.field('PRODUCTS', 'ID'), null],
          ['field', s.field('PRODUCTS', 'CATEGORY'), null],
        ],
        limit: 3,
      }),
    );
    const metadata = (await http().get(`/api/card/${model.id}`).set(auth(s.admin)).expect(200)).body.result_metadata as Array<
      Record<string, unknown>
    >;
    const edited = metadata.map((c) =>
      c.name === 'CATEGORY' ? { ...c, display_name: 'Product line', description: 'What kind of thing' } : c,
    );
    await http().put(`/api/card/${model.id}`).set(auth(s.admin)).send({ result_metadata: edited }).expect(200);
    const res = (await run(model.id).expect(202)).body;
    const cols = res.data.cols as Array<{ name: string; display_name: string; description?: string }>;
    expect(cols.map((c) => [c.name, c.display_name])).toEqual([
      ['ID', 'ID'],
      ['CATEGORY', 'Product line'],
    ]);
    expect(cols[1].description).toBe('What kind of thing');
    expect(res.data.results_metadata.columns[1]).toMatchObject({ name: 'CATEGORY', display_name: 'Product line' });
    expect(res.data.rows).toHaveLength(3);
    // A plain question keeps the run's names.
    const question = await makeCard(
      s.t,
      s.admin,
      tableQuery(s.db, products, { fields: [['field', s.field('PRODUCTS', 'CATEGORY'), null]], limit: 1 }),
    );
    expect((await run(question.id).expect(202)).body.data.cols[0].display_name).toBe('Category');
  });
});
