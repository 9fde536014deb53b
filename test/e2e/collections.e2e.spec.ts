import { grant, makeCollection } from '../support/collection-factories';
import { auth, makeUser, MadeUser, setupAdmin } from '../support/factories';
import { expect400, expect403, expect404 } from '../support/expect-wire';
import { startTestApp, TestApp } from '../support/test-app';

const ids = (xs: Array<{ id: unknown }>) => xs.map((x) => x.id);

describe('collections: create, read, update, list', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    user = await makeUser(t, admin);
  });
  afterAll(() => t.close());

  it('creates a collection and answers it with its ancestors, location and permissions', async () => {
    const parent = await makeCollection(t, admin, { name: 'Sales', description: 'All about sales' });
    expect(parent).toMatchObject({
      name: 'Sales',
      description: 'All about sales',
      location: '/',
      effective_location: '/',
      parent_id: null,
      archived: false,
      can_write: true,
      personal_owner_id: null,
      is_personal: false,
      namespace: null,
      slug: 'sales',
    });
    expect(parent.entity_id).toMatch(/^[\w-]{21}$/);
    const child = await makeCollection(t, admin, { name: 'EMEA', parent_id: parent.id });
    expect(child).toMatchObject({ location: `/${parent.id}/`, effective_location: `/${parent.id}/`, parent_id: parent.id });
    const got = (await t.http().get(`/api/collection/${child.id}`).set(auth(admin)).expect(200)).body;
    expect(got.effective_ancestors).toEqual([
      { 'metabase.models.collection.root/is-root?': true, authority_level: null, name: 'Our analytics', id: 'root', can_write: true },
      expect.objectContaining({ id: parent.id, name: 'Sales', can_write: true }),
    ]);
    expect(got.can_write).toBe(true);
    expect(got.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('answers the Root collection', async () => {
    const root = (await t.http().get('/api/collection/root').set(auth(user.session)).expect(200)).body;
    expect(root).toMatchObject({
      id: 'root',
      name: 'Our analytics',
      can_write: true,
      effective_ancestors: [],
      effective_location: null,
      parent_id: null,
      is_personal: false,
      namespace: null,
    });
    const snippets = (await t.http().get('/api/collection/root?namespace=snippet').set(auth(user.session)).expect(200)).body;
    expect(snippets).toMatchObject({ id: 'root', namespace: 'snippet' });
  });

  it('lists readable collections with can_write, the Root first, archived ones on request', async () => {
    const a = await makeCollection(t, admin, { name: 'aardvark list' });
    const b = await makeCollection(t, admin, { name: 'Zebra list' });
    const list = (await t.http().get('/api/collection/').set(auth(user.session)).expect(200)).body;
    expect(list[0]).toMatchObject({ id: 'root', can_write: true });
    expect(ids(list)).toEqual(expect.arrayContaining([a.id, b.id, user.id && expect.anything()]));
    expect(list.every((c: { can_write?: boolean }) => typeof c.can_write === 'boolean')).toBe(true);
    const names = list.slice(1).map((c: { name: string }) => c.name.toLowerCase());
    expect(names).toEqual([...names].sort());

    await t.http().put(`/api/collection/${b.id}`).set(auth(admin)).send({ archived: true }).expect(200);
    const after = (await t.http().get('/api/collection/').set(auth(user.session)).expect(200)).body;
    expect(ids(after)).not.toContain(b.id);
    const archived = (await t.http().get('/api/collection/?archived=true').set(auth(user.session)).expect(200)).body;
    expect(ids(archived)).toEqual([b.id]);
  });

  it('renames, describes and marks official (admins only)', async () => {
    const c = await makeCollection(t, user.session, { name: 'Draft' });
    const renamed = (
      await t.http().put(`/api/collection/${c.id}`).set(auth(user.session)).send({ name: 'Final', description: 'Done' }).expect(200)
    ).body;
    expect(renamed).toMatchObject({ id: c.id, name: 'Final', description: 'Done', slug: 'final' });
    expect(
      (await t.http().put(`/api/collection/${c.id}`).set(auth(user.session)).send({ description: null }).expect(200)).body.description,
    ).toBeNull();
    expect403(await t.http().put(`/api/collection/${c.id}`).set(auth(user.session)).send({ authority_level: 'official' }));
    // The unchanged level, as a client sends its whole form back, is no change.
    await t
      .http()
      .put(`/api/collection/${c.id}`)
      .set(auth(user.session))
      .send({ name: 'Final', authority_level: null, archived: false, parent_id: null })
      .expect(200);
    expect403(await t.http().post('/api/collection').set(auth(user.session)).send({ name: 'Official?', authority_level: 'official' }));
    const official = (await t.http().put(`/api/collection/${c.id}`).set(auth(admin)).send({ authority_level: 'official' }).expect(200))
      .body;
    expect(official.authority_level).toBe('official');
    const list = (await t.http().get('/api/collection/').set(auth(admin)).expect(200)).body;
    expect(list[1].id).toBe(c.id);
  });

  it('refuses bad parameters with the spec messages', async () => {
    const c = await makeCollection(t, admin);
    expect400(await t.http().get('/api/collection/abc').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
    expect400(await t.http().get('/api/collection/0/items').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
    expect400(await t.http().put('/api/collection/-1').set(auth(admin)).send({}), 'id', 'value must be an integer greater than zero.');
    expect400(await t.http().post('/api/collection').set(auth(admin)).send({ name: '  ' }), 'name', 'value must be a non-blank string.');
    expect400(await t.http().post('/api/collection').set(auth(admin)).send({}), 'name', 'value must be a non-blank string.');
    expect400(
      await t.http().post('/api/collection').set(auth(admin)).send({ name: 'x', description: '' }),
      'description',
      'value must be a non-blank string.',
    );
    expect400(
      await t.http().post('/api/collection').set(auth(admin)).send({ name: 'x', parent_id: 0 }),
      'parent_id',
      'value must be an integer greater than zero.',
    );
    expect400(
      await t.http().post('/api/collection').set(auth(admin)).send({ name: 'x', parent_id: 99999999999 }),
      'parent_id',
      'value must be an integer greater than zero.',
    );
    expect400(
      await t.http().put(`/api/collection/${c.id}`).set(auth(admin)).send({ parent_id: 'one' }),
      'parent_id',
      'value must be an integer greater than zero.',
    );
    expect(
      Object.keys(
        (await t.http().put('/api/collection/graph').set(auth(admin)).send({ revision: 'x', groups: {} }).expect(400)).body.errors,
      ),
    ).toEqual(['revision']);
    expect400(
      await t.http().post('/api/collection').set(auth(admin)).send({ name: 'x', namespace: ' ' }),
      'namespace',
      'value must be a non-blank string.',
    );
    expect400(
      await t.http().post('/api/collection').set(auth(admin)).send({ name: 'x', authority_level: 'gold' }),
      'authority_level',
      'value must be one of: `official`.',
    );
    expect400(
      await t.http().put(`/api/collection/${c.id}`).set(auth(admin)).send({ archived: 'maybe' }),
      'archived',
      'value must be a valid boolean string.',
    );
    expect400(
      await t.http().put(`/api/collection/${c.id}`).set(auth(admin)).send({ name: '' }),
      'name',
      'value must be a non-blank string.',
    );
    expect400(await t.http().get('/api/collection/?archived=yes').set(auth(admin)), 'archived', 'value must be a valid boolean string.');
    expect400(
      await t.http().get('/api/collection/?personal-only=1').set(auth(admin)),
      'personal-only',
      'value must be a valid boolean string.',
    );
    expect400(
      await t.http().get('/api/collection/?exclude-other-user-collections=no').set(auth(admin)),
      'exclude-other-user-collections',
      'value must be a valid boolean string.',
    );
    expect400(
      await t.http().get('/api/collection/tree?collection-id=x').set(auth(admin)),
      'collection-id',
      'value must be an integer greater than zero.',
    );
    expect400(
      await t.http().get('/api/collection/tree?shallow=maybe').set(auth(admin)),
      'shallow',
      'value must be a valid boolean string.',
    );
    expect400(
      await t.http().get('/api/collection/tree?exclude-archived=2').set(auth(admin)),
      'exclude-archived',
      'value must be a valid boolean string.',
    );
    expect400(await t.http().get('/api/collection/root?namespace=').set(auth(admin)), 'namespace', 'value must be a non-blank string.');
    expect400(
      await t.http().get(`/api/collection/${c.id}/timelines?include=cards`).set(auth(admin)),
      'include',
      'value must be one of: `events`.',
    );
    expect400(
      await t.http().get('/api/collection/root/timelines?archived=x').set(auth(admin)),
      'archived',
      'value must be a valid boolean string.',
    );
  });

  it('answers 404 for a missing collection and 401 without a session', async () => {
    expect404(await t.http().get('/api/collection/999999').set(auth(admin)));
    expect404(await t.http().put('/api/collection/999999').set(auth(admin)).send({ name: 'x' }));
    expect404(await t.http().get('/api/collection/999999/items').set(auth(admin)));
    expect404(await t.http().get('/api/collection/999999/timelines').set(auth(admin)));
    expect404(await t.http().post('/api/collection').set(auth(admin)).send({ name: 'orphan', parent_id: 999999 }));
    expect((await t.http().get('/api/collection/').expect(401)).text).toBe('Unauthenticated');
  });

  it('answers timelines as an empty list after the access checks', async () => {
    const c = await makeCollection(t, admin);
    expect(
      (await t.http().get(`/api/collection/${c.id}/timelines?include=events&archived=false`).set(auth(user.session)).expect(200)).body,
    ).toEqual([]);
    expect((await t.http().get('/api/collection/root/timelines').set(auth(user.session)).expect(200)).body).toEqual([]);
  });

  it('keeps the snippet namespace a tree of its own', async () => {
    const folder = await makeCollection(t, admin, { name: 'SQL bits', namespace: 'snippet' });
    const sub = await makeCollection(t, admin, { name: 'Joins', parent_id: folder.id });
    expect(sub.namespace).toBe('snippet');
    const def = (await t.http().get('/api/collection/').set(auth(admin)).expect(200)).body;
    expect(ids(def)).not.toContain(folder.id);
    const snip = (await t.http().get('/api/collection/?namespace=snippet').set(auth(admin)).expect(200)).body;
    expect(ids(snip)).toEqual(['root', sub.id, folder.id]);
    const tree = (await t.http().get('/api/collection/tree?namespace=snippet').set(auth(admin)).expect(200)).body;
    expect(tree.map((n: { id: number }) => n.id)).toEqual([folder.id]);
    expect(tree[0].children.map((n: { id: number }) => n.id)).toEqual([sub.id]);
    const other = await makeCollection(t, admin);
    const mixed = await t
      .http()
      .post('/api/collection')
      .set(auth(admin))
      .send({ name: 'mixed', parent_id: other.id, namespace: 'snippet' });
    expect([mixed.status, mixed.body.message]).toEqual([400, 'Collection must be in the same namespace as its parent']);
    const moved = await t.http().put(`/api/collection/${sub.id}`).set(auth(admin)).send({ parent_id: other.id });
    expect([moved.status, moved.body.message]).toEqual([400, 'Collection must be in the same namespace as its parent']);
    const items = (await t.http().get('/api/collection/root/items?namespace=snippet').set(auth(admin)).expect(200)).body;
    expect(items.models).toEqual(['collection', 'snippet']);
    expect(ids(items.data)).toEqual([folder.id]);
  });

  it('gives a new collection write access only where its parent (or the Root) gives it', async () => {
    // All Users curate the Root by default: a top-level collection copies that.
    const top = await makeCollection(t, user.session, { name: 'By a user' });
    expect(top.can_write).toBe(true);
    await grant(t, admin, 1, top.id, 'read');
    const child = await t.http().post('/api/collection').set(auth(user.session)).send({ name: 'Under read-only', parent_id: top.id });
    expect403(child);
    const byAdmin = await makeCollection(t, admin, { parent_id: top.id });
    const graph = (await t.http().get('/api/collection/graph').set(auth(admin)).expect(200)).body;
    expect(graph.groups['1'][byAdmin.id]).toBe('read');
  });
});
