import { DataSource } from 'typeorm';
import { AppSql } from '../../src/common/database/app-sql';
import { grant, makeCard, makeCollection, makeGroup, makeModel, nativeQuery, tableQuery } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { auth, makeUserDirect, MadeUser } from '../support/factories';
import { countQueries, STEADY_SETTINGS } from '../support/query-counter';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { dashToken, embeddable, setEmbedding } from './embed-helpers';

jest.setTimeout(180_000);

/**
 * GET /api/dashboard/:id and its query_metadata cost a bounded number of app-DB queries whatever the number of
 * dashcards: the count at 100 dashcards must not exceed the count at 2, for an admin and for a reader with grants;
 * and so do the public and embedded dashboard and the parameter values of all three. The cards are written straight
 * into the table (a hundred POSTs would measure nothing more).
 */
describe('dashboards: bounded app-DB queries, and query_metadata', () => {
  let s: SampleApp;
  let reader: MadeUser;
  let sql: AppSql;
  let coll: number;
  const http = () => s.t.http();

  beforeAll(async () => {
    s = await startSampleApp(STEADY_SETTINGS);
    sql = new AppSql(s.t.app.get(DataSource));
    reader = await makeUserDirect(s.t);
    const group = await makeGroup(s.t, s.admin, reader.id);
    coll = await makeCollection(s.t, 'Big');
    await grant(s.t, group, coll, 'read');
  });
  afterAll(() => s.t.close());

  /** A dashboard in `coll` with `n` dashcards, each its own card on a Sample table, with a parameter mapping and a series. */
  async function dashboardOf(n: number): Promise<number> {
    const tables = ['ORDERS', 'PRODUCTS', 'PEOPLE', 'REVIEWS'];
    const adminId = (await http().get('/api/user/current').set(auth(s.admin)).expect(200)).body.id;
    const cardIds: number[] = [];
    for (let i = 0; i < n; i++) {
      const table = s.table(tables[i % tables.length]);
      const subColl = i % 3 === 0 ? coll : null;
      await sql.execute(
        `INSERT INTO report_card (name, display, dataset_query, visualization_settings, result_metadata, parameters, parameter_mappings,
           type, query_type, database_id, table_id, collection_id, creator_id)
         VALUES ($1, 'table', $2, '{}', '[]', '[]', '[]', 'question', 'query', $3, $4, $5, $6)`,
        [`Card ${n}-${i}`, JSON.stringify(tableQuery(s.db, table.id)), s.db, table.id, subColl, adminId],
      );
      const [{ id }] = await sql.query<{ id: number }>('SELECT MAX(id) AS id FROM report_card', []);
      cardIds.push(Number(id));
    }
    const d = await makeDashboard(s.t, s.admin, {
      collection_id: coll,
      parameters: [
        { id: 'p', type: 'category' },
        { id: 'c', slug: 'category', type: 'string/=' },
      ],
    });
    // Every dashcard maps `c` onto the same field: the parameter's values then read as many fields at 100 as at 2.
    const category = ['dimension', ['field', s.field('PRODUCTS', 'CATEGORY'), null]];
    const dashcards = cardIds.map((cardId, i) => {
      const table = s.table(tables[i % tables.length]);
      return newDashcard(-(i + 1), cardId, {
        row: i * 2,
        series: i % 5 === 0 && i + 1 < cardIds.length ? [{ id: cardIds[i + 1] }] : [],
        parameter_mappings: [
          { parameter_id: 'p', card_id: cardId, target: ['dimension', ['field', table.fields[0].id, null]] },
          { parameter_id: 'c', card_id: cardId, target: category },
        ],
      });
    });
    await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ tabs: [{ id: -1, name: 'A' }], dashcards: dashcards.map((dc) => ({ ...dc, dashboard_tab_id: -1 })) })
      .expect(200);
    return d.id;
  }

  async function count(session: string | null, path: string): Promise<number> {
    const counter = countQueries();
    try {
      const res = await (session === null ? http().get(path) : http().get(path).set(auth(session)));
      expect(res.status).toBe(200);
      return counter.count;
    } finally {
      counter.restore();
    }
  }

  it('GET and query_metadata at 100 dashcards cost no more queries than at 2', async () => {
    const small = await dashboardOf(2);
    const big = await dashboardOf(100);
    const got = await http().get(`/api/dashboard/${big}`).set(auth(s.admin)).expect(200);
    expect(got.body.dashcards).toHaveLength(100);
    for (const session of [s.admin, reader.session]) {
      // Warm-up (metadata caches), then measure.
      await count(session, `/api/dashboard/${small}`);
      await count(session, `/api/dashboard/${small}/query_metadata`);
      const get2 = await count(session, `/api/dashboard/${small}`);
      const get100 = await count(session, `/api/dashboard/${big}`);
      const meta2 = await count(session, `/api/dashboard/${small}/query_metadata`);
      const meta100 = await count(session, `/api/dashboard/${big}/query_metadata`);
      expect(get100).toBeLessThanOrEqual(get2);
      expect(meta100).toBeLessThanOrEqual(meta2);
      expect(get2).toBeGreaterThan(0);
    }
  });

  it('the public and embedded dashboard and the parameter values cost no more queries at 100 dashcards than at 2', async () => {
    await http().put('/api/setting/enable-public-sharing').set(auth(s.admin)).send({ value: true }).expect(204);
    await setEmbedding(s.t, s.admin);
    const shared = async (n: number) => {
      const id = await dashboardOf(n);
      await embeddable(s.t, s.admin, 'dashboard', id, { category: 'enabled' });
      const uuid = (await http().post(`/api/dashboard/${id}/public_link`).set(auth(s.admin)).expect(200)).body.uuid as string;
      return { id, uuid, token: dashToken(id) };
    };
    const small = await shared(2);
    const big = await shared(100);
    const paths = (d: { id: number; uuid: string; token: string }) => ({
      public: `/api/public/dashboard/${d.uuid}`,
      embed: `/api/embed/dashboard/${d.token}`,
      'public values': `/api/public/dashboard/${d.uuid}/params/c/values`,
      'embed values': `/api/embed/dashboard/${d.token}/params/c/values`,
      'reader values': `/api/dashboard/${d.id}/params/c/values`,
    });
    const got = (await http().get(paths(big).public).expect(200)).body;
    expect(got.dashcards).toHaveLength(100);
    expect((await http().get(paths(big)['reader values']).set(auth(reader.session)).expect(200)).body.values).toEqual(
      expect.arrayContaining([['Gizmo'], ['Widget']]),
    );
    const grown: string[] = [];
    for (const [name, path] of Object.entries(paths(small))) {
      const session = name.startsWith('reader') ? reader.session : null;
      await count(session, path);
      const at2 = await count(session, path);
      const at100 = await count(session, paths(big)[name as keyof ReturnType<typeof paths>]);
      if (at100 > at2) grown.push(`${name}: ${at2} queries at 2 dashcards, ${at100} at 100`);
    }
    expect(grown).toEqual([]);
  });

  it('a dashboard viewed again reads less, and shows an edit of its layout or of a field behind its filters at once', async () => {
    const id = await dashboardOf(3);
    const path = `/api/dashboard/${id}`;
    const first = await count(reader.session, path);
    expect(await count(reader.session, path)).toBeLessThan(first);
    const category = s.field('PRODUCTS', 'CATEGORY');
    const before = (await http().get(path).set(auth(reader.session)).expect(200)).body;
    expect(before.param_fields[String(category)]).toMatchObject({ id: category, display_name: 'Category' });
    await http().put(`/api/field/${category}`).set(auth(s.admin)).send({ display_name: 'Kind' }).expect(200);
    try {
      const after = (await http().get(path).set(auth(reader.session)).expect(200)).body;
      expect(after.param_fields[String(category)]).toMatchObject({ display_name: 'Kind' });
      const kept = before.dashcards.slice(1).map((dc: { id: number }) => ({ id: dc.id }));
      await http().put(path).set(auth(s.admin)).send({ dashcards: kept }).expect(200);
      const shown = (await http().get(path).set(auth(reader.session)).expect(200)).body.dashcards.map((dc: { id: number }) => dc.id);
      expect(shown).toEqual(kept.map((dc: { id: number }) => dc.id));
    } finally {
      await http().put(`/api/field/${category}`).set(auth(s.admin)).send({ display_name: 'Category' }).expect(200);
    }
  });

  it('query_metadata costs no more queries with 12 models (and questions on them) and 12 linked dashboards than with 2', async () => {
    const tables = ['ORDERS', 'PRODUCTS', 'PEOPLE', 'REVIEWS'];
    /** A dashboard in `coll` showing `n` models and, for every other one, a question built on it (a source card off the dashboard too). */
    async function withModels(n: number): Promise<{ id: number; models: number[]; linked: number[] }> {
      const models: number[] = [];
      const shown: number[] = [];
      for (let i = 0; i < n; i++) {
        const m = await makeModel(s.t, s.admin, tableQuery(s.db, s.table(tables[i % tables.length]).id), { collection_id: coll });
        models.push(m.id);
        if (i % 2 === 0) shown.push(m.id);
        else
          shown.push(
            (
              await makeCard(
                s.t,
                s.admin,
                { database: s.db, type: 'query', query: { 'source-table': `card__${m.id}` } },
                { collection_id: coll },
              )
            ).id,
          );
      }
      // And as many link cards to other dashboards.
      const linked: number[] = [];
      for (let i = 0; i < n; i++) linked.push((await makeDashboard(s.t, s.admin, { collection_id: coll })).id);
      const links = linked.map((id, i) =>
        newDashcard(-(n + i + 1), null, {
          row: 100 + i,
          visualization_settings: { virtual_card: { display: 'link' }, link: { entity: { id, model: 'dashboard' } } },
        }),
      );
      const d = await makeDashboard(s.t, s.admin, { collection_id: coll });
      await http()
        .put(`/api/dashboard/${d.id}`)
        .set(auth(s.admin))
        .send({ dashcards: [...shown.map((c, i) => newDashcard(-(i + 1), c, { row: i * 4 })), ...links] })
        .expect(200);
      return { id: d.id, models, linked };
    }
    const small = await withModels(2);
    const big = await withModels(12);
    for (const session of [s.admin, reader.session]) {
      const res = await http().get(`/api/dashboard/${big.id}/query_metadata`).set(auth(session)).expect(200);
      const ids = res.body.tables.map((t: { id: number | string }) => t.id);
      expect(ids).toEqual(expect.arrayContaining(big.models.map((m) => `card__${m}`)));
      expect(res.body.dashboards.map((x: { id: number }) => x.id).sort()).toEqual([...big.linked].sort());
      const one = res.body.tables.find((t: { id: string }) => t.id === `card__${big.models[0]}`);
      expect(one).toMatchObject({ db_id: s.db, schema: 'Big', type: 'model' });
      expect(one.fields.length).toBeGreaterThan(0);
      expect(one.fields[0]).toMatchObject({ table_id: `card__${big.models[0]}` });
      // The same virtual table as the tables endpoint answers for it alone.
      const alone = await http().get(`/api/table/card__${big.models[1]}/query_metadata`).set(auth(session)).expect(200);
      expect(res.body.tables.find((t: { id: string }) => t.id === `card__${big.models[1]}`)).toEqual(alone.body);
      await count(session, `/api/dashboard/${small.id}/query_metadata`);
      const meta2 = await count(session, `/api/dashboard/${small.id}/query_metadata`);
      const meta12 = await count(session, `/api/dashboard/${big.id}/query_metadata`);
      expect(meta12).toBeLessThanOrEqual(meta2);
    }
  });

  it('query_metadata answers the databases, tables and fields of every dashcard, model tables, linked cards and dashboards', async () => {
    const orders = s.table('ORDERS');
    const people = s.table('PEOPLE');
    const q = await makeCard(s.t, s.admin, tableQuery(s.db, orders.id));
    const model = await makeModel(s.t, s.admin, tableQuery(s.db, people.id));
    const native = await makeCard(
      s.t,
      s.admin,
      nativeQuery(s.db, 'SELECT * FROM PRODUCTS WHERE {{cat}}', {
        cat: {
          id: 'c',
          name: 'cat',
          'display-name': 'Cat',
          type: 'dimension',
          dimension: ['field', s.field('PRODUCTS', 'CATEGORY'), null],
          'widget-type': 'category',
        },
      }),
    );
    const linked = await makeDashboard(s.t, s.admin, { name: 'Linked' });
    const d = await makeDashboard(s.t, s.admin);
    await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({
        dashcards: [
          newDashcard(-1, q.id),
          newDashcard(-2, model.id),
          newDashcard(-3, native.id),
          newDashcard(-4, null, {
            visualization_settings: { virtual_card: { display: 'link' }, link: { entity: { id: linked.id, model: 'dashboard' } } },
          }),
          newDashcard(-5, null, {
            visualization_settings: { virtual_card: { display: 'link' }, link: { entity: { id: q.id, model: 'card' } } },
          }),
        ],
      })
      .expect(200);
    const res = await http().get(`/api/dashboard/${d.id}/query_metadata`).set(auth(s.admin)).expect(200);
    expect(res.body.databases.map((x: { id: number }) => x.id)).toEqual([s.db]);
    const tableIds = res.body.tables.map((t: { id: number | string }) => t.id);
    expect(tableIds).toEqual(expect.arrayContaining([orders.id, people.id, `card__${model.id}`]));
    expect(res.body.tables.find((t: { id: number }) => t.id === orders.id).fields.length).toBeGreaterThan(0);
    expect(res.body.fields.map((f: { id: number }) => f.id)).toContain(s.field('PRODUCTS', 'CATEGORY'));
    expect(res.body.dashboards).toEqual([expect.objectContaining({ id: linked.id, name: 'Linked' })]);
    expect(res.body.cards).toEqual([expect.objectContaining({ id: q.id })]);
  });
});
