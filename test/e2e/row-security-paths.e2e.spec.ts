import { grant, makeCard, makeCollection, makeModel, tableQuery } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, setupAdmin } from '../support/factories';
import { enableJwtSso, jwtSession } from '../support/jwt-sso';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { waitForSync } from '../support/sync-wait';
import { startTestApp, type TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';

jest.setTimeout(180_000);

const ALL_USERS = 1;

/**
 * Issue 37, the paths besides queries: a tenant's user (JWT, `customer_id` claim) under filter policies on ORDERS
 * (USER_ID) and PEOPLE (ID), with PRODUCTS blocked per table. Field values, value search and remapping, a
 * dashboard's parameter values (chained or not), search and table listings, and x-rays each show only what their
 * rows hold, compared with the same filter written by hand.
 */
describe('row security outside queries: field values, parameters, search, listings, x-rays', () => {
  let s: SampleApp;
  let acme: string;
  let mine: number[];
  let dashboard: number;
  let stateCard: number;
  const http = () => s.t.http();
  const get = (session: string, path: string) => http().get(path).set(auth(session));
  const sql = async (text: string): Promise<unknown[][]> => {
    const res = await http()
      .post('/api/dataset')
      .set(auth(s.admin))
      .send({ database: s.db, type: 'native', native: { query: text } });
    expect(res.body.status).toBe('completed');
    return res.body.data.rows;
  };
  const column = async (text: string) => (await sql(text)).map((r) => r[0]);
  const ids = () => mine.join(', ');

  beforeAll(async () => {
    s = await startSampleApp();
    const secret = await enableJwtSso(s.t, s.admin);
    await http().put('/api/setting/use-tenants').set(auth(s.admin)).send({ value: true }).expect(204);
    mine = (await column('SELECT DISTINCT USER_ID FROM ORDERS ORDER BY USER_ID LIMIT 2')).map(Number);
    acme = await jwtSession(s.t, secret, { email: 'acme-paths@example.com', '@tenant': 'acme', customer_id: mine });

    const groups = (await get(s.admin, '/api/permissions/group').expect(200)).body as Array<{ id: number; name: string }>;
    const tenantUsers = groups.find((g) => g.name === 'All tenant users')!.id;
    const schema = (s.table('ORDERS').schema as string | null) ?? '';
    const { revision } = (await get(s.admin, '/api/permissions/graph').expect(200)).body;
    const view = { [s.table('ORDERS').id]: 'unrestricted', [s.table('PEOPLE').id]: 'unrestricted', [s.table('PRODUCTS').id]: 'blocked' };
    const put = await http()
      .put('/api/permissions/graph')
      .set(auth(s.admin))
      .send({
        revision,
        groups: {
          [tenantUsers]: { [s.db]: { 'view-data': { [schema]: view }, 'create-queries': 'query-builder', download: { schemas: 'full' } } },
          [ALL_USERS]: { [s.db]: { 'view-data': 'blocked', 'create-queries': 'no', download: { schemas: 'none' } } },
        },
      });
    expect([put.status, put.body.errors]).toEqual([200, undefined]);
    for (const [table, column] of [
      ['ORDERS', 'USER_ID'],
      ['PEOPLE', 'ID'],
    ])
      await http()
        .post('/api/mt/gtap')
        .set(auth(s.admin))
        .send({ group_id: tenantUsers, table_id: s.table(table).id, attribute_remappings: { customer_id: column } })
        .expect(200);

    const shared = await makeCollection(s.t, 'Shared reports');
    await grant(s.t, tenantUsers, shared, 'read');
    const people = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PEOPLE').id), { collection_id: shared });
    const d = await makeDashboard(s.t, s.admin, {
      collection_id: shared,
      parameters: [
        { id: 'state', slug: 'state', type: 'string/=' },
        { id: 'source', slug: 'source', type: 'string/=' },
        { id: 'name', slug: 'name', type: 'string/=' },
      ],
    });
    const target = (name: string) => ['dimension', ['field', s.field('PEOPLE', name), null]];
    const mappings = ['state', 'source', 'name'].map((p) => ({ parameter_id: p, card_id: people.id, target: target(p.toUpperCase()) }));
    await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ dashcards: [newDashcard(-1, people.id, { parameter_mappings: mappings })] })
      .expect(200);
    dashboard = d.id;
    const stateTag = { id: 'state', name: 'state', 'display-name': 'State', type: 'dimension', 'widget-type': 'string/=' };
    const native = {
      database: s.db,
      type: 'native',
      native: {
        query: 'SELECT COUNT(*) FROM PEOPLE WHERE {{state}}',
        'template-tags': { state: { ...stateTag, dimension: target('STATE')[1] } },
      },
    };
    stateCard = (
      await makeCard(s.t, s.admin, native, {
        collection_id: shared,
        parameters: [{ id: 'state', slug: 'state', type: 'string/=', target: ['dimension', ['template-tag', 'state']] }],
      })
    ).id;
  });
  afterAll(() => s?.t.close());

  const values = (body: { values: unknown[][] }) => body.values.map((p) => p[0]);

  it("lists a field's values from the user's rows only, as the hand-written filter does", async () => {
    const state = s.field('PEOPLE', 'STATE');
    const all = values((await get(s.admin, `/api/field/${state}/values`).expect(200)).body);
    const expected = await column(`SELECT DISTINCT STATE FROM PEOPLE WHERE ID IN (${ids()}) AND STATE IS NOT NULL ORDER BY STATE`);
    const got = (await get(acme, `/api/field/${state}/values`).expect(200)).body;
    expect(got).toEqual({ field_id: state, values: expected.map((v) => [v]), has_more_values: false });
    expect(all.length).toBeGreaterThan(expected.length);

    // A field of the other policy's table, made a list field.
    const quantity = s.field('ORDERS', 'QUANTITY');
    await http().put(`/api/field/${quantity}`).set(auth(s.admin)).send({ has_field_values: 'list' }).expect(200);
    const quantities = values((await get(acme, `/api/field/${quantity}/values`).expect(200)).body);
    expect(quantities).toEqual(
      await column(`SELECT DISTINCT QUANTITY FROM ORDERS WHERE USER_ID IN (${ids()}) AND QUANTITY IS NOT NULL ORDER BY QUANTITY`),
    );
  });

  it('searches and remaps values among their rows only', async () => {
    const [id, name] = [s.field('PEOPLE', 'ID'), s.field('PEOPLE', 'NAME')];
    const [[ownId, ownName]] = await sql(`SELECT ID, NAME FROM PEOPLE WHERE ID = ${mine[0]}`);
    const [[otherId, otherName]] = await sql(`SELECT ID, NAME FROM PEOPLE WHERE ID NOT IN (${ids()}) ORDER BY ID LIMIT 1`);
    const search = (prefix: string) => get(acme, `/api/field/${id}/search/${name}`).query({ value: prefix }).expect(200);
    expect((await search(String(ownName).slice(0, 3))).body).toContainEqual([ownId, ownName]);
    const sameName = `SELECT ID, NAME FROM PEOPLE WHERE ID IN (${ids()}) AND LOWER(NAME) LIKE LOWER('${otherName}%')`;
    expect((await search(String(otherName))).body).toEqual((await sql(sameName)).map((r) => [r[0], r[1]]));
    expect((await get(s.admin, `/api/field/${id}/search/${name}`).query({ value: otherName }).expect(200)).body).toContainEqual([
      otherId,
      otherName,
    ]);
    // The FK's remapping: a name for their own customer, none for another's.
    const userId = s.field('ORDERS', 'USER_ID');
    expect(
      (
        await get(acme, `/api/field/${userId}/remapping/${name}`)
          .query({ value: String(ownId) })
          .expect(200)
      ).body,
    ).toEqual([ownId, ownName]);
    expect(
      (
        await get(acme, `/api/field/${userId}/remapping/${name}`)
          .query({ value: String(otherId) })
          .expect(200)
      ).body,
    ).toEqual([String(otherId)]);
  });

  it("answers a dashboard parameter's values, searched and chained, from their rows only", async () => {
    const path = `/api/dashboard/${dashboard}/params`;
    const states = await column(`SELECT DISTINCT STATE FROM PEOPLE WHERE ID IN (${ids()}) AND STATE IS NOT NULL ORDER BY STATE`);
    expect(values((await get(acme, `${path}/state/values`).expect(200)).body)).toEqual(states);
    // NAME keeps no value list: read live, through the policy.
    const names = await column(`SELECT DISTINCT NAME FROM PEOPLE WHERE ID IN (${ids()}) ORDER BY NAME`);
    expect(values((await get(acme, `${path}/name/values`).expect(200)).body)).toEqual(names);
    const word = String(names[0]).slice(1, 4).toLowerCase();
    expect(values((await get(acme, `${path}/name/search/${encodeURIComponent(word)}`).expect(200)).body)).toEqual(
      names.filter((n) => String(n).toLowerCase().includes(word)),
    );
    const [[source]] = await sql(`SELECT SOURCE FROM PEOPLE WHERE ID = ${mine[0]}`);
    const chained = await column(
      `SELECT DISTINCT STATE FROM PEOPLE WHERE ID IN (${ids()}) AND SOURCE = '${source}' AND STATE IS NOT NULL ORDER BY STATE`,
    );
    expect(values((await get(acme, `${path}/state/values`).query({ source }).expect(200)).body)).toEqual(chained);
    // A card's own parameter on the field: the same values.
    expect(values((await get(acme, `/api/card/${stateCard}/params/state/values`).expect(200)).body)).toEqual(states);
  });

  it('leaves the blocked table out of search, table listings and database metadata', async () => {
    const products = s.table('PRODUCTS').id;
    const found = (await get(acme, '/api/search').query({ q: 'products', models: 'table' }).expect(200)).body.data;
    expect(found.map((r: { id: number }) => r.id)).not.toContain(products);
    const orders = (await get(acme, '/api/search').query({ q: 'orders', models: 'table' }).expect(200)).body.data;
    expect(orders.map((r: { id: number }) => r.id)).toContain(s.table('ORDERS').id);
    const admins = (await get(s.admin, '/api/search').query({ q: 'products', models: 'table' }).expect(200)).body.data;
    expect(admins.map((r: { id: number }) => r.id)).toContain(products);
    const listed = (await get(acme, '/api/table').expect(200)).body.map((t: { id: number }) => t.id);
    expect(listed).toEqual(expect.arrayContaining([s.table('ORDERS').id, s.table('PEOPLE').id]));
    expect(listed).not.toContain(products);
    const meta = (await get(acme, `/api/database/${s.db}/metadata`).expect(200)).body.tables.map((t: { id: number }) => t.id);
    expect(meta).not.toContain(products);
    const candidates = (await get(acme, `/api/automagic-dashboards/database/${s.db}/candidates`).expect(200)).body;
    const offered = candidates.flatMap((c: { tables: Array<{ table: { id: number } }> }) => c.tables.map((x) => x.table.id));
    expect(offered).toContain(s.table('ORDERS').id);
    expect(offered).not.toContain(products);
  });

  it("x-rays a restricted table with cards whose queries see only the user's rows, and refuses the blocked one", async () => {
    await get(acme, `/api/automagic-dashboards/table/${s.table('PRODUCTS').id}`).expect(403);
    const xray = (await get(acme, `/api/automagic-dashboards/table/${s.table('ORDERS').id}`).expect(200)).body;
    const queries = (xray.dashcards as Array<{ card?: { dataset_query?: { query?: { aggregation?: unknown[]; breakout?: unknown[] } } } }>)
      .map((dc) => dc.card?.dataset_query)
      .filter((q) => q?.query?.aggregation?.length && !q.query.breakout?.length);
    expect(queries.length).toBeGreaterThan(0);
    const [[count]] = await sql(`SELECT COUNT(*) FROM ORDERS WHERE USER_ID IN (${ids()})`);
    const counted = queries.find((q) => JSON.stringify(q!.query!.aggregation) === '[["count"]]');
    expect(counted).toBeDefined();
    const res = await http().post('/api/dataset').set(auth(acme)).send(counted!).expect(202);
    expect(Number(res.body.data.rows[0][0])).toBe(Number(count));
  });
});

