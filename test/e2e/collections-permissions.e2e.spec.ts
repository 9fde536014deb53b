import { DataSource } from 'typeorm';
import { grant, makeCollection, makeGroup, MadeCollection } from '../support/collection-factories';
import { auth, makeUser, MadeUser, setupAdmin } from '../support/factories';
import { expect403 } from '../support/expect-wire';
import { startTestApp, TestApp } from '../support/test-app';

const ids = (xs: Array<{ id: unknown }>) => xs.map((x) => x.id);
type Node = { id: number; children: Node[] };
const flatten = (nodes: Node[]): number[] => nodes.flatMap((n) => [n.id, ...flatten(n.children)]);

describe('collection permissions', () => {
  let t: TestApp;
  let admin: string;
  let reader: MadeUser;
  let writer: MadeUser;
  let outsider: MadeUser;
  let readers: number;
  let writers: number;
  let shared: MadeCollection;
  let sharedChild: MadeCollection;
  let secret: MadeCollection;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    [reader, writer, outsider] = [await makeUser(t, admin), await makeUser(t, admin), await makeUser(t, admin)];
    readers = await makeGroup(t, admin, [reader.id]);
    writers = await makeGroup(t, admin, [writer.id]);
    // Nobody but admins may use the Root from here on; new top-level collections copy that.
    await grant(t, admin, 1, 'root', 'none');
    shared = await makeCollection(t, admin, { name: 'Shared' });
    await grant(t, admin, readers, shared.id, 'read');
    await grant(t, admin, writers, shared.id, 'write');
    sharedChild = await makeCollection(t, admin, { name: 'Shared child', parent_id: shared.id });
    secret = await makeCollection(t, admin, { name: 'Secret' });
  });
  afterAll(() => t.close());

  it('answers the graph to admins only, without Administrators or personal collections', async () => {
    const graph = (await t.http().get('/api/collection/graph').set(auth(admin)).expect(200)).body;
    expect(typeof graph.revision).toBe('number');
    expect(Object.keys(graph.groups).sort()).toEqual(['1', String(readers), String(writers)].sort());
    expect(graph.groups[readers]).toMatchObject({ root: 'none', [shared.id]: 'read', [sharedChild.id]: 'read', [secret.id]: 'none' });
    expect(graph.groups[writers]).toMatchObject({ [shared.id]: 'write', [sharedChild.id]: 'write' });
    const personal = (await t.http().get('/api/user/current').set(auth(reader.session)).expect(200)).body.personal_collection_id;
    expect(graph.groups['1'][personal]).toBeUndefined();
    expect403(await t.http().get('/api/collection/graph').set(auth(reader.session)));
    expect403(await t.http().put('/api/collection/graph').set(auth(reader.session)).send({ revision: graph.revision, groups: {} }));
  });

  it('refuses a stale revision with 409, changes only what is sent and records every change', async () => {
    const ds = t.app.get(DataSource);
    const before = (await t.http().get('/api/collection/graph').set(auth(admin)).expect(200)).body;
    const rows = Number((await ds.query('SELECT COUNT(*) AS n FROM collection_permission_revision'))[0].n);
    const stale = await t
      .http()
      .put('/api/collection/graph')
      .set(auth(admin))
      .send({ revision: before.revision - 1, groups: { [readers]: { [secret.id]: 'read' } } });
    expect([stale.status, stale.body.message]).toEqual([
      409,
      'Looks like someone else edited the permissions and your data is out of date. Please fetch new data and try again.',
    ]);
    const missing = await t.http().put('/api/collection/graph').set(auth(admin)).send({ groups: {} });
    expect(missing.status).toBe(409);

    const after = (
      await t
        .http()
        .put('/api/collection/graph')
        .set(auth(admin))
        .send({ revision: before.revision, groups: { [readers]: { [secret.id]: 'read' } } })
        .expect(200)
    ).body;
    expect(after.revision).toBe(before.revision + 1);
    expect(after.groups[readers][secret.id]).toBe('read');
    // Everything not sent is as it was.
    expect({ ...after.groups[readers], [secret.id]: 'none' }).toEqual(before.groups[readers]);
    expect(after.groups[writers]).toEqual(before.groups[writers]);
    expect(Number((await ds.query('SELECT COUNT(*) AS n FROM collection_permission_revision'))[0].n)).toBe(rows + 1);

    const back = (
      await t
        .http()
        .put('/api/collection/graph?skip_graph=true')
        .set(auth(admin))
        .send({ revision: after.revision, groups: { [readers]: { [secret.id]: 'none' } } })
        .expect(200)
    ).body;
    expect(back).toEqual({ revision: after.revision + 1 });
    // `force` takes a graph whatever its revision.
    const forced = (await t.http().put('/api/collection/graph?force=true').set(auth(admin)).send({ revision: 0, groups: {} }).expect(200))
      .body;
    expect(forced.revision).toBe(after.revision + 2);
  });

  it('refuses grants on personal collections, unknown collections and malformed graphs', async () => {
    const { revision } = (await t.http().get('/api/collection/graph').set(auth(admin)).expect(200)).body;
    const personal = (await t.http().get('/api/user/current').set(auth(reader.session)).expect(200)).body.personal_collection_id;
    const inside = await makeCollection(t, reader.session, { name: 'In my personal', parent_id: personal });
    for (const target of [personal, inside.id, 999999]) {
      const res = await t
        .http()
        .put('/api/collection/graph')
        .set(auth(admin))
        .send({ revision, groups: { [readers]: { [target]: 'write' } } });
      expect([res.status, Object.keys(res.body.errors ?? {})]).toEqual([400, ['groups']]);
    }
    for (const groups of [{ [readers]: { root: 'owner' } }, { x: { root: 'read' } }, { [readers]: 'read' }, { 2: { root: 'read' } }]) {
      const res = await t.http().put('/api/collection/graph').set(auth(admin)).send({ revision, groups });
      expect([res.status, Object.keys(res.body.errors ?? {})]).toEqual([400, ['groups']]);
    }
    const noGroups = await t.http().put('/api/collection/graph').set(auth(admin)).send({ revision });
    expect([noGroups.status, noGroups.body.errors]).toEqual([400, { groups: 'value must be a map.' }]);
    expect((await t.http().get('/api/collection/graph').set(auth(admin)).expect(200)).body.revision).toBe(revision);
  });

  it('lets a read-only member read but not change, and lists only what they may read', async () => {
    const got = (await t.http().get(`/api/collection/${sharedChild.id}`).set(auth(reader.session)).expect(200)).body;
    expect(got).toMatchObject({ can_write: false, effective_location: `/${shared.id}/` });
    expect(got.effective_ancestors.map((a: { id: unknown }) => a.id)).toEqual(['root', shared.id]);
    expect403(await t.http().get(`/api/collection/${secret.id}`).set(auth(reader.session)));
    expect403(await t.http().get(`/api/collection/${secret.id}/items`).set(auth(reader.session)));
    expect403(await t.http().get(`/api/collection/${secret.id}/timelines`).set(auth(reader.session)));
    expect403(await t.http().put(`/api/collection/${shared.id}`).set(auth(reader.session)).send({ name: 'Mine now' }));
    expect403(await t.http().put(`/api/collection/${shared.id}`).set(auth(reader.session)).send({ archived: true }));
    expect403(await t.http().post('/api/collection').set(auth(reader.session)).send({ name: 'child', parent_id: shared.id }));
    expect403(await t.http().post('/api/collection').set(auth(reader.session)).send({ name: 'at the root' }));

    const list = (await t.http().get('/api/collection/').set(auth(reader.session)).expect(200)).body;
    const personal = (await t.http().get('/api/user/current').set(auth(reader.session)).expect(200)).body.personal_collection_id;
    expect(ids(list)).toEqual(expect.arrayContaining([shared.id, sharedChild.id, personal]));
    expect(ids(list)).not.toContain('root');
    expect(ids(list)).not.toContain(secret.id);
    expect(list.find((c: { id: number }) => c.id === shared.id).can_write).toBe(false);
    expect(list.find((c: { id: number }) => c.id === personal).can_write).toBe(true);
    const tree = (await t.http().get('/api/collection/tree').set(auth(reader.session)).expect(200)).body;
    expect(flatten(tree)).toEqual(expect.arrayContaining([shared.id, sharedChild.id, personal]));
    expect(flatten(tree)).not.toContain(secret.id);
    const rootItems = (await t.http().get('/api/collection/root/items').set(auth(reader.session)).expect(200)).body;
    expect(ids(rootItems.data)).toEqual([shared.id]);
    const items = (await t.http().get(`/api/collection/${shared.id}/items`).set(auth(reader.session)).expect(200)).body;
    expect(ids(items.data)).toEqual([sharedChild.id]);
    expect((await t.http().get('/api/collection/root').set(auth(reader.session)).expect(200)).body.can_write).toBe(false);
  });

  it('shows a readable collection under an unreadable one at its nearest readable ancestor', async () => {
    const hidden = await makeCollection(t, admin, { name: 'Hidden middle', parent_id: secret.id });
    const visible = await makeCollection(t, admin, { name: 'Visible leaf', parent_id: hidden.id });
    await grant(t, admin, readers, visible.id, 'read');
    const got = (await t.http().get(`/api/collection/${visible.id}`).set(auth(reader.session)).expect(200)).body;
    expect(got).toMatchObject({ location: `/${secret.id}/${hidden.id}/`, effective_location: '/', parent_id: null });
    expect(got.effective_ancestors.map((a: { id: unknown }) => a.id)).toEqual(['root']);
    const tree = (await t.http().get('/api/collection/tree').set(auth(reader.session)).expect(200)).body;
    expect(ids(tree)).toContain(visible.id);
    const rootItems = (await t.http().get('/api/collection/root/items').set(auth(reader.session)).expect(200)).body;
    expect(ids(rootItems.data)).toContain(visible.id);
  });

  it('gives a member without grants nothing but their own personal collection', async () => {
    expect403(await t.http().get(`/api/collection/${shared.id}`).set(auth(outsider.session)));
    expect403(await t.http().get(`/api/collection/${shared.id}/items`).set(auth(outsider.session)));
    expect403(await t.http().get(`/api/collection/tree?collection-id=${shared.id}`).set(auth(outsider.session)));
    const personal = (await t.http().get('/api/user/current').set(auth(outsider.session)).expect(200)).body.personal_collection_id;
    expect(ids((await t.http().get('/api/collection/').set(auth(outsider.session)).expect(200)).body)).toEqual([personal]);
    expect(flatten((await t.http().get('/api/collection/tree').set(auth(outsider.session)).expect(200)).body)).toEqual([personal]);
    expect((await t.http().get('/api/collection/root/items').set(auth(outsider.session)).expect(200)).body.data).toEqual([]);
  });

  it('lets a writer create children that inherit the parent grants, and move only between places they may write', async () => {
    const child = (
      await t.http().post('/api/collection').set(auth(writer.session)).send({ name: 'By writer', parent_id: shared.id }).expect(200)
    ).body;
    expect(child.can_write).toBe(true);
    const graph = (await t.http().get('/api/collection/graph').set(auth(admin)).expect(200)).body;
    expect([graph.groups[readers][child.id], graph.groups[writers][child.id], graph.groups['1'][child.id]]).toEqual([
      'read',
      'write',
      'none',
    ]);
    await t.http().put(`/api/collection/${child.id}`).set(auth(writer.session)).send({ name: 'Renamed by writer' }).expect(200);
    expect403(await t.http().put(`/api/collection/${child.id}`).set(auth(writer.session)).send({ parent_id: secret.id }));
    expect403(await t.http().put(`/api/collection/${child.id}`).set(auth(writer.session)).send({ parent_id: null }));
    const target = await makeCollection(t, admin, { name: 'Writable target' });
    await grant(t, admin, writers, target.id, 'write');
    await t.http().put(`/api/collection/${child.id}`).set(auth(writer.session)).send({ parent_id: target.id }).expect(200);
    await t.http().put(`/api/collection/${child.id}`).set(auth(writer.session)).send({ archived: true }).expect(200);
  });

  it('keeps personal collections to their owners and admins', async () => {
    const mine = (await t.http().get('/api/user/current').set(auth(reader.session)).expect(200)).body.personal_collection_id;
    expect(mine).toEqual(expect.any(Number));
    const got = (await t.http().get(`/api/collection/${mine}`).set(auth(reader.session)).expect(200)).body;
    expect(got).toMatchObject({ personal_owner_id: reader.id, is_personal: true, can_write: true, name: "Uma User's Personal Collection" });
    expect403(await t.http().get(`/api/collection/${mine}`).set(auth(outsider.session)));
    expect((await t.http().get(`/api/collection/${mine}`).set(auth(admin)).expect(200)).body.can_write).toBe(true);

    const inside = await makeCollection(t, reader.session, { name: 'Private notes', parent_id: mine });
    expect(inside).toMatchObject({ is_personal: true, can_write: true, personal_owner_id: null });
    expect403(await t.http().get(`/api/collection/${inside.id}`).set(auth(outsider.session)));
    const graph = (await t.http().get('/api/collection/graph').set(auth(admin)).expect(200)).body;
    expect(graph.groups[readers][inside.id]).toBeUndefined();

    const adminList = (await t.http().get('/api/collection/').set(auth(admin)).expect(200)).body;
    expect(ids(adminList)).toEqual(expect.arrayContaining([mine, inside.id]));
    const excluded = (await t.http().get('/api/collection/?exclude-other-user-collections=true').set(auth(admin)).expect(200)).body;
    expect(ids(excluded)).not.toContain(mine);
    expect(ids(excluded)).not.toContain(inside.id);
    const personalOnly = (await t.http().get('/api/collection/?personal-only=true').set(auth(admin)).expect(200)).body;
    expect(personalOnly.every((c: { personal_owner_id: number | null }) => c.personal_owner_id !== null)).toBe(true);
    expect(ids(personalOnly)).toContain(mine);
    expect(ids((await t.http().get('/api/collection/?personal-only=true').set(auth(reader.session)).expect(200)).body)).toEqual([mine]);
    const treeExcl = (await t.http().get('/api/collection/tree?exclude-other-user-collections=true').set(auth(admin)).expect(200)).body;
    expect(flatten(treeExcl)).not.toContain(mine);

    const archive = await t.http().put(`/api/collection/${mine}`).set(auth(reader.session)).send({ archived: true });
    expect([archive.status, archive.body]).toEqual([400, { message: 'You cannot archive a Personal Collection.' }]);
    const move = await t.http().put(`/api/collection/${mine}`).set(auth(admin)).send({ parent_id: shared.id });
    expect([move.status, move.body]).toEqual([400, { message: 'You cannot move a Personal Collection.' }]);
  });

  it("drops grants of a subtree moved into a personal collection and gives it the new parent's when moved out", async () => {
    const adminPersonal = (await t.http().get('/api/user/current').set(auth(admin)).expect(200)).body.personal_collection_id;
    const box = await makeCollection(t, admin, { name: 'Box', parent_id: shared.id });
    const inner = await makeCollection(t, admin, { name: 'Box inner', parent_id: box.id });
    await t.http().put(`/api/collection/${box.id}`).set(auth(admin)).send({ parent_id: adminPersonal }).expect(200);
    let graph = (await t.http().get('/api/collection/graph').set(auth(admin)).expect(200)).body;
    expect([graph.groups[readers][box.id], graph.groups[readers][inner.id]]).toEqual([undefined, undefined]);
    expect403(await t.http().get(`/api/collection/${inner.id}`).set(auth(reader.session)));

    await t.http().put(`/api/collection/${box.id}`).set(auth(admin)).send({ parent_id: shared.id }).expect(200);
    graph = (await t.http().get('/api/collection/graph').set(auth(admin)).expect(200)).body;
    expect([graph.groups[readers][box.id], graph.groups[readers][inner.id], graph.groups[writers][inner.id]]).toEqual([
      'read',
      'read',
      'write',
    ]);
    expect((await t.http().get(`/api/collection/${inner.id}`).set(auth(reader.session)).expect(200)).body.can_write).toBe(false);
  });

  it("keeps the snippet namespace's grants apart, new snippet folders copying the snippet Root's", async () => {
    await grant(t, admin, readers, 'root', 'read', 'snippet');
    const snippetGraph = (await t.http().get('/api/collection/graph?namespace=snippet').set(auth(admin)).expect(200)).body;
    expect(snippetGraph.groups[readers].root).toBe('read');
    expect(snippetGraph.groups['1'].root).toBe('write');
    expect(snippetGraph.groups[readers][shared.id]).toBeUndefined();
    expect((await t.http().get('/api/collection/graph').set(auth(admin)).expect(200)).body.groups[readers].root).toBe('none');
    const folder = await makeCollection(t, admin, { name: 'Snippet folder', namespace: 'snippet' });
    const after = (await t.http().get('/api/collection/graph?namespace=snippet').set(auth(admin)).expect(200)).body;
    expect([after.groups[readers][folder.id], after.groups['1'][folder.id]]).toEqual(['read', 'write']);
    expect((await t.http().get('/api/collection/root?namespace=snippet').set(auth(reader.session)).expect(200)).body.can_write).toBe(true);
  });

  it('sets personal_collection_id on every user answer and renames the collection with its owner', async () => {
    const current = (await t.http().get('/api/user/current').set(auth(writer.session)).expect(200)).body;
    const list = (await t.http().get('/api/user').set(auth(admin)).expect(200)).body.data;
    expect(list.every((u: { personal_collection_id: unknown }) => typeof u.personal_collection_id === 'number')).toBe(true);
    expect(list.find((u: { id: number }) => u.id === writer.id).personal_collection_id).toBe(current.personal_collection_id);
    expect((await t.http().get(`/api/user/${writer.id}`).set(auth(admin)).expect(200)).body.personal_collection_id).toBe(
      current.personal_collection_id,
    );
    await t.http().put(`/api/user/${writer.id}`).set(auth(admin)).send({ first_name: 'Wanda', last_name: 'Writer' }).expect(200);
    expect((await t.http().get(`/api/collection/${current.personal_collection_id}`).set(auth(writer.session)).expect(200)).body.name).toBe(
      "Wanda Writer's Personal Collection",
    );
  });
});
