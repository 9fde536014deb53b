import { DataSource } from 'typeorm';
import { makeCard, makeModel, tableQuery } from '../support/card-factories';
import { makeCollection } from '../support/collection-factories';
import { dashboardWith } from '../support/dashboard-factories';
import { expect403, expect404, expectMessage } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { subscribeItemSource, type CollectionItemSource } from '../../src/modules/collections/collection-item-source';
import { EventBus } from '../../src/common/events/event-bus';

jest.setTimeout(120_000);

/** A source that fails while deleting one chosen collection, after the real sources have deleted their items. */
class FailingSource implements CollectionItemSource {
  readonly models = ['pulse'] as const;
  failFor: number | null = null;
  async items() {
    return [];
  }
  async modelsIn() {
    return new Map<number, Set<string>>();
  }
  async archiveIn(): Promise<void> {}
  async deleteIn(_tx: unknown, ids: number[]): Promise<void> {
    if (this.failFor !== null && ids.includes(this.failFor)) throw new Error('deletion failed half-way');
  }
}

/**
 * Issue 31, item 7: DELETE /api/collection/:id deletes a trashed collection with everything in it, in one
 * transaction, keeps what below it was trashed on its own, and refuses a collection that is not in the trash.
 */
describe('DELETE /api/collection/:id', () => {
  let s: SampleApp;
  const failing = new FailingSource();
  const http = () => s.t.http();
  const status = async (path: string) => (await http().get(path).set(auth(s.admin))).status;
  const count = async (sql: string, params: unknown[]) => Number((await s.t.app.get(DataSource).query(sql, params))[0].n);
  const bindings = () => (s.t.app.get(DataSource).options.type === 'postgres' ? ['$1', '$2'] : ['?', '?']);
  const archive = (id: number) => http().put(`/api/collection/${id}`).set(auth(s.admin)).send({ archived: true }).expect(200);

  beforeAll(async () => {
    s = await startSampleApp();
    subscribeItemSource(s.t.app.get(EventBus), failing);
  });
  afterAll(() => s.t.close());

  /** A collection with a sub-collection, cards, a model, a dashboard, a timeline with an event, and bookmarks. */
  async function filled(name: string) {
    const orders = s.table('ORDERS').id;
    const top = await makeCollection(s.t, s.admin, { name });
    const child = await makeCollection(s.t, s.admin, { name: `${name} child`, parent_id: top.id });
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { name: `${name} card`, collection_id: top.id });
    const model = await makeModel(s.t, s.admin, tableQuery(s.db, orders), { name: `${name} model`, collection_id: child.id });
    const outside = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { name: `${name} outside card` });
    const dashboard = await dashboardWith(s.t, s.admin, [card.id, outside.id], { name: `${name} dashboard`, collection_id: child.id });
    const elsewhere = await dashboardWith(s.t, s.admin, [card.id, outside.id], { name: `${name} elsewhere` });
    const timeline = (
      await http()
        .post('/api/timeline')
        .set(auth(s.admin))
        .send({ name: `${name} timeline`, collection_id: top.id })
        .expect(200)
    ).body;
    const event = (
      await http()
        .post('/api/timeline-event')
        .set(auth(s.admin))
        .send({ name: 'Launch', timestamp: '2022-01-01', timezone: 'UTC', timeline_id: timeline.id })
        .expect(200)
    ).body;
    await http().post(`/api/bookmark/card/${card.id}`).set(auth(s.admin)).expect(200);
    await http().post(`/api/bookmark/collection/${child.id}`).set(auth(s.admin)).expect(200);
    return { top, child, card, model, outside, dashboard, elsewhere, timeline, event };
  }

  it('refuses a collection that is not in the trash, and leaves it as it was', async () => {
    const f = await filled('Untrashed');
    expectMessage(await http().delete(`/api/collection/${f.top.id}`).set(auth(s.admin)), 'Collection must be trashed before deletion.');
    expect([await status(`/api/collection/${f.top.id}`), await status(`/api/card/${f.card.id}`)]).toEqual([200, 200]);
  });

  it('deletes a trashed collection with its sub-collections and everything in them, and answers 1', async () => {
    const f = await filled('Doomed');
    await archive(f.top.id);
    const res = await http().delete(`/api/collection/${f.top.id}`).set(auth(s.admin)).expect(200);
    expect([res.text, res.headers['content-type'].split(';')[0]]).toEqual(['1', 'application/json']);
    const gone = [
      `/api/collection/${f.top.id}`,
      `/api/collection/${f.child.id}`,
      `/api/card/${f.card.id}`,
      `/api/card/${f.model.id}`,
      `/api/dashboard/${f.dashboard.id}`,
      `/api/timeline/${f.timeline.id}`,
      `/api/timeline-event/${f.event.id}`,
    ];
    expect(await Promise.all(gone.map(status))).toEqual(gone.map(() => 404));
    // What lives elsewhere stays; it only stops showing what was deleted.
    expect(await status(`/api/card/${f.outside.id}`)).toBe(200);
    const elsewhere = (await http().get(`/api/dashboard/${f.elsewhere.id}`).set(auth(s.admin)).expect(200)).body;
    expect(elsewhere.dashcards.map((d: { card_id: number }) => d.card_id)).toEqual([f.outside.id]);
    const bookmarks = (await http().get('/api/bookmark').set(auth(s.admin)).expect(200)).body;
    const mine = (b: { item_id: number; type: string }) =>
      (b.type === 'card' && b.item_id === f.card.id) || (b.type === 'collection' && b.item_id === f.child.id);
    expect(bookmarks.filter(mine)).toEqual([]);
    const found = (await http().get('/api/search?q=doomed&archived=true').set(auth(s.admin)).expect(200)).body.data;
    expect(found).toEqual([]);
    const [a, b] = bindings();
    expect(
      await count(
        `SELECT COUNT(*) AS n FROM revision WHERE (model = 'card' AND model_id = ${a}) OR (model = 'dashboard' AND model_id = ${b})`,
        [f.card.id, f.dashboard.id],
      ),
    ).toBe(0);
    expect404(await http().delete(`/api/collection/${f.top.id}`).set(auth(s.admin)));
  });

  it('keeps the collections below that were trashed on their own: they move up, still in the trash', async () => {
    const f = await filled('Parent');
    const kept = await makeCollection(s.t, s.admin, { name: 'Kept', parent_id: f.child.id });
    const keptCard = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('ORDERS').id), { name: 'Kept card', collection_id: kept.id });
    await archive(kept.id);
    await archive(f.top.id);
    await http().delete(`/api/collection/${f.top.id}`).set(auth(s.admin)).expect(200);
    expect(await status(`/api/collection/${f.child.id}`)).toBe(404);
    const after = (await http().get(`/api/collection/${kept.id}`).set(auth(s.admin)).expect(200)).body;
    expect([after.location, after.archived]).toEqual([f.top.location, true]);
    expect((await http().get(`/api/card/${keptCard.id}`).set(auth(s.admin)).expect(200)).body.collection_id).toBe(kept.id);
  });

  it('deletes nothing when any part of the deletion fails', async () => {
    const f = await filled('Atomic');
    await archive(f.top.id);
    failing.failFor = f.child.id;
    try {
      expect((await http().delete(`/api/collection/${f.top.id}`).set(auth(s.admin))).status).toBe(500);
    } finally {
      failing.failFor = null;
    }
    const kept = [
      `/api/collection/${f.top.id}`,
      `/api/collection/${f.child.id}`,
      `/api/card/${f.card.id}`,
      `/api/card/${f.model.id}`,
      `/api/dashboard/${f.dashboard.id}`,
      `/api/timeline/${f.timeline.id}`,
    ];
    expect(await Promise.all(kept.map(status))).toEqual(kept.map(() => 200));
    expect((await http().get(`/api/dashboard/${f.elsewhere.id}`).set(auth(s.admin)).expect(200)).body.dashcards).toHaveLength(2);
  });

  it('is for admins only, refuses other namespaces, and answers 404 for an unknown collection', async () => {
    const f = await filled('Guarded');
    await archive(f.top.id);
    expect403(await http().delete(`/api/collection/${f.top.id}`).set(auth(s.user.session)));
    expect(await status(`/api/card/${f.card.id}`)).toBe(200);
    const snippets = await makeCollection(s.t, s.admin, { name: 'Snippet folder', namespace: 'snippets' });
    await archive(snippets.id);
    expectMessage(
      await http().delete(`/api/collection/${snippets.id}`).set(auth(s.admin)),
      'Collections in non-nil namespaces cannot be deleted.',
    );
    expect404(await http().delete('/api/collection/987654').set(auth(s.admin)));
    expect((await http().delete('/api/collection/root').set(auth(s.admin))).status).toBe(400);
  });
});