/**
 * A persisted model's table holds every row of the model: a tenant's user under a filter policy on the model's table
 * runs the model's own query with the policy instead (a row added after the model was persisted shows for them, and
 * not for the admin, who reads the table). On Postgres when it is reachable, else on DuckDB.
 */
describe('row security on a persisted model', () => {
  let t: TestApp;
  let admin: string;
  let acme: string;
  let wh: E2eWarehouse;
  let db: number;
  let model: number;
  let question: number;
  const engine = availableEngines(['postgres', 'duckdb'])[0];
  const http = () => t.http();
  const sumOf = async (session: string) => {
    const q = {
      database: db,
      type: 'query',
      query: { 'source-table': `card__${model}`, aggregation: [['sum', ['field', 'amount', { 'base-type': 'type/Integer' }]]] },
    };
    const res = await http().post('/api/dataset').set(auth(session)).send(q).expect(202);
    expect(res.body.status).toBe('completed');
    return { sum: Number(res.body.data.rows[0][0]), sql: String(res.body.data.native_form?.query ?? '') };
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    wh = await e2eWarehouse(engine, t.config.dataDir, {
      statements: [
        'CREATE TABLE items (id INTEGER PRIMARY KEY, owner VARCHAR(10), amount INTEGER)',
        "INSERT INTO items VALUES (1, 'a', 10), (2, 'a', 20), (3, 'b', 300), (4, 'c', 4000)",
      ],
    });
    db = (await http().post('/api/database').set(auth(admin)).send({ engine, name: 'Items', details: wh.details }).expect(200)).body.id;
    await waitForSync(t, admin, db);
    const meta = (await http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body;
    const table = meta.tables.find((x: { name: string }) => x.name.toLowerCase() === 'items');

    const secret = await enableJwtSso(t, admin);
    await http().put('/api/setting/use-tenants').set(auth(admin)).send({ value: true }).expect(204);
    acme = await jwtSession(t, secret, { email: 'acme-models@example.com', '@tenant': 'acme', owner: 'a' });
    const groups = (await http().get('/api/permissions/group').set(auth(admin)).expect(200)).body as Array<{ id: number; name: string }>;
    const tenantUsers = groups.find((g) => g.name === 'All tenant users')!.id;
    const graph = (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
    graph.groups[tenantUsers] = { [db]: { data: 'unrestricted', native: 'write', download: { schemas: 'full' } } };
    graph.groups[ALL_USERS] = { [db]: { data: 'no', native: 'none', download: { schemas: 'none' } } };
    await http().put('/api/permissions/graph').set(auth(admin)).send(graph).expect(200);
    const ownerField = table.fields.find((f: { name: string }) => f.name.toLowerCase() === 'owner').name;
    await http()
      .post('/api/mt/gtap')
      .set(auth(admin))
      .send({ group_id: tenantUsers, table_id: table.id, attribute_remappings: { owner: ownerField } })
      .expect(200);

    const shared = await makeCollection(t, 'Models');
    await grant(t, tenantUsers, shared, 'read');
    model = (await makeModel(t, admin, { database: db, type: 'query', query: { 'source-table': table.id } }, { collection_id: shared })).id;
    const sum = [['sum', ['field', 'amount', { 'base-type': 'type/Integer' }]]];
    const onModel = { database: db, type: 'query', query: { 'source-table': `card__${model}`, aggregation: sum } };
    question = (await makeCard(t, admin, onModel, { collection_id: shared })).id;
    await http().post('/api/persist/enable').set(auth(admin)).send({ state: true }).expect(204);
    await http().post(`/api/database/${db}/persist`).set(auth(admin)).expect(204);
    await http().post(`/api/card/${model}/persist`).set(auth(admin)).expect(204);
    expect((await http().get(`/api/persist/card/${model}`).set(auth(admin)).expect(200)).body.state).toBe('persisted');
  });
  afterAll(async () => {
    await t?.close();
    await wh?.drop();
  });

  it("runs the model's query with the policy for the restricted user, never reading the model's table", async () => {
    await wh.exec(["INSERT INTO items VALUES (5, 'a', 5)", "INSERT INTO items VALUES (6, 'b', 600)"]);
    const [mine, everyone] = [await sumOf(acme), await sumOf(admin)];
    // Their rows as they are now (the hand-written filter), the admin's from the table built before the inserts.
    expect(mine.sum).toBe(10 + 20 + 5);
    expect(everyone.sum).toBe(10 + 20 + 300 + 4000);
    expect(everyone.sql).toMatch(/model_/i);
    expect(mine.sql).not.toMatch(/model_/i);
    // A saved question on the model, too.
    const run = async (session: string) =>
      Number((await http().post(`/api/card/${question}/query`).set(auth(session)).send({}).expect(202)).body.data.rows[0][0]);
    expect([await run(acme), await run(admin)]).toEqual([35, 4330]);
  });
});
