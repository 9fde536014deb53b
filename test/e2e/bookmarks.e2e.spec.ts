import { grant, makeCard, tableQuery } from '../support/card-factories';
import { auth, MadeUser } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import type { TestApp } from '../support/test-app';

jest.setTimeout(120_000);

describe('bookmarks', () => {
  let s: SampleApp;
  let t: TestApp;
  let admin: string;
  let adminId: number;
  let user: MadeUser;
  beforeAll(async () => {
    s = await startSampleApp();
    ({ t, admin, user } = s);
    adminId = (await t.http().get('/api/user/current').set(auth(admin)).expect(200)).body.id;
  });
  afterAll(() => s.t.close());

  const insertCollection = async (name: string, extra: Record<string, unknown> = {}) =>
    (
      await t
        .http()
        .post('/api/collection')
        .set(auth(admin))
        .send({ name, ...extra })
        .expect(200)
    ).body.id as number;
  const insertCard = async (name: string, extra: Record<string, unknown> = {}) =>
    (await makeCard(t, admin, tableQuery(s.db, s.table('ORDERS').id), { name, ...extra })).id;
  const archive = (card: number, archived: boolean) => t.http().put(`/api/card/${card}`).set(auth(admin)).send({ archived }).expect(200);

  const list = async (key: string) =>
    (await t.http().get('/api/bookmark').set(auth(key)).expect(200)).body as Array<Record<string, unknown>>;

  it("bookmarks cards and collections, lists them in the caller's order, and removes them", async () => {
    const coll = await insertCollection('Bookmarked things', { description: 'a folder', authority_level: 'official' });
    const q = await insertCard('Orders by month', { description: 'monthly', collection_id: coll });
    const model = await insertCard('Orders model', { type: 'model' });

    const made = await t.http().post(`/api/bookmark/card/${q}`).set(auth(admin)).expect(200);
    expect(made.body).toMatchObject({ user_id: adminId, card_id: q });
    expect(typeof made.body.id).toBe('number');
    await t.http().post(`/api/bookmark/card/${model}`).set(auth(admin)).expect(200);
    expect((await t.http().post(`/api/bookmark/collection/${coll}`).set(auth(admin)).expect(200)).body).toMatchObject({
      collection_id: coll,
    });

    // Newest first while no order is set.
    let items = await list(admin);
    expect(items.map((i) => i.id)).toEqual([`collection-${coll}`, `card-${model}`, `card-${q}`]);
    expect(items[2]).toMatchObject({
      type: 'card',
      item_id: q,
      name: 'Orders by month',
      description: 'monthly',
      display: 'table',
      card_type: 'question',
      dataset: false,
      collection_id: coll,
      authority_level: 'official',
    });
    expect(items[1]).toMatchObject({ card_type: 'model', dataset: true, collection_id: null });
    expect(items[0]).toMatchObject({
      type: 'collection',
      item_id: coll,
      name: 'Bookmarked things',
      description: 'a folder',
      authority_level: 'official',
    });

    await t
      .http()
      .put('/api/bookmark/ordering')
      .set(auth(admin))
      .send({
        orderings: [
          { type: 'card', item_id: q },
          { type: 'collection', item_id: coll },
        ],
      })
      .expect(204);
    items = await list(admin);
    expect(items.map((i) => i.id)).toEqual([`card-${q}`, `collection-${coll}`, `card-${model}`]);

    // Twice is refused as Metabase does, and leaves one bookmark.
    const twice = await t.http().post(`/api/bookmark/card/${q}`).set(auth(admin)).expect(400);
    expect(twice.body).toEqual({ message: 'Bookmark already exists' });
    expect((await list(admin)).filter((i) => i.id === `card-${q}`)).toHaveLength(1);

    await t.http().delete(`/api/bookmark/card/${q}`).set(auth(admin)).expect(204);
    await t.http().delete(`/api/bookmark/card/${q}`).set(auth(admin)).expect(204);
    expect((await list(admin)).map((i) => i.id)).toEqual([`collection-${coll}`, `card-${model}`]);
    // Another user's bookmarks are their own.
    expect(await list(user.session)).toEqual([]);
  });

  it('hides archived objects', async () => {
    const card = await insertCard('Soon archived');
    await t.http().post(`/api/bookmark/card/${card}`).set(auth(user.session)).expect(200);
    expect((await list(user.session)).map((i) => i.id)).toContain(`card-${card}`);
    await archive(card, true);
    expect((await list(user.session)).map((i) => i.id)).not.toContain(`card-${card}`);
    await archive(card, false);
    expect((await list(user.session)).map((i) => i.id)).toContain(`card-${card}`);
  });

  it('refuses objects the caller may not read, and stops listing what they can no longer read', async () => {
    const secret = await insertCollection('Secret');
    await grant(t, 1, secret, null);
    const hidden = await insertCard('Hidden', { collection_id: secret });
    const refused = await t.http().post(`/api/bookmark/card/${hidden}`).set(auth(user.session)).expect(403);
    expect(refused.text).toBe("You don't have permissions to do that.");
    await t.http().post(`/api/bookmark/collection/${secret}`).set(auth(user.session)).expect(403);

    // Readable through a grant: bookmarkable; the grant gone: no longer listed.
    await grant(t, 1, secret, 'read');
    await t.http().post(`/api/bookmark/card/${hidden}`).set(auth(user.session)).expect(200);
    await t.http().post(`/api/bookmark/collection/${secret}`).set(auth(user.session)).expect(200);
    expect((await list(user.session)).map((i) => i.id)).toEqual(expect.arrayContaining([`card-${hidden}`, `collection-${secret}`]));
    await grant(t, 1, secret, null);
    const after = (await list(user.session)).map((i) => i.id);
    expect(after).not.toContain(`card-${hidden}`);
    expect(after).not.toContain(`collection-${secret}`);
    // An admin reads everything.
    await t.http().post(`/api/bookmark/card/${hidden}`).set(auth(admin)).expect(200);
  });

  it('answers 404 for missing objects and validates the path and the body', async () => {
    expect((await t.http().post('/api/bookmark/card/999999').set(auth(admin)).expect(404)).text).toBe('Not found.');
    expect((await t.http().post('/api/bookmark/collection/999999').set(auth(admin)).expect(404)).text).toBe('Not found.');
    const model = await t.http().post('/api/bookmark/table/1').set(auth(admin)).expect(400);
    expect(model.body).toEqual({
      errors: { model: 'value must be one of: `card`, `dashboard`, `collection`.' },
      'specific-errors': { model: ['value must be one of: `card`, `dashboard`, `collection`, received: "table"'] },
    });
    const id = await t.http().post('/api/bookmark/card/abc').set(auth(admin)).expect(400);
    expect(id.body.errors).toEqual({ id: 'value must be an integer greater than zero.' });
    await t.http().delete('/api/bookmark/card/0').set(auth(admin)).expect(400);
    const ordering = await t
      .http()
      .put('/api/bookmark/ordering')
      .set(auth(admin))
      .send({ orderings: [{ type: 'table', item_id: 1 }] })
      .expect(400);
    expect(Object.keys(ordering.body.errors)).toEqual(['orderings']);
    await t
      .http()
      .put('/api/bookmark/ordering')
      .set(auth(admin))
      .send({ orderings: [{ type: 'card', item_id: -1 }] })
      .expect(400);
    await t.http().put('/api/bookmark/ordering').set(auth(admin)).send({}).expect(400);
    expect((await t.http().get('/api/bookmark').expect(401)).text).toBe('Unauthenticated');
  });
});
