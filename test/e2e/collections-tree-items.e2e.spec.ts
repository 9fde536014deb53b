import type { CollectionItem, CollectionItemSource, ItemsQuery } from '../../src/modules/collections/collection-item-source';
import { subscribeItemSource } from '../../src/modules/collections/collection-item-source';
import { EventBus } from '../../src/common/events/event-bus';
import { makeCollection, MadeCollection } from '../support/collection-factories';
import { auth, makeUser, MadeUser, setupAdmin } from '../support/factories';
import { expect400 } from '../support/expect-wire';
import { startTestApp, TestApp } from '../support/test-app';

interface FakeItem extends CollectionItem {
  collection_id: number | null;
  archived: boolean;
  collection_position: number | null;
}

/** An item source of dashboards and pulses kept in memory: what the collections module merges, sorts and pages. */
class FakeSource implements CollectionItemSource {
  readonly models = ['dashboard', 'pulse'] as const;
  readonly items_: FakeItem[] = [];
  readonly archiveCalls: Array<{ ids: number[]; archived: boolean }> = [];
  private next = 1;

  add(collectionId: number | null, name: string, extra: Partial<FakeItem> = {}): FakeItem {
    const item: FakeItem = {
      id: this.next++,
      model: 'dashboard',
      name,
      collection_id: collectionId,
      archived: false,
      collection_position: null,
      last_edited_at: null,
      last_edited_by: null,
      ...extra,
    };
    this.items_.push(item);
    return item;
  }

  async items(q: ItemsQuery): Promise<CollectionItem[]> {
    return this.items_.filter(
      (i) =>
        i.collection_id === q.collectionId &&
        i.archived === q.archived &&
        (q.models.length === 0 || q.models.includes(i.model)) &&
        (q.pinnedState === 'all' || (q.pinnedState === 'is_pinned') === (i.collection_position !== null)),
    );
  }

  async modelsIn(ids: number[], archived: boolean): Promise<Map<number, Set<string>>> {
    const out = new Map<number, Set<string>>();
    for (const i of this.items_) {
      if (i.collection_id === null || !ids.includes(i.collection_id) || i.archived !== archived) continue;
      (out.get(i.collection_id) ?? out.set(i.collection_id, new Set()).get(i.collection_id)!).add(i.model);
    }
    return out;
  }

  async archiveIn(_tx: unknown, ids: number[], archived: boolean): Promise<void> {
    this.archiveCalls.push({ ids: [...ids].sort((a, b) => a - b), archived });
    for (const i of this.items_) if (i.collection_id !== null && ids.includes(i.collection_id)) i.archived = archived;
  }

  async deleteIn(_tx: unknown, ids: number[]): Promise<void> {
    const gone = this.items_.filter((i) => i.collection_id !== null && ids.includes(i.collection_id));
    for (const i of gone) this.items_.splice(this.items_.indexOf(i), 1);
  }
}

const ids = (xs: Array<{ id: unknown }>) => xs.map((x) => x.id);

