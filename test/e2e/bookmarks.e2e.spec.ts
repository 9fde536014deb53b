import { auth, makeUser, MadeUser, setupAdmin } from '../support/factories';
import { execute, grant, insertCard, insertCollection } from '../support/content-rows';
import { startTestApp, TestApp } from '../support/test-app';

describe('bookmarks', () => {
  let t: TestApp;
  let admin: string;
  let adminId: number;
  let user: MadeUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    adminId = (await t.http().get('/api/user/current').set(auth(admin)).expect(200)).body.id;
    user = await makeUser(t, admin);
  });
  afterAll(() => t.close());

  const list = async (key: string) => (await t.http().get('/api/bookmark').set(auth(key)).expect(200)).body as Array<Record<string, unknown>>;

  it('bookmarks cards and collections, lists them in the caller\'s order, and removes them', async () => {
    const coll = await insertCollection(t, 'Bookmarked things', { description: 'a folder' });
    await execute(t, "UPDATE collection SET authority_level = 'official' WHERE id = $1", [coll]);
    const q = await insertCard(t, { name: 'Orders by month', description: 'monthly', collection_id: coll, creator_id: adminId });
    const model = await insertCard(t, { name: 'Orders model', creator_id: adminId, type: 'model' });

    const made = await t.http().post(`/api/bookmark/card/${q}`).set(auth(admin)).expect(200);
    expect(made.body).toMatchObject({ user_id: adminId, card_id: q });
    expect(typeof made.body.id).toBe('number');
    await t.http().post(`/api/bookmark/card/${model}`).set(auth(admin)).expect(200);
    expect((await t.http().post(`/api/bookmark/collection/${coll}`).set(auth(admin)).expect(200)).body).toMatchObject({ collection_id: coll });

    // Newest first while no order is set.
    let items = await list(admin);
    expect(items.map((i) => i.id)).toEqual([`collection-${coll}`, `card-${model}`, `card-${q}`]);
    expect(items[2]).toMatchObject({ type: 'card', item_id: q, name: 'Orders by month', description: 'monthly', display: 'table', card_type: 'question', dataset: false, collection_id: coll, authority_level: 'official' });
    expect(items[1]).toMatchObject({ card_type: 'model', dataset: true, collection_id: null });
    expect(items[0]).toMatchObject({ type: 'collection', item_id: coll, name: 'Bookmarked things', description: 'a folder', authority_level: 'official' });

    await t.http().put('/api/bookmark/ordering').set(auth(admin)).send({ orderings: [{ type: 'card', item_id: q }, { type: 'collection', item_id: coll }] }).expect(204);
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
    const card = await insertCard(t, { name: 'Soon archived', creator_id: adminId });
    await t.http().post(`/api/bookmark/card/${card}`).set(auth(user.session)).expect(200);
    expect((await list(user.session)).map((i) => i.id)).toContain(`card-${card}`);
    await execute(t, 'UPDATE report_card SET archived = $1 WHERE id = $2', [true, card]);
    expect((await list(user.session)).map((i) => i.id)).not.toContain(`card-${card}`);
    await execute(t, 'UPDATE report_card SET archived = $1 WHERE id = $2', [false, card]);
    expect((await list(user.session)).map((i) => i.id)).toContain(`card-${card}`);
  });

  it('refuses objects the caller may not read, and stops listing what they can no longer read', async () => {
    const secret = await insertCollection(t, 'Secret');
    const hidden = await insertCard(t, { name: 'Hidden', collection_id: secret, creator_id: adminId });
    const refused = await t.http().post(`/api/bookmark/card/${hidden}`).set(auth(user.session)).expect(403);
    expect(refused.text).toBe("You don't have permissions to do that.");
    await t.http().post(`/api/bookmark/collection/${secret}`).set(auth(user.session)).expect(403);

    // Readable through a grant: bookmarkable; the grant gone: no longer listed.
    await grant(t, 1, secret, 'read');
    await t.http().post(`/api/bookmark/card/${hidden}`).set(auth(user.session)).expect(200);
    await t.http().post(`/api/bookmark/collection/${secret}`).set(auth(user.session)).expect(200);
    expect((await list(user.session)).map((i) => i.id)).toEqual(expect.arrayContaining([`card-${hidden}`, `collection-${secret}`]));
    await execute(t, 'DELETE FROM collection_permission WHERE collection_id = $1', [secret]);
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
    const ordering = await t.http().put('/api/bookmark/ordering').set(auth(admin)).send({ orderings: [{ type: 'table', item_id: 1 }] }).expect(400);
    expect(Object.keys(ordering.body.errors)).toEqual(['orderings']);
    await t.http().put('/api/bookmark/ordering').set(auth(admin)).send({ orderings: [{ type: 'card', item_id: -1 }] }).expect(400);
    await t.http().put('/api/bookmark/ordering').set(auth(admin)).send({}).expect(400);
    expect((await t.http().get('/api/bookmark').expect(401)).text).toBe('Unauthenticated');
  });
});
