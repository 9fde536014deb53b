import { grant, makeCard, makeCollection, makeGroup, tableQuery } from '../support/card-factories';
import { auth, makeUserDirect, MadeUser } from '../support/factories';
import { expect403 } from '../support/expect-wire';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

/**
 * Collection permissions on every card endpoint: a non-admin whose group may only read the card's collection, and one
 * whose groups have no grant there. Grants live in collection_permission; All Users may write Root by default.
 */
describe('cards: collection permissions', () => {
  let s: SampleApp;
  let reader: MadeUser;
  let outsider: MadeUser;
  let coll: number;
  let card: { id: number };
  let orders: number;
  const http = () => s.t.http();
  const ids = (res: { body: Array<{ id: number }> }) => res.body.map((c) => c.id);

  beforeAll(async () => {
    s = await startSampleApp();
    orders = s.table('ORDERS').id;
    reader = await makeUserDirect(s.t);
    outsider = await makeUserDirect(s.t);
    const group = await makeGroup(s.t, s.admin, reader.id);
    coll = await makeCollection(s.t, 'Finance');
    await grant(s.t, group, coll, 'read');
    card = await makeCard(s.t, s.admin, tableQuery(s.db, orders, { aggregation: [['count']] }), {
      collection_id: coll,
      parameters: [{ id: 'p', type: 'category', values_source_type: 'static-list', values_source_config: { values: ['a', 'b'] } }],
    });
  });
  afterAll(() => s.t.close());

  it('lets a reader read, list and run, but not copy into the collection, change, move or delete', async () => {
    const got = await http().get(`/api/card/${card.id}`).set(auth(reader.session)).expect(200);
    expect(got.body).toMatchObject({ can_write: false, collection: { id: coll, name: 'Finance' } });
    expect(ids(await http().get('/api/card').set(auth(reader.session)).expect(200))).toContain(card.id);
    const ran = await http().post(`/api/card/${card.id}/query`).set(auth(reader.session)).send({}).expect(202);
    expect(ran.body.status).toBe('completed');
    expect((await http().get(`/api/card/${card.id}/params/p/values`).set(auth(reader.session)).expect(200)).body).toEqual({
      values: [['a'], ['b']],
      has_more_values: false,
    });
    await http().get(`/api/card/${card.id}/query_metadata`).set(auth(reader.session)).expect(200);
    await http().get(`/api/card/${card.id}/related`).set(auth(reader.session)).expect(200);
    await http().get(`/api/card/${card.id}/timelines`).set(auth(reader.session)).expect(200);
    const copy = await http().post(`/api/card/${card.id}/copy`).set(auth(reader.session)).expect(403);
    expect403(copy);
    expect403(await http().put(`/api/card/${card.id}`).set(auth(reader.session)).send({ name: 'Mine now' }));
    expect403(await http().put(`/api/card/${card.id}`).set(auth(reader.session)).send({ archived: true }));
    expect403(await http().delete(`/api/card/${card.id}`).set(auth(reader.session)));
    expect403(
      await http()
        .post('/api/card/collections')
        .set(auth(reader.session))
        .send({ card_ids: [card.id], collection_id: null }),
    );
    expect403(
      await http()
        .post('/api/card')
        .set(auth(reader.session))
        .send({ name: 'x', display: 'table', visualization_settings: {}, dataset_query: tableQuery(s.db, orders), collection_id: coll }),
    );
  });

  it('hides the card from a user without a grant on its collection, everywhere', async () => {
    for (const path of [
      `/api/card/${card.id}`,
      `/api/card/${card.id}/query_metadata`,
      `/api/card/${card.id}/related`,
      `/api/card/${card.id}/series`,
      `/api/card/${card.id}/timelines`,
      `/api/card/${card.id}/params/p/values`,
      `/api/card/${card.id}/params/p/search/a`,
    ]) {
      expect403(await http().get(path).set(auth(outsider.session)));
    }
    expect403(await http().post(`/api/card/${card.id}/query`).set(auth(outsider.session)).send({}));
    expect403(await http().post(`/api/card/pivot/${card.id}/query`).set(auth(outsider.session)).send({}));
    expect403(await http().post(`/api/card/${card.id}/copy`).set(auth(outsider.session)));
    for (const f of ['all', 'mine', 'popular', 'recent', 'archived']) {
      expect(ids(await http().get(`/api/card?f=${f}`).set(auth(outsider.session)).expect(200))).not.toContain(card.id);
    }
    expect(ids(await http().get(`/api/card?f=table&model_id=${orders}`).set(auth(outsider.session)).expect(200))).not.toContain(card.id);
    // As a query source: the card's rows never reach someone who may not read it.
    const viaSource = await http()
      .post('/api/dataset')
      .set(auth(outsider.session))
      .send({ database: s.db, type: 'query', query: { 'source-table': `card__${card.id}` } });
    expect403(viaSource);
    expect403(await http().get(`/api/table/card__${card.id}/query_metadata`).set(auth(outsider.session)));
  });

  it("answers each listed card's can_write from the caller's grants: read-only, write, Root and own personal collection", async () => {
    const group = await makeGroup(s.t, s.admin, reader.id);
    const writable = await makeCollection(s.t, 'Writable by readers');
    await grant(s.t, group, writable, 'write');
    const me = await http().get('/api/user/current').set(auth(reader.session)).expect(200);
    const personal = (me.body as { personal_collection_id: number }).personal_collection_id;
    const q = tableQuery(s.db, orders);
    const made = {
      readOnly: card.id,
      write: (await makeCard(s.t, s.admin, q, { collection_id: writable })).id,
      root: (await makeCard(s.t, s.admin, q)).id,
      own: (await makeCard(s.t, reader.session, q, { collection_id: personal })).id,
    };
    const listed = (await http().get('/api/card?f=all').set(auth(reader.session)).expect(200)).body as Array<{
      id: number;
      can_write: boolean;
    }>;
    const canWrite = (id: number) => listed.find((c) => c.id === id)?.can_write;
    expect({ readOnly: canWrite(made.readOnly), write: canWrite(made.write), root: canWrite(made.root), own: canWrite(made.own) }).toEqual({
      readOnly: false,
      write: true,
      root: true,
      own: true,
    });
    // The outsider, with no grant, sees none of the collection cards and may write Root's.
    const theirs = (await http().get('/api/card?f=all').set(auth(outsider.session)).expect(200)).body as Array<{
      id: number;
      can_write: boolean;
    }>;
    expect(theirs.map((c) => c.id)).not.toEqual(expect.arrayContaining([made.write]));
    expect(theirs.find((c) => c.id === made.root)?.can_write).toBe(true);
  });

  it('lets users of Root create there and change their own cards; admins see every card', async () => {
    const mine = await makeCard(s.t, outsider.session, tableQuery(s.db, orders));
    expect(mine.can_write).toBe(true);
    await http().put(`/api/card/${mine.id}`).set(auth(outsider.session)).send({ name: 'Renamed by owner' }).expect(200);
    expect(ids(await http().get('/api/card?f=mine').set(auth(outsider.session)).expect(200))).toEqual([mine.id]);
    expect(ids(await http().get('/api/card').set(auth(s.admin)).expect(200))).toEqual(expect.arrayContaining([mine.id, card.id]));
    // Moving into a collection the user may only read is refused; into their personal collection it is not.
    expect403(
      await http()
        .post('/api/card/collections')
        .set(auth(reader.session))
        .send({ card_ids: [mine.id], collection_id: coll }),
    );
  });

  it('refuses a card whose query the user may not run', async () => {
    const graph = (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
    const group = await makeGroup(s.t, s.admin, (await makeUserDirect(s.t)).id);
    await http()
      .put('/api/permissions/graph')
      .set(auth(s.admin))
      .send({
        revision: graph.revision,
        groups: { 1: { [s.db]: { data: 'unrestricted', native: 'none' } }, [group]: { [s.db]: { data: 'unrestricted', native: 'none' } } },
      })
      .expect(200);
    const native = { database: s.db, type: 'native', native: { query: 'SELECT 1' } };
    expect403(
      await http()
        .post('/api/card')
        .set(auth(outsider.session))
        .send({ name: 'sql', display: 'table', visualization_settings: {}, dataset_query: native }),
    );
  });

  it("never runs or describes a card's data for a reader without data access to its database", async () => {
    const graph = (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
    await http()
      .put('/api/permissions/graph')
      .set(auth(s.admin))
      .send({ revision: graph.revision, groups: { 1: { [s.db]: { data: 'no', native: 'none' } } } })
      .expect(200);
    expect((await http().get(`/api/card/${card.id}`).set(auth(reader.session)).expect(200)).body.id).toBe(card.id);
    expect403(await http().post(`/api/card/${card.id}/query`).set(auth(reader.session)).send({}));
    expect403(await http().get(`/api/table/card__${card.id}/query_metadata`).set(auth(reader.session)));
    expect((await http().get(`/api/card/${card.id}/query_metadata`).set(auth(reader.session)).expect(200)).body).toEqual({
      databases: [],
      tables: [],
      fields: [],
    });
    await http().get(`/api/table/card__${card.id}/query_metadata`).set(auth(s.admin)).expect(200);
  });

  it('needs an admin for the shared listings', async () => {
    expect403(await http().get('/api/card/embeddable').set(auth(reader.session)));
    expect403(await http().get('/api/card/public').set(auth(reader.session)));
    expect((await http().get('/api/card').expect(401)).text).toBe('Unauthenticated');
  });
});
