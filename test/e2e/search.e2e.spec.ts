import { DataSource } from 'typeorm';
import { SearchIndexService } from '../../src/modules/search/search-index.service';
import { makeCard, tableQuery } from '../support/card-factories';
import { auth } from '../support/factories';
import { countQueries, STEADY_SETTINGS } from '../support/query-counter';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { startTestApp } from '../support/test-app';
import { grantsChanged } from '../support/grants';

jest.setTimeout(120_000);

interface Hit {
  model: string;
  id: number;
  name: string;
  collection: { id: number | null; name: string | null; authority_level: string | null };
  [key: string]: unknown;
}

describe('search', () => {
  let s: SampleApp;
  let adminId: number;
  const ids: Record<string, number> = {};
  const http = () => s.t.http();
  const search = async (query: string, key = s.admin) => {
    const res = await http().get(`/api/search?${query}`).set(auth(key)).expect(200);
    return res.body as {
      data: Hit[];
      total: number;
      limit: number | null;
      offset: number | null;
      models: string[] | null;
      available_models: string[];
    };
  };
  const names = (r: { data: Hit[] }) => r.data.map((h) => h.name);
  const collection = async (name: string, extra: Record<string, unknown> = {}) =>
    (
      await http()
        .post('/api/collection')
        .set(auth(s.admin))
        .send({ name, ...extra })
        .expect(200)
    ).body.id as number;

  beforeAll(async () => {
    s = await startSampleApp(STEADY_SETTINGS);
    adminId = (await http().get('/api/user/current').set(auth(s.admin)).expect(200)).body.id;
    const q = tableQuery(s.db, s.table('ORDERS').id);
    ids.quarterly = await collection('Quarterly Revenue', { description: 'finance folder' });
    ids.secret = await collection('Secret revenue stash');
    // No grant on the secret collection: the non-admin (All Users, Root only) may not read it.
    await s.t.app.get(DataSource).query(`DELETE FROM collection_permission WHERE collection_id = ${Number(ids.secret)}`);
    await grantsChanged(s.t.app);
    const card = async (key: string, name: string, extra: Record<string, unknown> = {}, session = s.admin) =>
      (ids[key] = (await makeCard(s.t, session, q, { name, ...extra })).id);
    await card('byMonth', 'Revenue by month', { description: 'Monthly totals', collection_id: ids.quarterly });
    await card('exact', 'Revenue');
    await card('report', 'Monthly revenue report');
    await card('churn', 'Churn analysis', { description: 'Revenue lost to churn' });
    await card('model', 'Revenue model', { type: 'model' });
    await card('hidden', 'Hidden revenue', { collection_id: ids.secret });
    await card('userCard', 'Widget margins', {}, s.user.session);
    await http().post('/api/native-query-snippet').set(auth(s.admin)).send({ name: 'revenue filter', content: 'TOTAL > 0' }).expect(200);
  });
  afterAll(() => s.t.close());

  it('matches word prefixes case-insensitively and ranks exact, prefix, name, then description matches', async () => {
    const r = await search('q=revenue');
    expect(names(r)[0]).toBe('Revenue');
    expect(names(r).slice(1, 4).sort()).toEqual(['Revenue by month', 'Revenue model', 'revenue filter']);
    expect(names(r).indexOf('Monthly revenue report')).toBeGreaterThan(3);
    expect(names(r).indexOf('Churn analysis')).toBe(r.data.length - 1);
    expect(names(r)).toEqual(expect.arrayContaining(['Quarterly Revenue', 'Secret revenue stash', 'Hidden revenue', 'revenue filter']));
    expect(r.total).toBe(r.data.length);
    expect(r.available_models).toEqual(['card', 'dataset', 'collection', 'snippet']);
    expect(r).toMatchObject({ limit: null, offset: null, models: null });

    expect(names(await search('q=REVEN')).sort()).toEqual(names(r).sort());
    expect(names(await search('q=rev%20mon')).sort()).toEqual(['Monthly revenue report', 'Revenue by month']);
    expect((await search('q=venue')).data).toEqual([]);
    expect(names(await search('q=finance'))).toEqual(['Quarterly Revenue']);
  });

  it("answers Metabase's item shape with the collection of each item", async () => {
    const hit = (await search('q=revenue%20by')).data.find((h) => h.id === ids.byMonth)!;
    expect(hit).toMatchObject({
      model: 'card',
      name: 'Revenue by month',
      description: 'Monthly totals',
      archived: false,
      display: 'table',
      collection: { id: ids.quarterly, name: 'Quarterly Revenue', authority_level: null },
      database_id: s.db,
      table_id: s.table('ORDERS').id,
      creator_id: adminId,
      creator_common_name: 'Ada Admin',
      bookmark: false,
    });
    const root = (await search('q=churn')).data[0];
    expect(root.collection).toEqual({ id: null, name: null, authority_level: null, type: null });
    expect((await search('q=revenue&models=dataset')).data).toEqual([expect.objectContaining({ model: 'dataset', id: ids.model })]);
  });

  it('filters by models, archived, creator and database, and pages in SQL', async () => {
    const some = await search('q=revenue&models=card&models=collection');
    expect(new Set(some.data.map((h) => h.model))).toEqual(new Set(['card', 'collection']));
    expect(some.models).toEqual(['card', 'collection']);
    expect(some.available_models).toEqual(['card', 'dataset', 'collection', 'snippet']);

    const all = await search('q=revenue');
    const page = await search('q=revenue&limit=2&offset=1');
    expect(page).toMatchObject({ total: all.total, limit: 2, offset: 1 });
    expect(names(page)).toEqual(names(all).slice(1, 3));

    await http().put(`/api/card/${ids.report}`).set(auth(s.admin)).send({ archived: true }).expect(200);
    expect(names(await search('q=revenue'))).not.toContain('Monthly revenue report');
    expect(names(await search('q=revenue&archived=true'))).toEqual(['Monthly revenue report']);
    await http().put(`/api/card/${ids.report}`).set(auth(s.admin)).send({ archived: false }).expect(200);

    expect(names(await search(`created_by=${s.user.id}`))).toEqual(['Widget margins']);
    const onDb = await search(`q=revenue&table_db_id=${s.db}`);
    expect(new Set(onDb.data.map((h) => h.model))).toEqual(new Set(['card', 'dataset']));
    expect((await search('q=revenue&table_db_id=99999')).data).toEqual([]);
  });

  it('finds tables and databases by name through the data permissions', async () => {
    const tables = await search('q=orders&models=table');
    expect(tables.data[0]).toMatchObject({
      model: 'table',
      id: s.table('ORDERS').id,
      name: 'Orders',
      table_id: s.table('ORDERS').id,
      database_id: s.db,
      table_name: 'ORDERS',
    });
    expect(names(await search('q=sample&models=database'))).toEqual(['Sample Database']);
    expect(names(await search('q=orders&models=table', s.user.session))).toContain('Orders');

    const ds = s.t.app.get(DataSource);
    await ds.query("UPDATE database_permission SET data = 'no'");
    await grantsChanged(s.t.app);
    try {
      expect((await search('q=orders&models=table', s.user.session)).data).toEqual([]);
      expect((await search('q=sample&models=database', s.user.session)).data).toEqual([]);
      expect(names(await search('q=orders&models=table'))).toContain('Orders');
    } finally {
      await ds.query("UPDATE database_permission SET data = 'unrestricted'");
      await grantsChanged(s.t.app);
    }
  });

  it('shows a non-admin only what they may read', async () => {
    const r = await search('q=revenue', s.user.session);
    expect(names(r)).not.toContain('Hidden revenue');
    expect(names(r)).not.toContain('Secret revenue stash');
    expect(names(r)).toContain('Revenue');
    expect(r.total).toBe(r.data.length);
    const everything = await search('limit=1000', s.user.session);
    expect(everything.data.map((h) => h.id)).not.toContain(ids.hidden);
    // Other users' personal collections are not theirs to see.
    expect(everything.data.filter((h) => h.model === 'collection').map((h) => h.name)).not.toContain("Ada Admin's Personal Collection");

    await s.t.app
      .get(DataSource)
      .query(`INSERT INTO collection_permission (group_id, collection_id, perm) VALUES (1, ${Number(ids.secret)}, 'read')`);
    await grantsChanged(s.t.app);
    expect(names(await search('q=revenue', s.user.session))).toEqual(expect.arrayContaining(['Hidden revenue', 'Secret revenue stash']));
    await s.t.app.get(DataSource).query(`DELETE FROM collection_permission WHERE collection_id = ${Number(ids.secret)}`);
    await grantsChanged(s.t.app);
  });

  it("puts the caller's bookmarks first among equal matches", async () => {
    const before = names(await search('q=revenue&models=card&models=dataset'));
    const [first, second] = [before.indexOf('Revenue by month'), before.indexOf('Revenue model')];
    const later = first > second ? ids.byMonth : ids.model;
    await http().post(`/api/bookmark/card/${later}`).set(auth(s.admin)).expect(200);
    const after = (await search('q=revenue&models=card&models=dataset')).data;
    expect(after[1]).toMatchObject({ id: later, bookmark: true });
    expect(after[0].name).toBe('Revenue');
  });

  it('lists everything readable without q, newest first, paged', async () => {
    const r = await search('limit=3&offset=0');
    expect(r.data).toHaveLength(3);
    expect(r.total).toBeGreaterThan(10);
    const next = await search('limit=3&offset=3');
    expect(next.data.map((h) => `${h.model}-${h.id}`)).not.toEqual(expect.arrayContaining(r.data.map((h) => `${h.model}-${h.id}`)));
  });

  it('finds what card and collection saves index, and rebuilds an empty index on demand', async () => {
    await http().put(`/api/card/${ids.churn}`).set(auth(s.admin)).send({ name: 'Attrition study' }).expect(200);
    expect(names(await search('q=attrition'))).toEqual(['Attrition study']);
    expect((await search('q=analysis')).data.map((h) => h.id)).not.toContain(ids.churn);
    // Still found by its description.
    expect((await search('q=churn')).data.map((h) => h.id)).toEqual([ids.churn]);

    const index = s.t.app.get(SearchIndexService);
    const ds = s.t.app.get(DataSource);
    await ds.query('DELETE FROM search_term');
    expect((await search('q=revenue')).data.filter((h) => h.model === 'card' || h.model === 'collection')).toEqual([]);
    expect(await index.needsReindex()).toBe(true);
    expect(await index.reindexAll()).toBeGreaterThan(7);
    expect(await index.needsReindex()).toBe(false);
    expect(await index.reindexAll()).toBe(0);
    expect(names(await search('q=revenue'))[0]).toBe('Revenue');
    expect(names(await search('q=attrition'))).toEqual(['Attrition study']);
  });

  it('makes as many app-DB queries for 10 matches as for 100', async () => {
    const coll = await collection('Bulk folder');
    const make = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const id = (
          await makeCard(s.t, s.admin, tableQuery(s.db, s.table('ORDERS').id), {
            name: `Bulk item ${i}`,
            collection_id: i % 2 ? coll : null,
            result_metadata: [],
          })
        ).id;
        if (i % 3 === 0) await http().post(`/api/bookmark/card/${id}`).set(auth(s.user.session)).expect(200);
      }
      await collection(`Bulk sub ${from}`, { parent_id: coll });
    };
    const counted = async () => {
      const counter = countQueries();
      try {
        const found = await search('q=bulk&limit=20', s.user.session);
        const forSearch = counter.count;
        counter.reset();
        await http().get('/api/bookmark').set(auth(s.user.session)).expect(200);
        return { forSearch, forBookmarks: counter.count, total: found.total };
      } finally {
        counter.restore();
      }
    };
    await make(0, 10);
    const few = await counted();
    await make(10, 100);
    const many = await counted();
    expect(many.total).toBeGreaterThan(few.total + 80);
    expect(many.forSearch).toBe(few.forSearch);
    expect(many.forBookmarks).toBe(few.forBookmarks);
  });

  it('indexes at start-up what an empty index lacks', async () => {
    await s.t.app.get(DataSource).query('DELETE FROM search_term');
    const second = await startTestApp({}, s.t);
    try {
      const found = (await second.http().get('/api/search?q=revenue').set(auth(s.admin)).expect(200)).body as { data: Hit[] };
      expect(names(found)[0]).toBe('Revenue');
      expect(await second.app.get(SearchIndexService).needsReindex()).toBe(false);
    } finally {
      await second.close();
    }
  });

  it('validates its parameters with the spec messages', async () => {
    const models = await http().get('/api/search?models=card&models=bogus').set(auth(s.admin)).expect(400);
    expect(models.body.errors).toEqual({
      models: 'value must be one of: `dashboard`, `card`, `dataset`, `metric`, `collection`, `table`, `database`, `snippet`.',
    });
    expect(models.body['specific-errors'].models[0]).toMatch(/received/);
    expect((await http().get('/api/search?archived=maybe').set(auth(s.admin)).expect(400)).body.errors).toEqual({
      archived: 'value must be a valid boolean string.',
    });
    expect((await http().get('/api/search?created_by=0').set(auth(s.admin)).expect(400)).body.errors).toEqual({
      created_by: 'value must be an integer greater than zero.',
    });
    expect((await http().get('/api/search?table_db_id=x').set(auth(s.admin)).expect(400)).body.errors).toEqual({
      table_db_id: 'value must be an integer greater than zero.',
    });
    expect((await http().get('/api/search?limit=0').set(auth(s.admin)).expect(400)).body.errors).toEqual({
      limit: 'value must be an integer greater than zero.',
    });
    await http().get('/api/search?offset=-1').set(auth(s.admin)).expect(400);
    expect((await http().get('/api/search?q=x').expect(401)).text).toBe('Unauthenticated');
  });
});
