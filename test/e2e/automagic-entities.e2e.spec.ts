import { makeCard, makeMetric, makeModel, nativeQuery, tableQuery } from '../support/card-factories';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { runXrayCards, type XrayDashboard } from '../support/automagic';

jest.setTimeout(180_000);

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');

/** X-rays of fields (one per field kind), segments, legacy metrics and metric cards, questions, models, ad-hoc queries and cells. */
describe('automagic dashboards: entities', () => {
  let s: SampleApp;
  const http = () => s.t.http();
  const get = async (path: string, who = s.admin) =>
    (await http().get(`/api/automagic-dashboards/${path}`).set(auth(who)).expect(200)).body as XrayDashboard;
  const queryCards = (d: XrayDashboard) => d.dashcards.filter((dc) => dc.card);
  let orders: number;
  let total: number;

  beforeAll(async () => {
    s = await startSampleApp();
    orders = s.table('ORDERS').id;
    total = s.field('ORDERS', 'TOTAL');
  });
  afterAll(() => s.t.close());

  it.each([
    ['number', 'ORDERS', 'TOTAL', /distribution and summary of Total/],
    ['category', 'PRODUCTS', 'CATEGORY', /often each value/],
    ['date', 'ORDERS', 'CREATED_AT', /spread over Created At/],
    ['location', 'PEOPLE', 'STATE', /Where People are, by State/],
  ])('x-rays a %s field (%s.%s) with its kind of template, every card with rows', async (_kind, table, field, description) => {
    const id = s.field(table, field);
    const d = await get(`field/${id}?show=all`);
    expect(d.description).toMatch(description);
    expect(queryCards(d).length).toBeGreaterThan(2);
    expect(JSON.stringify(queryCards(d).map((dc) => dc.card!.dataset_query))).toContain(`"field",${id}`);
    expect(d.related['zoom-out']).toEqual([expect.objectContaining({ url: `/auto/dashboard/table/${s.table(table).id}` })]);
    await runXrayCards(s.t, s.admin, d);
  });

  it('x-rays a segment: the table template with the segment filter on every card, and a link to compare with the table', async () => {
    const filter = ['>', ['field', total, null], 100];
    const seg = (
      await http()
        .post('/api/segment')
        .set(auth(s.admin))
        .send({ name: 'Big orders', table_id: orders, definition: { 'source-table': orders, filter } })
        .expect(200)
    ).body;
    const d = await get(`segment/${seg.id}`);
    expect(d.name).toBe('A look at Big orders');
    for (const dc of queryCards(d)) expect(JSON.stringify(dc.card!.dataset_query.query.filter)).toContain(JSON.stringify(filter));
    expect(d.related.compare).toEqual([expect.objectContaining({ url: `/auto/dashboard/segment/${seg.id}/compare/table/${orders}` })]);
    await runXrayCards(s.t, s.admin, d);
    const table = await get(`table/${orders}`);
    expect(table.related['zoom-in'].map((l) => l.url)).toContain(`/auto/dashboard/segment/${seg.id}`);
  });

  it('x-rays a legacy metric and a metric card: the metric over time and across categories', async () => {
    const metric = (
      await http()
        .post('/api/metric')
        .set(auth(s.admin))
        .send({ name: 'Revenue', table_id: orders, definition: { 'source-table': orders, aggregation: [['sum', ['field', total, null]]] } })
        .expect(200)
    ).body;
    const d = await get(`metric/${metric.id}?show=all`);
    expect(d.name).toBe('A look at Revenue');
    expect(queryCards(d).map((dc) => dc.card!.name)).toEqual(
      expect.arrayContaining(['Revenue', 'Revenue per month', 'Revenue by Category']),
    );
    await runXrayCards(s.t, s.admin, d);
    const card = await makeMetric(s.t, s.admin, tableQuery(s.db, orders, { aggregation: [['count']] }), { name: 'Order count' });
    const m = await get(`question/${card.id}?show=all`);
    expect(queryCards(m).map((dc) => dc.card!.name)).toContain('Order count per month');
    await runXrayCards(s.t, s.admin, m);
  });

  it('x-rays a saved question on a table (filtered table) and one with a summary (its result as the source)', async () => {
    const q = await makeCard(s.t, s.admin, tableQuery(s.db, orders, { filter: ['>', ['field', total, null], 50] }), {
      name: 'Orders over 50',
    });
    const d = await get(`question/${q.id}`);
    expect(d.name).toBe('A look at Orders over 50');
    for (const dc of queryCards(d)) expect(dc.card!.dataset_query.query['source-table']).toBe(orders);
    await runXrayCards(s.t, s.admin, d);
    const category = s.field('PRODUCTS', 'CATEGORY');
    const summary = await makeCard(
      s.t,
      s.admin,
      tableQuery(s.db, s.table('PRODUCTS').id, { aggregation: [['count']], breakout: [['field', category, null]] }),
      { name: 'Products per category' },
    );
    const sd = await get(`question/${summary.id}?show=all`);
    expect(queryCards(sd).length).toBeGreaterThan(0);
    for (const dc of queryCards(sd)) expect(dc.card!.dataset_query.query['source-table']).toBe(`card__${summary.id}`);
    await runXrayCards(s.t, s.admin, sd);
  });

  it('x-rays a model and a native question through their result columns', async () => {
    const model = await makeModel(s.t, s.admin, tableQuery(s.db, s.table('PEOPLE').id), { name: 'Customers' });
    const d = await get(`model/${model.id}?show=all`);
    expect(d.name).toBe('A look at Customers');
    await runXrayCards(s.t, s.admin, d);
    const native = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT CATEGORY, PRICE, CREATED_AT FROM PRODUCTS'), {
      name: 'Native products',
    });
    const n = await get(`question/${native.id}?show=all`);
    expect(n.name).toBe('A look at Native products');
    expect(queryCards(n).length).toBeGreaterThan(0);
    await runXrayCards(s.t, s.admin, n);
    for (const path of [`model/${model.id}`, `question/${native.id}`]) {
      const m = (await http().get(`/api/automagic-dashboards/${path}/query_metadata`).set(auth(s.admin)).expect(200)).body;
      expect(m.databases.map((x: { id: number }) => x.id)).toEqual([s.db]);
    }
  });

  it('x-rays an ad-hoc query (base64 of its JSON), standard and URL-safe, keeping its filter', async () => {
    const query = tableQuery(s.db, orders, { filter: ['<', ['field', total, null], 30] });
    const d = await get(`adhoc/${b64(query)}`);
    expect(d.name).toBe('A look at Orders');
    for (const dc of queryCards(d)) expect(JSON.stringify(dc.card!.dataset_query.query.filter)).toContain('"<"');
    await runXrayCards(s.t, s.admin, d);
    const urlSafe = b64(query).replace(/\+/g, '-').replace(/\//g, '_');
    expect((await get(`adhoc/${urlSafe}`)).name).toBe('A look at Orders');
  });

  it('x-rays a cell: the entity narrowed by the cell filter, named after it, zooming out to the entity', async () => {
    const category = s.field('PRODUCTS', 'CATEGORY');
    const cell = ['=', ['field', category, { 'source-field': s.field('ORDERS', 'PRODUCT_ID') }], 'Gizmo'];
    const d = await get(`table/${orders}/cell/${b64(cell)}`);
    expect(d.name).toBe('A look at Orders where Category is Gizmo');
    for (const dc of queryCards(d)) expect(dc.card!.dataset_query.query.filter).toEqual(cell);
    expect(d.related['zoom-out']).toEqual([expect.objectContaining({ url: `/auto/dashboard/table/${orders}` })]);
    expect(d.related.compare[0].url).toMatch(new RegExp(`/cell/.+/compare/table/${orders}$`));
    await runXrayCards(s.t, s.admin, d);
    const ruled = await get(`table/${orders}/cell/${b64(cell)}/rule/table/GenericTable`);
    expect(ruled.description).toMatch(/overview/);
    await runXrayCards(s.t, s.admin, ruled);
    const field = await get(`field/${total}/cell/${b64(['>', ['field', total, null], 10])}`);
    expect(field.name).toBe('Total by Orders where Total is greater than 10');
  });
});
