import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { enableJwtSso, jwtSession } from '../support/jwt-sso';
import { waitForSync } from '../support/sync-wait';
import { cachedAnswer, type RunAnswer } from '../support/cache-runs';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

const ALL_USERS = 1;

/**
 * Issue 37's matrix on this app database: two tenants' users signed in by JWT SSO with a `customer_id` claim, a filter
 * policy on ORDERS and a question policy on PEOPLE that hides PASSWORD and EMAIL, both for "All tenant users". Each
 * sees only their customers' rows, compared with the same filter written by hand, and never another's through the
 * result cache; their native SQL on that database is refused.
 */
describe('row security for tenant users signed in by JWT', () => {
  let s: SampleApp;
  let acme: string;
  let globex: string;
  let customers: { acme: number[]; globex: number[] };
  let tenantUsers: number;
  let wh: E2eWarehouse | undefined;
  let secret: string;
  const http = () => s.t.http();
  const f = (table: string, name: string) => ['field', s.field(table, name), null];
  const mbql = (query: object) => ({ database: s.db, type: 'query', query });

  const rows = async (session: string, query: object): Promise<unknown[][]> => {
    const res = await http().post('/api/dataset').set(auth(session)).send(query);
    expect(res.body.status).toBe('completed');
    return res.body.data.rows;
  };
  const sql = (text: string) => rows(s.admin, { database: s.db, type: 'native', native: { query: text } });
  const ids = (xs: number[]) => xs.join(', ');

  beforeAll(async () => {
    s = await startSampleApp();
    secret = await enableJwtSso(s.t, s.admin);
    await http().put('/api/setting/use-tenants').set(auth(s.admin)).send({ value: true }).expect(204);
    const buyers = (await sql('SELECT DISTINCT USER_ID FROM ORDERS ORDER BY USER_ID LIMIT 3')).map((r) => Number(r[0]));
    customers = { acme: [buyers[0], buyers[1]], globex: [buyers[2]] };
    const signIn = (tenant: string, customerIds: number[] | number) =>
      jwtSession(s.t, secret, { email: `${tenant}@example.com`, '@tenant': tenant, customer_id: customerIds });
    acme = await signIn('acme', customers.acme);
    // A single value, as a claim that is not a list.
    globex = await signIn('globex', customers.globex[0]);

    const groups = (await http().get('/api/permissions/group').set(auth(s.admin)).expect(200)).body as Array<{
      id: number;
      name: string;
    }>;
    tenantUsers = groups.find((g) => g.name === 'All tenant users')!.id;
    const graph = (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
    graph.groups[tenantUsers] = { [s.db]: { data: 'unrestricted', native: 'write', download: { schemas: 'full' } } };
    graph.groups[ALL_USERS] = { [s.db]: { data: 'no', native: 'none', download: { schemas: 'none' } } };
    await http().put('/api/permissions/graph').set(auth(s.admin)).send(graph).expect(200);

    await http()
      .post('/api/mt/gtap')
      .set(auth(s.admin))
      .send({ group_id: tenantUsers, table_id: s.table('ORDERS').id, attribute_remappings: { customer_id: 'USER_ID' } })
      .expect(200);
    const visible = ['ID', 'NAME', 'CITY', 'STATE'].map((c) => f('PEOPLE', c));
    const question = await http()
      .post('/api/card')
      .set(auth(s.admin))
      .send({
        name: 'People without contact details',
        display: 'table',
        visualization_settings: {},
        dataset_query: mbql({ 'source-table': s.table('PEOPLE').id, fields: visible }),
      })
      .expect(200);
    await http()
      .post('/api/mt/gtap')
      .set(auth(s.admin))
      .send({
        group_id: tenantUsers,
        table_id: s.table('PEOPLE').id,
        card_id: question.body.id,
        attribute_remappings: { customer_id: ['dimension', f('PEOPLE', 'ID')] },
      })
      .expect(200);
  });
  afterAll(async () => {
    await s?.t.close();
    await wh?.drop();
  });

  it("shows each tenant's user only their customers' orders, as the hand-written filter does", async () => {
    const count = mbql({ 'source-table': s.table('ORDERS').id, aggregation: [['count']] });
    for (const [session, mine] of [
      [acme, customers.acme],
      [globex, customers.globex],
    ] as const) {
      const [[expected]] = await sql(`SELECT COUNT(*) FROM ORDERS WHERE USER_ID IN (${ids(mine)})`);
      expect(Number((await rows(session, count))[0][0])).toBe(Number(expected));
      // Through an implicit join too: the orders' people are theirs only.
      const names = await rows(session, {
        ...mbql({
          'source-table': s.table('ORDERS').id,
          breakout: [['field', s.field('PEOPLE', 'ID'), { 'source-field': s.field('ORDERS', 'USER_ID') }]],
        }),
      });
      expect(names.map((r) => Number(r[0])).sort((a, b) => a - b)).toEqual([...mine].sort((a, b) => a - b));
    }
  });

  it('replaces PEOPLE by the policy question: their own people, without PASSWORD and EMAIL', async () => {
    for (const [session, mine] of [
      [acme, customers.acme],
      [globex, customers.globex],
    ] as const) {
      const res = await http()
        .post('/api/dataset')
        .set(auth(session))
        .send(mbql({ 'source-table': s.table('PEOPLE').id, 'order-by': [['asc', f('PEOPLE', 'ID')]] }))
        .expect(202);
      const columns = (res.body.data.cols as Array<{ name: string }>).map((c) => c.name);
      expect(columns).toEqual(['ID', 'NAME', 'CITY', 'STATE']);
      const expected = await sql(`SELECT ID, NAME, CITY, STATE FROM PEOPLE WHERE ID IN (${ids(mine)}) ORDER BY ID`);
      expect(res.body.data.rows).toEqual(expected);
    }
  });

  it("filters by the system attribute @tenant.slug: each tenant's user sees only the rows of their tenant's slug", async () => {
    wh = await e2eWarehouse('sqlite', s.t.config.dataDir, {
      statements: [
        'CREATE TABLE accounts (id INTEGER PRIMARY KEY, tenant VARCHAR(20), amount INTEGER)',
        "INSERT INTO accounts VALUES (1, 'acme', 10), (2, 'globex', 200), (3, 'acme', 30), (4, 'initech', 4000), (5, 'globex', 500)",
      ],
    });
    const db = (
      await http().post('/api/database').set(auth(s.admin)).send({ engine: 'sqlite', name: 'Accounts', details: wh.details }).expect(200)
    ).body.id;
    await waitForSync(s.t, s.admin, db);
    const meta = (await http().get(`/api/database/${db}/metadata`).set(auth(s.admin)).expect(200)).body;
    const table = meta.tables.find((x: { name: string }) => x.name === 'accounts');
    const field = (name: string) => table.fields.find((x: { name: string }) => x.name === name).id;
    const graph = (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
    graph.groups = {
      [tenantUsers]: { [db]: { data: 'unrestricted', native: 'none', download: { schemas: 'full' } } },
      [ALL_USERS]: { [db]: { data: 'no', native: 'none', download: { schemas: 'none' } } },
    };
    await http().put('/api/permissions/graph').set(auth(s.admin)).send(graph).expect(200);
    const policy = await http()
      .post('/api/mt/gtap')
      .set(auth(s.admin))
      .send({ group_id: tenantUsers, table_id: table.id, attribute_remappings: { '@tenant.slug': 'tenant' } });
    expect([policy.status, policy.body.message]).toEqual([200, undefined]);
    expect(policy.body.attribute_remappings).toEqual({ '@tenant.slug': 'tenant' });

    const query = {
      database: db,
      type: 'query',
      query: {
        'source-table': table.id,
        fields: ['id', 'tenant', 'amount'].map((n) => ['field', field(n), null]),
        'order-by': [['asc', ['field', field('id'), null]]],
      },
    };
    const byHand = (slug: string) =>
      rows(s.admin, {
        database: db,
        type: 'native',
        native: { query: `SELECT id, tenant, amount FROM accounts WHERE tenant = '${slug}' ORDER BY id` },
      });
    for (const [session, slug] of [
      [acme, 'acme'],
      [globex, 'globex'],
    ] as const) {
      const got = await rows(session, query);
      expect(got.length).toBeGreaterThan(0);
      expect(got).toEqual(await byHand(slug));
    }
    // Neither an administrator's login attribute nor a JWT claim of that name overrides it: the tenant's slug wins.
    const acmeUser = (await http().get('/api/user/current').set(auth(acme)).expect(200)).body;
    const forged = await http()
      .put(`/api/user/${acmeUser.id}`)
      .set(auth(s.admin))
      .send({ login_attributes: { '@tenant.slug': 'globex' } });
    expect(forged.status).toBe(400);
    const again = await jwtSession(s.t, secret, {
      email: 'acme@example.com',
      '@tenant': 'acme',
      '@tenant.slug': 'globex',
      customer_id: customers.acme,
    });
    expect(await rows(again, query)).toEqual(await byHand('acme'));
  });

  it("filters by the admin's value of an attribute over the JWT claim of that name, and a later sign-in does not erase it", async () => {
    const count = mbql({ 'source-table': s.table('ORDERS').id, aggregation: [['count']] });
    const claims = { email: 'initech@example.com', '@tenant': 'initech', customer_id: customers.acme };
    let session = await jwtSession(s.t, secret, claims);
    const [[acmeCount]] = await sql(`SELECT COUNT(*) FROM ORDERS WHERE USER_ID IN (${ids(customers.acme)})`);
    const [[globexCount]] = await sql(`SELECT COUNT(*) FROM ORDERS WHERE USER_ID IN (${ids(customers.globex)})`);
    expect(Number((await rows(session, count))[0][0])).toBe(Number(acmeCount));
    const me = (await http().get('/api/user/current').set(auth(session)).expect(200)).body as { id: number };
    await http()
      .put(`/api/user/${me.id}`)
      .set(auth(s.admin))
      .send({ login_attributes: { customer_id: customers.globex } })
      .expect(200);
    expect(Number((await rows(session, count))[0][0])).toBe(Number(globexCount));
    // Signed in again with the same claim: the claim is kept apart, and the admin's value still wins.
    session = await jwtSession(s.t, secret, claims);
    expect(Number((await rows(session, count))[0][0])).toBe(Number(globexCount));
    const view = (await http().get(`/api/user/${me.id}`).set(auth(s.admin)).expect(200)).body;
    expect(view).toMatchObject({ login_attributes: { customer_id: customers.globex }, jwt_attributes: { customer_id: customers.acme } });
    expect(view.structured_attributes.customer_id).toMatchObject({ source: 'user', value: customers.globex });
  });

  it('a tenant user in a second group with another policy on ORDERS sees the union of both, as the OR written by hand', async () => {
    const session = await jwtSession(s.t, secret, { email: 'umbrella@example.com', '@tenant': 'umbrella', customer_id: customers.globex });
    const me = (await http().get('/api/user/current').set(auth(session)).expect(200)).body as { id: number };
    const [[product]] = await sql(
      `SELECT PRODUCT_ID FROM ORDERS WHERE USER_ID NOT IN (${ids(customers.globex)}) GROUP BY PRODUCT_ID ORDER BY COUNT(*) DESC LIMIT 1`,
    );
    const resellers = (await http().post('/api/permissions/group').set(auth(s.admin)).send({ name: 'Resellers' }).expect(200)).body
      .id as number;
    const graph = (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
    graph.groups = { [resellers]: { [s.db]: { data: 'unrestricted', native: 'none', download: { schemas: 'full' } } } };
    await http().put('/api/permissions/graph').set(auth(s.admin)).send(graph).expect(200);
    await http()
      .post('/api/mt/gtap')
      .set(auth(s.admin))
      .send({ group_id: resellers, table_id: s.table('ORDERS').id, attribute_remappings: { product_id: 'PRODUCT_ID' } })
      .expect(200);
    await http().post('/api/permissions/membership').set(auth(s.admin)).send({ group_id: resellers, user_id: me.id }).expect(200);
    await http()
      .put(`/api/user/${me.id}`)
      .set(auth(s.admin))
      .send({ login_attributes: { product_id: Number(product) } })
      .expect(200);
    const query = mbql({
      'source-table': s.table('ORDERS').id,
      aggregation: [['count']],
      breakout: [f('ORDERS', 'USER_ID')],
      'order-by': [['asc', f('ORDERS', 'USER_ID')]],
    });
    const byHand = await sql(
      `SELECT USER_ID, COUNT(*) FROM ORDERS WHERE USER_ID IN (${ids(customers.globex)}) OR PRODUCT_ID = ${Number(product)}
       GROUP BY USER_ID ORDER BY USER_ID`,
    );
    const got = await rows(session, query);
    expect(got.map((r) => r.map(Number))).toEqual(byHand.map((r) => r.map(Number)));
    // More than either policy alone.
    expect(got.length).toBeGreaterThan(customers.globex.length);
  });

  it("never answers one tenant's run of a card from the other's cached result, and refuses their SQL", async () => {
    // Caching on, every run stored (min-ttl 0), so a cache keyed wrongly would answer the other tenant.
    for (const [key, value] of [
      ['enable-query-caching', true],
      ['query-caching-min-ttl', 0],
    ] as const)
      await http().put(`/api/setting/${key}`).set(auth(s.admin)).send({ value }).expect(204);
    // A collection both tenants read (each one's own collection is theirs alone).
    const shared = (await http().post('/api/collection').set(auth(s.admin)).send({ name: 'Shared reports' }).expect(200)).body.id;
    const graph = (await http().get('/api/collection/graph').set(auth(s.admin)).expect(200)).body;
    graph.groups = { [tenantUsers]: { [shared]: 'read' } };
    await http().put('/api/collection/graph').set(auth(s.admin)).send(graph).expect(200);
    const card = await http()
      .post('/api/card')
      .set(auth(s.admin))
      .send({
        name: 'Order count',
        display: 'scalar',
        visualization_settings: {},
        dataset_query: mbql({ 'source-table': s.table('ORDERS').id, aggregation: [['count']] }),
        collection_id: shared,
        cache_ttl: 600,
      })
      .expect(200);
    const run = async (session: string): Promise<RunAnswer> =>
      (await http().post(`/api/card/${card.body.id}/query`).set(auth(session)).send({}).expect(202)).body;
    const count = (r: RunAnswer) => Number(r.data.rows[0][0]);
    const [[a]] = await sql(`SELECT COUNT(*) FROM ORDERS WHERE USER_ID IN (${ids(customers.acme)})`);
    const [[g]] = await sql(`SELECT COUNT(*) FROM ORDERS WHERE USER_ID IN (${ids(customers.globex)})`);
    // Acme's result is in the cache; Globex right after is not answered from it.
    expect(count(await cachedAnswer(() => run(acme)))).toBe(Number(a));
    const theirs = await run(globex);
    expect(theirs.cached).toBeUndefined();
    expect(count(theirs)).toBe(Number(g));
    // Each tenant's own later runs come from the cache, each with its own count.
    expect(count(await cachedAnswer(() => run(globex)))).toBe(Number(g));
    const acmeAgain = await run(acme);
    expect(acmeAgain.cached).toBe(true);
    expect(count(acmeAgain)).toBe(Number(a));
    const native = await http()
      .post('/api/dataset')
      .set(auth(acme))
      .send({ database: s.db, type: 'native', native: { query: 'SELECT COUNT(*) FROM ORDERS' } });
    expect(native.body.status === 'failed' || native.status === 403).toBe(true);
  });
});
