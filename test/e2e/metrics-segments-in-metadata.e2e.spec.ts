import { makeCard, makeMetric, makeModel, tableQuery } from '../support/card-factories';
import { dashboardWith } from '../support/dashboard-factories';
import { auth } from '../support/factories';
import { countQueries, STEADY_SETTINGS } from '../support/query-counter';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(180_000);

type Entity = { id: number; name?: string; [key: string]: unknown };
const ids = (list: Entity[]) => list.map((x) => x.id);

/**
 * The legacy segments and metrics of a table in the answers that list them: table query_metadata and related, field
 * related, card related, the dataset, card and dashboard query_metadata (the last at a bounded app-DB query count).
 * Archived ones never show; the virtual tables of saved questions have none.
 */
describe('segments and metrics in metadata and related answers', () => {
  let s: SampleApp;
  const http = () => s.t.http();
  const ref = (table: string, field: string) => ['field', s.field(table, field), null];

  const segment = async (table: string, name: string, filter: unknown) =>
    (
      await http()
        .post('/api/segment')
        .set(auth(s.admin))
        .send({ name, table_id: s.table(table).id, definition: { 'source-table': s.table(table).id, filter } })
        .expect(200)
    ).body as Entity;
  const metric = async (table: string, name: string, aggregation: unknown, filter?: unknown) =>
    (
      await http()
        .post('/api/metric')
        .set(auth(s.admin))
        .send({
          name,
          table_id: s.table(table).id,
          definition: { 'source-table': s.table(table).id, aggregation: [aggregation], ...(filter ? { filter } : {}) },
        })
        .expect(200)
    ).body as Entity;
  const archive = (kind: 'segment' | 'metric', id: number) =>
    http().put(`/api/${kind}/${id}`).set(auth(s.admin)).send({ archived: true, revision_message: 'gone' }).expect(200);

  beforeAll(async () => {
    s = await startSampleApp(STEADY_SETTINGS);
  });
  afterAll(() => s.t.close());

  it('GET /api/table/:id/query_metadata and /related list the unarchived ones by name, as GET /api/segment/:id answers them', async () => {
    const products = s.table('PRODUCTS').id;
    const cheap = await segment('PRODUCTS', 'Cheap', ['<', ref('PRODUCTS', 'PRICE'), 30]);
    const gizmos = await segment('PRODUCTS', 'gizmos', ['=', ref('PRODUCTS', 'CATEGORY'), 'Gizmo']);
    const gone = await segment('PRODUCTS', 'Archived one', ['>', ref('PRODUCTS', 'PRICE'), 90]);
    const avgPrice = await metric('PRODUCTS', 'Average price', ['avg', ref('PRODUCTS', 'PRICE')]);
    const goneMetric = await metric('PRODUCTS', 'Old count', ['count']);
    await archive('segment', gone.id);
    await archive('metric', goneMetric.id);

    const meta = (await http().get(`/api/table/${products}/query_metadata`).set(auth(s.user.session)).expect(200)).body;
    expect(ids(meta.segments)).toEqual([cheap.id, gizmos.id]);
    expect(ids(meta.metrics)).toEqual([avgPrice.id]);
    const asAlone = (await http().get(`/api/segment/${cheap.id}`).set(auth(s.user.session)).expect(200)).body;
    expect(meta.segments[0]).toEqual(asAlone);
    expect(meta.metrics[0]).toMatchObject({
      name: 'Average price',
      table_id: products,
      archived: false,
      definition: { 'source-table': products, aggregation: [['avg', ref('PRODUCTS', 'PRICE')]] },
      creator: expect.objectContaining({ email: 'admin@example.com' }),
      query_description: expect.any(Object),
      how_is_this_calculated: null,
    });

    const related = (await http().get(`/api/table/${products}/related`).set(auth(s.user.session)).expect(200)).body;
    expect(ids(related.segments)).toEqual([cheap.id, gizmos.id]);
    expect(ids(related.metrics)).toEqual([avgPrice.id]);
    // Another table has none of them.
    const people = (
      await http()
        .get(`/api/table/${s.table('PEOPLE').id}/query_metadata`)
        .set(auth(s.user.session))
        .expect(200)
    ).body;
    expect(people).toMatchObject({ segments: [], metrics: [] });
  });

  it('the virtual table of a saved question has none, even on a table that has some', async () => {
    await segment('PRODUCTS', 'Widgets', ['=', ref('PRODUCTS', 'CATEGORY'), 'Widget']);
    const model = await makeModel(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id));
    const virtual = (await http().get(`/api/table/card__${model.id}/query_metadata`).set(auth(s.admin)).expect(200)).body;
    expect(virtual).toMatchObject({ id: `card__${model.id}`, segments: [], metrics: [] });
  });

  it('GET /api/field/:id/related: the segments, those using the field first, and only the metrics using it', async () => {
    const rating = s.field('REVIEWS', 'RATING');
    const recent = await segment('REVIEWS', 'A recent', ['>', ref('REVIEWS', 'CREATED_AT'), '2024-01-01']);
    const good = await segment('REVIEWS', 'Good', ['>=', ref('REVIEWS', 'RATING'), 4]);
    const avg = await metric('REVIEWS', 'Avg rating', ['avg', ref('REVIEWS', 'RATING')]);
    await metric('REVIEWS', 'Reviewers', ['distinct', ref('REVIEWS', 'REVIEWER')]);
    const gone = await metric('REVIEWS', 'Max rating', ['max', ref('REVIEWS', 'RATING')]);
    await archive('metric', gone.id);
    const res = (await http().get(`/api/field/${rating}/related`).set(auth(s.user.session)).expect(200)).body;
    expect(res.table).toMatchObject({ id: s.table('REVIEWS').id });
    expect(ids(res.segments)).toEqual([good.id, recent.id]);
    expect(ids(res.metrics)).toEqual([avg.id]);
    expect(res.metrics[0]).toMatchObject({ name: 'Avg rating', creator: expect.any(Object) });
  });

  it('GET /api/card/:id/related, POST /api/card/related: table segments, legacy metrics, then metric cards; canonical metric', async () => {
    const orders = s.table('ORDERS').id;
    const total = ref('ORDERS', 'TOTAL');
    const big = await segment('ORDERS', 'Big', ['>', total, 100]);
    const revenue = await metric('ORDERS', 'Revenue', ['sum', total]);
    const count = await metric('ORDERS', 'Order count', ['count']);
    const gone = await segment('ORDERS', 'Gone', ['<', total, 1]);
    await archive('segment', gone.id);
    const metricCard = await makeMetric(s.t, s.admin, tableQuery(s.db, orders, { aggregation: [['avg', total]] }));
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, orders, { aggregation: [['sum', total]] }));

    const res = (await http().get(`/api/card/${card.id}/related`).set(auth(s.user.session)).expect(200)).body;
    expect(ids(res.segments)).toEqual([big.id]);
    // Most alike first: the sum of TOTAL shares the card's field; then the other legacy metric, then the metric card.
    expect(ids(res.metrics)).toEqual([revenue.id, count.id, metricCard.id]);
    expect(res.metrics[0]).toMatchObject({ name: 'Revenue', table_id: orders, definition: expect.any(Object) });
    expect(res.metrics[2]).toMatchObject({ type: 'metric', display: 'scalar' });
    expect(res['canonical-metric']).toMatchObject({ id: revenue.id, name: 'Revenue' });

    const adhoc = (
      await http()
        .post('/api/card/related')
        .set(auth(s.user.session))
        .send(tableQuery(s.db, orders, { aggregation: [['count']] }))
        .expect(200)
    ).body;
    expect(ids(adhoc.segments)).toEqual([big.id]);
    expect(ids(adhoc.metrics)).toEqual(expect.arrayContaining([revenue.id, count.id]));
    expect(adhoc['canonical-metric']).toMatchObject({ id: count.id, name: 'Order count' });
  });

  it('POST /api/dataset/query_metadata and GET /api/card/:id/query_metadata: each table of a join with its own', async () => {
    const orders = s.table('ORDERS').id;
    const products = s.table('PRODUCTS').id;
    const query = tableQuery(s.db, orders, {
      joins: [
        {
          'source-table': products,
          alias: 'P',
          condition: ['=', ref('ORDERS', 'PRODUCT_ID'), ['field', s.field('PRODUCTS', 'ID'), { 'join-alias': 'P' }]],
        },
      ],
    });
    const expected = async (table: number) => {
      const alone = (await http().get(`/api/table/${table}/query_metadata`).set(auth(s.user.session)).expect(200)).body;
      return { segments: ids(alone.segments), metrics: ids(alone.metrics) };
    };
    const check = async (tables: Array<{ id: number; segments: Entity[]; metrics: Entity[] }>) => {
      for (const table of [orders, products]) {
        const t = tables.find((x) => x.id === table)!;
        const want = await expected(table);
        expect(want.segments.length).toBeGreaterThan(0);
        expect({ segments: ids(t.segments), metrics: ids(t.metrics) }).toEqual(want);
      }
    };
    await check((await http().post('/api/dataset/query_metadata').set(auth(s.user.session)).send(query).expect(200)).body.tables);
    const card = await makeCard(s.t, s.admin, query);
    await check((await http().get(`/api/card/${card.id}/query_metadata`).set(auth(s.user.session)).expect(200)).body.tables);
  });

  it('GET /api/dashboard/:id/query_metadata: every table with its own, no more app-DB queries for four tables than for two', async () => {
    const names = ['ORDERS', 'PRODUCTS', 'PEOPLE', 'REVIEWS'];
    for (const name of names) {
      await segment(name, `${name} seg`, ['not-null', ['field', s.table(name).fields[0].id, null]]);
      await metric(name, `${name} count`, ['count']);
    }
    const cards = [];
    for (const name of names) cards.push((await makeCard(s.t, s.admin, tableQuery(s.db, s.table(name).id))).id);
    const two = await dashboardWith(s.t, s.admin, cards.slice(0, 2));
    const four = await dashboardWith(s.t, s.admin, cards);

    const meta = (await http().get(`/api/dashboard/${four.id}/query_metadata`).set(auth(s.user.session)).expect(200)).body;
    for (const name of names) {
      const t = meta.tables.find((x: Entity) => x.id === s.table(name).id);
      expect(t.segments.map((x: Entity) => x.name)).toContain(`${name} seg`);
      expect(t.metrics.map((x: Entity) => x.name)).toContain(`${name} count`);
      for (const x of [...t.segments, ...t.metrics]) expect(x.table_id).toBe(s.table(name).id);
    }

    const count = async (path: string) => {
      const counter = countQueries();
      try {
        await http().get(path).set(auth(s.user.session)).expect(200);
        return counter.count;
      } finally {
        counter.restore();
      }
    };
    await count(`/api/dashboard/${two.id}/query_metadata`);
    const atTwo = await count(`/api/dashboard/${two.id}/query_metadata`);
    const atFour = await count(`/api/dashboard/${four.id}/query_metadata`);
    expect(atFour).toBeLessThanOrEqual(atTwo);
  });
});