describe('collection tree and items', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  let fake: FakeSource;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    user = await makeUser(t, admin);
    fake = new FakeSource();
    subscribeItemSource(t.app.get(EventBus), fake);
  });
  afterAll(() => t.close());

  it('answers the tree with children, here and below; shallow and from a collection', async () => {
    const a = await makeCollection(t, admin, { name: 'T-A' });
    const b = await makeCollection(t, admin, { name: 'T-B', parent_id: a.id });
    const c = await makeCollection(t, admin, { name: 'T-C', parent_id: b.id });
    fake.add(c.id, 'deep dash');
    fake.add(b.id, 'mid pulse', { model: 'pulse' });
    const tree = (await t.http().get('/api/collection/tree').set(auth(admin)).expect(200)).body;
    const nodeA = tree.find((n: { id: number }) => n.id === a.id);
    expect(nodeA).toMatchObject({ name: 'T-A', here: [], below: ['dashboard', 'pulse'], can_write: true, location: '/' });
    expect(nodeA.children).toHaveLength(1);
    expect(nodeA.children[0]).toMatchObject({ id: b.id, here: ['pulse'], below: ['dashboard'] });
    expect(nodeA.children[0].children[0]).toMatchObject({ id: c.id, here: ['dashboard'], below: [], children: [] });
    // The admin's personal collection is in the tree too.
    expect(tree.some((n: { personal_owner_id: number | null }) => n.personal_owner_id !== null)).toBe(true);

    const shallow = (await t.http().get('/api/collection/tree?shallow=true').set(auth(admin)).expect(200)).body;
    expect(shallow.find((n: { id: number }) => n.id === a.id)).toMatchObject({ children: true, below: ['dashboard', 'pulse'] });
    const fromA = (await t.http().get(`/api/collection/tree?shallow=true&collection-id=${a.id}`).set(auth(admin)).expect(200)).body;
    expect(fromA.map((n: { id: number; children: boolean }) => [n.id, n.children])).toEqual([[b.id, true]]);
    const full = (await t.http().get(`/api/collection/tree?collection-id=${a.id}`).set(auth(admin)).expect(200)).body;
    expect(ids(full)).toEqual([b.id]);
    expect(ids(full[0].children)).toEqual([c.id]);

    await t.http().put(`/api/collection/${c.id}`).set(auth(admin)).send({ archived: true }).expect(200);
    const withArchived = (await t.http().get(`/api/collection/tree?collection-id=${a.id}`).set(auth(admin)).expect(200)).body;
    expect(ids(withArchived[0].children)).toEqual([c.id]);
    const without = (await t.http().get(`/api/collection/tree?collection-id=${a.id}&exclude-archived=true`).set(auth(admin)).expect(200))
      .body;
    expect(without[0].children).toEqual([]);
  });

  it("lists a collection's items: sub-collections and every source, sorted and paged", async () => {
    const home = await makeCollection(t, admin, { name: 'Home' });
    const sub = await makeCollection(t, admin, { name: 'beta sub', parent_id: home.id });
    await makeCollection(t, admin, { name: 'inner', parent_id: sub.id });
    fake.add(sub.id, 'in sub');
    const d1 = fake.add(home.id, 'Alpha dash', { last_edited_at: '2026-01-02T00:00:00Z', last_edited_by: 'Zed Zulu' });
    const d2 = fake.add(home.id, 'gamma dash', {
      last_edited_at: '2026-03-01T00:00:00Z',
      last_edited_by: 'Amy Adams',
      collection_position: 1,
    });
    const p1 = fake.add(home.id, 'delta pulse', { model: 'pulse' });

    const all = (await t.http().get(`/api/collection/${home.id}/items`).set(auth(admin)).expect(200)).body;
    expect(all.total).toBe(4);
    expect(all.limit).toBeNull();
    expect(all.offset).toBeNull();
    expect(all.models).toEqual(['card', 'collection', 'dashboard', 'dataset', 'metric', 'pulse', 'timeline']);
    expect(all.data.map((i: { name: string }) => i.name)).toEqual(['Alpha dash', 'beta sub', 'delta pulse', 'gamma dash']);
    const subItem = all.data.find((i: { model: string }) => i.model === 'collection');
    expect(subItem).toMatchObject({
      id: sub.id,
      model: 'collection',
      here: ['collection', 'dashboard'],
      below: [],
      can_write: true,
      collection_id: home.id,
      location: `/${home.id}/`,
    });

    const desc = (await t.http().get(`/api/collection/${home.id}/items?sort_column=name&sort_direction=desc`).set(auth(admin)).expect(200))
      .body;
    expect(desc.data.map((i: { name: string }) => i.name)).toEqual(['gamma dash', 'delta pulse', 'beta sub', 'Alpha dash']);
    const byModel = (await t.http().get(`/api/collection/${home.id}/items?sort_column=model`).set(auth(admin)).expect(200)).body;
    expect(byModel.data.map((i: { model: string }) => i.model)).toEqual(['dashboard', 'dashboard', 'pulse', 'collection']);
    const byEdit = (
      await t.http().get(`/api/collection/${home.id}/items?sort_column=last_edited_at&sort_direction=desc`).set(auth(admin)).expect(200)
    ).body;
    expect(ids(byEdit.data).slice(0, 2)).toEqual([d2.id, d1.id]);
    const byEditor = (await t.http().get(`/api/collection/${home.id}/items?sort_column=last_edited_by`).set(auth(admin)).expect(200)).body;
    expect(ids(byEditor.data).slice(0, 2)).toEqual([d2.id, d1.id]);

    const page = (await t.http().get(`/api/collection/${home.id}/items?limit=2&offset=1`).set(auth(admin)).expect(200)).body;
    expect([page.total, page.limit, page.offset, page.data.map((i: { name: string }) => i.name)]).toEqual([
      4,
      2,
      1,
      ['beta sub', 'delta pulse'],
    ]);

    const one = (await t.http().get(`/api/collection/${home.id}/items?models=pulse`).set(auth(admin)).expect(200)).body;
    expect([one.models, ids(one.data)]).toEqual([['pulse'], [p1.id]]);
    const two = (await t.http().get(`/api/collection/${home.id}/items?models=collection&models=pulse`).set(auth(admin)).expect(200)).body;
    expect([two.models, two.total]).toEqual([['collection', 'pulse'], 2]);
    const none = (await t.http().get(`/api/collection/${home.id}/items?models=no_models`).set(auth(admin)).expect(200)).body;
    expect(none).toEqual({ total: 0, data: [], models: [], limit: null, offset: null });
    const cardsOnly = (await t.http().get(`/api/collection/${home.id}/items?models=card`).set(auth(admin)).expect(200)).body;
    expect(cardsOnly.data.filter((i: { model: string }) => i.model !== 'card')).toEqual([]);

    const pinned = (await t.http().get(`/api/collection/${home.id}/items?pinned_state=is_pinned`).set(auth(admin)).expect(200)).body;
    expect(ids(pinned.data)).toEqual([d2.id]);
    const unpinned = (await t.http().get(`/api/collection/${home.id}/items?pinned_state=is_not_pinned`).set(auth(admin)).expect(200)).body;
    expect(unpinned.total).toBe(3);
  });

  it('refuses bad item parameters', async () => {
    const c = await makeCollection(t, admin);
    const models =
      'value must be one of: `card`, `collection`, `dashboard`, `dataset`, `metric`, `no_models`, `pulse`, `snippet`, `timeline`.';
    expect400(await t.http().get(`/api/collection/${c.id}/items?models=table`).set(auth(admin)), 'models', models);
    expect400(await t.http().get(`/api/collection/${c.id}/items?models=card&models=nope`).set(auth(admin)), 'models', models);
    expect400(
      await t.http().get(`/api/collection/${c.id}/items?archived=1`).set(auth(admin)),
      'archived',
      'value must be a valid boolean string.',
    );
    expect400(
      await t.http().get(`/api/collection/${c.id}/items?pinned_state=some`).set(auth(admin)),
      'pinned_state',
      'value must be one of: `all`, `is_pinned`, `is_not_pinned`.',
    );
    expect400(
      await t.http().get('/api/collection/root/items?sort_column=size').set(auth(admin)),
      'sort_column',
      'value must be one of: `model`, `name`, `last_edited_by`, `last_edited_at`.',
    );
    expect400(
      await t.http().get('/api/collection/root/items?sort_direction=up').set(auth(admin)),
      'sort_direction',
      'value must be one of: `asc`, `desc`.',
    );
    expect400(
      await t.http().get('/api/collection/root/items?limit=x').set(auth(admin)),
      'limit',
      'value must be an integer greater than or equal to zero.',
    );
    expect400(
      await t.http().get('/api/collection/root/items?namespace=').set(auth(admin)),
      'namespace',
      'value must be a non-blank string.',
    );
  });

  it('lists the Root: top-level collections and root items, no personal collections', async () => {
    const top = await makeCollection(t, admin, { name: 'Root level' });
    const rootDash = fake.add(null, 'Root dash');
    const res = (await t.http().get('/api/collection/root/items').set(auth(user.session)).expect(200)).body;
    expect(ids(res.data)).toEqual(expect.arrayContaining([top.id, rootDash.id]));
    expect(res.data.filter((i: { personal_owner_id?: number | null }) => i.personal_owner_id)).toEqual([]);
    expect(res.data.every((i: { collection_id: unknown }) => i.collection_id === null)).toBe(true);
  });

  it('archives a collection with its subtree and items, and unarchives what went with it', async () => {
    const a = await makeCollection(t, admin, { name: 'Arch A' });
    const b = await makeCollection(t, admin, { name: 'Arch B', parent_id: a.id });
    const c = await makeCollection(t, admin, { name: 'Arch C', parent_id: b.id });
    const lone = await makeCollection(t, admin, { name: 'Arch lone', parent_id: a.id });
    const dash = fake.add(c.id, 'archived with C');
    // `lone` was archived on its own first: unarchiving A leaves it archived.
    await t.http().put(`/api/collection/${lone.id}`).set(auth(admin)).send({ archived: true }).expect(200);
    const archived = (await t.http().put(`/api/collection/${a.id}`).set(auth(admin)).send({ archived: 'true' }).expect(200)).body;
    expect(archived.archived).toBe(true);
    for (const id of [b.id, c.id])
      expect((await t.http().get(`/api/collection/${id}`).set(auth(admin)).expect(200)).body.archived).toBe(true);
    expect(fake.archiveCalls.at(-1)).toEqual({ ids: [a.id, b.id, c.id].sort((x, y) => x - y), archived: true });
    expect(dash.archived).toBe(true);
    const inArchive = (await t.http().get(`/api/collection/${b.id}/items?archived=true`).set(auth(admin)).expect(200)).body;
    expect(ids(inArchive.data)).toEqual([c.id]);
    const adding = await t.http().post('/api/collection').set(auth(admin)).send({ name: 'into archive', parent_id: a.id });
    expect([adding.status, adding.body]).toEqual([404, { message: 'The object has been archived.', error_code: 'archived' }]);
    const early = await t.http().put(`/api/collection/${c.id}`).set(auth(admin)).send({ archived: false });
    expect(early.status).toBe(400);

    await t.http().put(`/api/collection/${a.id}`).set(auth(admin)).send({ archived: false }).expect(200);
    for (const id of [a.id, b.id, c.id])
      expect((await t.http().get(`/api/collection/${id}`).set(auth(admin)).expect(200)).body.archived).toBe(false);
    expect((await t.http().get(`/api/collection/${lone.id}`).set(auth(admin)).expect(200)).body.archived).toBe(true);
    expect(dash.archived).toBe(false);
  });

  it('moves a collection with its subtree, and refuses a move into its own subtree', async () => {
    const a = await makeCollection(t, admin, { name: 'Mv A' });
    const b = await makeCollection(t, admin, { name: 'Mv B', parent_id: a.id });
    const c = await makeCollection(t, admin, { name: 'Mv C', parent_id: b.id });
    const target: MadeCollection = await makeCollection(t, admin, { name: 'Mv target' });
    for (const into of [b.id, c.id, a.id]) {
      const refused = await t.http().put(`/api/collection/${a.id}`).set(auth(admin)).send({ parent_id: into });
      expect([refused.status, refused.body]).toEqual([
        400,
        { message: "You can't move a Collection into itself or into one of its descendants." },
      ]);
    }
    const moved = (await t.http().put(`/api/collection/${b.id}`).set(auth(admin)).send({ parent_id: target.id }).expect(200)).body;
    expect(moved).toMatchObject({ location: `/${target.id}/`, parent_id: target.id });
    expect((await t.http().get(`/api/collection/${c.id}`).set(auth(admin)).expect(200)).body.location).toBe(`/${target.id}/${b.id}/`);
    // Absent parent_id leaves it in place; null moves it to the Root.
    expect((await t.http().put(`/api/collection/${b.id}`).set(auth(admin)).send({ name: 'Mv B2' }).expect(200)).body.location).toBe(
      `/${target.id}/`,
    );
    const toRoot = (await t.http().put(`/api/collection/${b.id}`).set(auth(admin)).send({ parent_id: null }).expect(200)).body;
    expect(toRoot).toMatchObject({ location: '/', parent_id: null });
    expect((await t.http().get(`/api/collection/${c.id}`).set(auth(admin)).expect(200)).body.location).toBe(`/${b.id}/`);
    expect((await t.http().put(`/api/collection/${b.id}`).set(auth(admin)).send({ parent_id: 999999 })).status).toBe(404);
  });

  it('lets only one of two crossing moves through, so no cycle can form', async () => {
    const x = await makeCollection(t, admin, { name: 'Cross X' });
    const y = await makeCollection(t, admin, { name: 'Cross Y' });
    const [one, two] = await Promise.all([
      t.http().put(`/api/collection/${x.id}`).set(auth(admin)).send({ parent_id: y.id }),
      t.http().put(`/api/collection/${y.id}`).set(auth(admin)).send({ parent_id: x.id }),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 400]);
    const [gx, gy] = [
      (await t.http().get(`/api/collection/${x.id}`).set(auth(admin))).body,
      (await t.http().get(`/api/collection/${y.id}`).set(auth(admin))).body,
    ];
    expect([gx.location, gy.location].sort()).toEqual(['/', one.status === 200 ? `/${y.id}/` : `/${x.id}/`].sort());
  });
});
