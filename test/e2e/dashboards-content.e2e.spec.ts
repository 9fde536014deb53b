import { makeCollection } from '../support/card-factories';
import { makeDashboard } from '../support/dashboard-factories';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

interface Item {
  id: number;
  model: string;
  name: string;
}

/** Dashboards among collection items and the tree, archived with their collection, bookmarked and found by search. */
describe('dashboards: in collections, bookmarks and search', () => {
  let s: SampleApp;
  const http = () => s.t.http();

  beforeAll(async () => {
    s = await startSampleApp();
  });
  afterAll(() => s.t.close());

  const items = async (coll: number | 'root', query = '') =>
    (await http().get(`/api/collection/${coll}/items${query}`).set(auth(s.admin)).expect(200)).body.data as Item[];

  it('lists dashboards as collection items and in the tree, and archives them with their collection', async () => {
    const coll = (await http().post('/api/collection').set(auth(s.admin)).send({ name: 'Boards' }).expect(200)).body.id as number;
    const keep = await makeDashboard(s.t, s.admin, { name: 'Kept board', collection_id: coll });
    const own = await makeDashboard(s.t, s.admin, { name: 'Own archive', collection_id: coll });
    expect((await items(coll, '?models=dashboard')).map((i) => [i.model, i.name]).sort()).toEqual([
      ['dashboard', 'Kept board'],
      ['dashboard', 'Own archive'],
    ]);
    const tree = (await http().get('/api/collection/tree').set(auth(s.admin)).expect(200)).body as Array<{ id: number; here?: string[] }>;
    expect(tree.find((c) => c.id === coll)?.here).toContain('dashboard');

    await http().put(`/api/dashboard/${own.id}`).set(auth(s.admin)).send({ archived: true }).expect(200);
    await http().put(`/api/collection/${coll}`).set(auth(s.admin)).send({ archived: true }).expect(200);
    expect((await http().get(`/api/dashboard/${keep.id}`).set(auth(s.admin)).expect(200)).body.archived).toBe(true);
    await http().put(`/api/collection/${coll}`).set(auth(s.admin)).send({ archived: false }).expect(200);
    expect((await http().get(`/api/dashboard/${keep.id}`).set(auth(s.admin)).expect(200)).body.archived).toBe(false);
    expect((await http().get(`/api/dashboard/${own.id}`).set(auth(s.admin)).expect(200)).body.archived).toBe(true);
  });

  it('bookmarks a dashboard and forgets the bookmark when the dashboard is deleted', async () => {
    const d = await makeDashboard(s.t, s.admin, { name: 'Marked' });
    expect((await http().post(`/api/bookmark/dashboard/${d.id}`).set(auth(s.admin)).expect(200)).body).toMatchObject({
      dashboard_id: d.id,
    });
    const listed = (await http().get('/api/bookmark').set(auth(s.admin)).expect(200)).body as Array<Record<string, unknown>>;
    expect(listed).toContainEqual(expect.objectContaining({ type: 'dashboard', item_id: d.id, name: 'Marked' }));
    await http().delete(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(204);
    const after = (await http().get('/api/bookmark').set(auth(s.admin)).expect(200)).body as Array<Record<string, unknown>>;
    expect(after.filter((b) => b.type === 'dashboard')).toEqual([]);
  });

  it('finds dashboards by the words of their name and description, renamed ones by the new name only', async () => {
    const d = await makeDashboard(s.t, s.admin, { name: 'Quarterly zebra board', description: 'giraffe numbers' });
    const search = async (q: string) =>
      ((await http().get(`/api/search?q=${q}&models=dashboard`).set(auth(s.admin)).expect(200)).body.data as Item[]).map((i) => [
        i.model,
        i.id,
      ]);
    expect(await search('zebra')).toEqual([['dashboard', d.id]]);
    expect(await search('giraffe')).toEqual([['dashboard', d.id]]);
    await http().put(`/api/dashboard/${d.id}`).set(auth(s.admin)).send({ name: 'Quarterly okapi board' }).expect(200);
    expect(await search('zebra')).toEqual([]);
    expect(await search('okapi')).toEqual([['dashboard', d.id]]);
    const hidden = await makeCollection(s.t, 'Hidden');
    const secret = await makeDashboard(s.t, s.admin, { name: 'Secret walrus', collection_id: hidden });
    expect(await search('walrus')).toEqual([['dashboard', secret.id]]);
    const asUser = (await http().get('/api/search?q=walrus').set(auth(s.user.session)).expect(200)).body.data as Item[];
    expect(asUser).toEqual([]);
    await http().delete(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(204);
    expect(await search('okapi')).toEqual([]);
  });
});
