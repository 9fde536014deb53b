import { makeCollection } from '../support/card-factories';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { runXrayCards, type XrayDashboard } from '../support/automagic';

jest.setTimeout(180_000);

/** Table x-rays over HTTP on the Sample Database: shape, templates, filters, related links, and every card runs. */
describe('automagic dashboards: tables', () => {
  let s: SampleApp;
  const http = () => s.t.http();
  const get = async (path: string, who = s.admin) =>
    (await http().get(`/api/automagic-dashboards/${path}`).set(auth(who)).expect(200)).body as XrayDashboard;

  beforeAll(async () => {
    s = await startSampleApp();
  });
  afterAll(() => s.t.close());

  it('answers the ORDERS x-ray as an unsaved dashboard with sections, filters and related links', async () => {
    const orders = s.table('ORDERS').id;
    const d = await get(`table/${orders}`);
    expect(d).toMatchObject({
      id: null,
      name: 'A look at Orders',
      description: expect.any(String),
      archived: false,
      tabs: [],
      collection_id: null,
      transient_name: 'A look at Orders',
    });
    const queryCards = d.dashcards.filter((dc) => dc.card);
    const texts = d.dashcards.filter((dc) => !dc.card);
    expect(queryCards.length).toBeGreaterThan(4);
    expect(queryCards.length).toBeLessThanOrEqual(15);
    expect(texts[0].visualization_settings.text).toBe('# Overview');
    expect(queryCards.map((dc) => dc.card!.name)).toEqual(expect.arrayContaining(['Total transactions', 'Total Total', 'Total per month']));
    const types = d.parameters.map((p) => p.type);
    expect(types).toContain('date/all-options');
    expect(d.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['Created At', 'Category', 'State']));
    for (const dc of queryCards) {
      expect(dc.parameter_mappings).toHaveLength(d.parameters.length);
      expect(dc.card!.dataset_query).toMatchObject({ database: s.db, type: 'query', query: { 'source-table': orders } });
    }
    expect(d.related['linking-to'].map((l) => l.url).sort()).toEqual(
      [`/auto/dashboard/table/${s.table('PEOPLE').id}`, `/auto/dashboard/table/${s.table('PRODUCTS').id}`].sort(),
    );
    expect(d.related['zoom-in'].length).toBeGreaterThan(0);
    expect(d.more).toBeNull();
    expect((await get(`table/${orders}?show=2`)).more).toBe(`/auto/dashboard/table/${orders}?show=all`);
  });

  it.each(['ORDERS', 'PEOPLE', 'PRODUCTS', 'REVIEWS'])(
    'runs every card of the %s x-ray through POST /api/dataset with rows',
    async (name) => {
      const d = await get(`table/${s.table(name).id}?show=all`);
      const cards = d.dashcards.filter((dc) => dc.card);
      expect(cards.length).toBeGreaterThan(2);
      await runXrayCards(s.t, s.admin, d);
    },
  );

  it('picks the table kind from the fields: transactions, users, events, generic', async () => {
    const descr = async (name: string) => (await get(`table/${s.table(name).id}`)).description;
    expect(await descr('ORDERS')).toMatch(/transactions/);
    expect(await descr('PEOPLE')).toMatch(/users/);
    expect(await descr('REVIEWS')).toMatch(/events/);
    expect(await descr('PRODUCTS')).toMatch(/overview of the data in Products/);
  });

  it('limits cards with show, and show=all gives every one', async () => {
    const orders = s.table('ORDERS').id;
    const three = await get(`table/${orders}?show=3`);
    expect(three.dashcards.filter((dc) => dc.card)).toHaveLength(3);
    const all = await get(`table/${orders}?show=all`);
    expect(all.more).toBeNull();
    expect(all.dashcards.filter((dc) => dc.card).length).toBeGreaterThan(three.dashcards.filter((dc) => dc.card).length);
    const zero = await get(`table/${orders}?show=0`);
    expect(zero.dashcards).toEqual([]);
  });

  it('applies a template by name (rule/:prefix/:dashboard-template)', async () => {
    const d = await get(`table/${s.table('ORDERS').id}/rule/table/GenericTable?show=all`);
    expect(d.description).toMatch(/overview of the data in Orders/);
    await runXrayCards(s.t, s.admin, d);
  });

  it('saves an x-ray with POST /api/dashboard/save, its cards in the collection', async () => {
    const d = await get(`table/${s.table('PEOPLE').id}`);
    const res = await http().post('/api/dashboard/save').set(auth(s.admin)).send(d);
    expect(res.status === 200 ? 200 : res.body).toBe(200);
    const saved = res.body;
    expect(saved).toMatchObject({ name: 'A look at People', id: expect.any(Number) });
    expect(saved.dashcards).toHaveLength(d.dashcards.length);
    const withCards = saved.dashcards.filter((dc: { card_id: number | null }) => dc.card_id !== null);
    expect(withCards.length).toBe(d.dashcards.filter((dc) => dc.card).length);
    expect(withCards[0].parameter_mappings[0]).toMatchObject({ card_id: withCards[0].card_id });
    const q = (
      await http()
        .post(`/api/dashboard/${saved.id}/dashcard/${withCards[0].id}/card/${withCards[0].card_id}/query`)
        .set(auth(s.admin))
        .send({})
        .expect(202)
    ).body;
    expect(q.status).toBe('completed');
  });

  it('saves an x-ray into a collection: the dashboard and its cards live there', async () => {
    const collection = await makeCollection(s.t);
    const d = await get(`field/${s.field('ORDERS', 'TOTAL')}`);
    const saved = (await http().post(`/api/dashboard/save/collection/${collection}`).set(auth(s.admin)).send(d).expect(200)).body;
    expect(saved).toMatchObject({ collection_id: collection, name: d.name, parameters: d.parameters });
    const cardIds = saved.dashcards.map((dc: { card_id: number | null }) => dc.card_id).filter((x: number | null) => x !== null);
    expect(cardIds.length).toBeGreaterThan(0);
    for (const id of cardIds) {
      const card = (await http().get(`/api/card/${id}`).set(auth(s.admin)).expect(200)).body;
      expect(card).toMatchObject({ collection_id: collection, dashboard_id: saved.id });
    }
  });
});
