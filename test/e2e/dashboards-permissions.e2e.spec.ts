import { grant, makeCard, makeCollection, makeGroup, tableQuery } from '../support/card-factories';
import { dashboardWith, makeDashboard, newDashcard } from '../support/dashboard-factories';
import { auth, makeUserDirect, MadeUser } from '../support/factories';
import { expect403 } from '../support/expect-wire';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

/**
 * Collection permissions on every dashboard endpoint: a non-admin whose group may only read the dashboard's
 * collection, and one without any grant there; a dashcard whose card the caller may not read shows only its id.
 */
describe('dashboards: collection permissions', () => {
  let s: SampleApp;
  let reader: MadeUser;
  let outsider: MadeUser;
  let coll: number;
  let secret: number;
  let dash: { id: number };
  let card: { id: number };
  let hidden: { id: number };
  const http = () => s.t.http();
  const ids = (res: { body: Array<{ id: number }> }) => res.body.map((c) => c.id);

  beforeAll(async () => {
    s = await startSampleApp();
    const orders = s.table('ORDERS').id;
    reader = await makeUserDirect(s.t);
    outsider = await makeUserDirect(s.t);
    const group = await makeGroup(s.t, s.admin, reader.id);
    coll = await makeCollection(s.t, 'Finance');
    secret = await makeCollection(s.t, 'Secret');
    await grant(s.t, group, coll, 'read');
    card = await makeCard(s.t, s.admin, tableQuery(s.db, orders, { aggregation: [['count']] }), { collection_id: coll });
    hidden = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { collection_id: secret });
    dash = await dashboardWith(s.t, s.admin, [card.id, hidden.id], { collection_id: coll });
  });
  afterAll(() => s.t.close());

  it('lets a reader read, list and see related, but not change, archive, copy into it, revert or delete', async () => {
    const got = await http().get(`/api/dashboard/${dash.id}`).set(auth(reader.session)).expect(200);
    expect(got.body).toMatchObject({ can_write: false, collection: { id: coll, name: 'Finance' } });
    const shown = got.body.dashcards.find((d: { card_id: number }) => d.card_id === card.id);
    const secretCard = got.body.dashcards.find((d: { card_id: number }) => d.card_id === hidden.id);
    expect(shown.card.dataset_query).toBeDefined();
    // Only its id, as Metabase answers a card the caller may not read (issue 30).
    expect(secretCard.card).toEqual({ id: hidden.id });
    expect(ids(await http().get('/api/dashboard').set(auth(reader.session)).expect(200))).toContain(dash.id);
    await http().get(`/api/dashboard/${dash.id}/related`).set(auth(reader.session)).expect(200);
    await http().get(`/api/dashboard/${dash.id}/query_metadata`).set(auth(reader.session)).expect(200);
    await http().get(`/api/dashboard/${dash.id}/revisions`).set(auth(reader.session)).expect(200);
    expect403(await http().put(`/api/dashboard/${dash.id}`).set(auth(reader.session)).send({ name: 'mine now' }));
    expect403(await http().put(`/api/dashboard/${dash.id}`).set(auth(reader.session)).send({ archived: true }));
    expect403(await http().put(`/api/dashboard/${dash.id}/cards`).set(auth(reader.session)).send({ cards: [] }));
    expect403(await http().delete(`/api/dashboard/${dash.id}`).set(auth(reader.session)));
    expect403(await http().post('/api/dashboard').set(auth(reader.session)).send({ name: 'x', collection_id: coll }));
    expect403(await http().post(`/api/dashboard/${dash.id}/copy`).set(auth(reader.session)).send({ collection_id: coll }));
    expect403(await http().post(`/api/dashboard/save/collection/${coll}`).set(auth(reader.session)).send({ name: 'x' }));
    const rev = (await http().get(`/api/dashboard/${dash.id}/revisions`).set(auth(s.admin)).expect(200)).body[0];
    expect403(await http().post(`/api/dashboard/${dash.id}/revert`).set(auth(reader.session)).send({ revision_id: rev.id }));
    // Copying into a collection the reader may write (Root, for All Users) works.
    const copy = await http()
      .post(`/api/dashboard/${dash.id}/copy`)
      .set(auth(reader.session))
      .send({ collection_id: null, name: 'Mine' })
      .expect(200);
    expect(copy.body).toMatchObject({ collection_id: null, can_write: true, name: 'Mine' });
  });

  it("query_metadata leaves out what the reader may not read: a secret model's virtual table and a secret linked dashboard", async () => {
    const orders = s.table('ORDERS').id;
    const openModel = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { type: 'model', collection_id: coll });
    const secretModel = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { type: 'model', collection_id: secret });
    const onSecret = await makeCard(
      s.t,
      s.admin,
      { database: s.db, type: 'query', query: { 'source-table': `card__${secretModel.id}` } },
      { collection_id: coll },
    );
    const openDash = await makeDashboard(s.t, s.admin, { collection_id: coll, name: 'Open' });
    const secretDash = await makeDashboard(s.t, s.admin, { collection_id: secret, name: 'Closed' });
    const link = (id: number, i: number) =>
      newDashcard(-(10 + i), null, {
        visualization_settings: { virtual_card: { display: 'link' }, link: { entity: { id, model: 'dashboard' } } },
      });
    const d = await makeDashboard(s.t, s.admin, { collection_id: coll });
    await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ dashcards: [newDashcard(-1, openModel.id), newDashcard(-2, onSecret.id), link(openDash.id, 1), link(secretDash.id, 2)] })
      .expect(200);
    const tables = (res: { body: { tables: Array<{ id: unknown }> } }) => res.body.tables.map((t) => t.id);
    const admin = await http().get(`/api/dashboard/${d.id}/query_metadata`).set(auth(s.admin)).expect(200);
    expect(tables(admin)).toEqual(expect.arrayContaining([`card__${openModel.id}`, `card__${secretModel.id}`]));
    expect(admin.body.dashboards.map((x: { id: number }) => x.id).sort()).toEqual([openDash.id, secretDash.id].sort());
    const mine = await http().get(`/api/dashboard/${d.id}/query_metadata`).set(auth(reader.session)).expect(200);
    expect(tables(mine)).toContain(`card__${openModel.id}`);
    expect(tables(mine)).not.toContain(`card__${secretModel.id}`);
    expect(mine.body.dashboards).toEqual([expect.objectContaining({ id: openDash.id, name: 'Open' })]);
  });

  it('refuses everything to a user without a grant on the collection', async () => {
    expect403(await http().get(`/api/dashboard/${dash.id}`).set(auth(outsider.session)));
    expect(ids(await http().get('/api/dashboard').set(auth(outsider.session)).expect(200))).not.toContain(dash.id);
    expect403(await http().get(`/api/dashboard/${dash.id}/related`).set(auth(outsider.session)));
    expect403(await http().get(`/api/dashboard/${dash.id}/query_metadata`).set(auth(outsider.session)));
    expect403(await http().get(`/api/dashboard/${dash.id}/revisions`).set(auth(outsider.session)));
    expect403(await http().put(`/api/dashboard/${dash.id}`).set(auth(outsider.session)).send({ name: 'x' }));
    expect403(await http().delete(`/api/dashboard/${dash.id}`).set(auth(outsider.session)));
    expect403(await http().post(`/api/dashboard/${dash.id}/copy`).set(auth(outsider.session)).send({}));
    expect403(await http().post('/api/dashboard').set(auth(outsider.session)).send({ name: 'x', collection_id: coll }));
  });

  it('refuses to put a card the caller may not read on a dashboard it may write, and to move it where it may not write', async () => {
    const own = await makeDashboard(s.t, reader.session);
    expect403(
      await http()
        .put(`/api/dashboard/${own.id}`)
        .set(auth(reader.session))
        .send({ dashcards: [newDashcard(-1, hidden.id)] }),
    );
    await http()
      .put(`/api/dashboard/${own.id}`)
      .set(auth(reader.session))
      .send({ dashcards: [newDashcard(-1, card.id)] })
      .expect(200);
    expect403(await http().put(`/api/dashboard/${own.id}`).set(auth(reader.session)).send({ collection_id: coll }));
    expect403(await http().put(`/api/dashboard/${own.id}`).set(auth(reader.session)).send({ enable_embedding: true }));
  });
});
