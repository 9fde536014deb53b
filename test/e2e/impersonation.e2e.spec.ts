import { randomBytes } from 'node:crypto';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, makeUserDirect, MadeUser, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { startTestApp, TestApp } from '../support/test-app';
import { availableEngines, serverAdmin } from '../support/warehouses';

jest.setTimeout(120_000);

const FORBIDDEN = "You don't have permissions to do that.";
const BASE = '/api/ee/advanced-permissions/impersonation';

/**
 * Connection impersonation on a Postgres warehouse whose table has row level security (`owner = current_user`): two
 * users of one impersonated group, each with their own role in the attribute `db_role`, see only their rows, through
 * the query builder and through SQL; an admin sees them all.
 */
describe.each(availableEngines(['postgres']))('connection impersonation (%s warehouse)', () => {
  const tag = randomBytes(3).toString('hex');
  const [roleA, roleB] = [`imp_a_${tag}`, `imp_b_${tag}`];
  const pg = serverAdmin('postgres');
  let t: TestApp;
  let wh: E2eWarehouse;
  let admin: string;
  let db: number;
  let table: number;
  let group: number;
  let u1: MadeUser;
  let u2: MadeUser;
  const http = () => t.http();

  const newGroup = async () =>
    (
      await http()
        .post('/api/permissions/group')
        .set(auth(admin))
        .send({ name: `G ${randomBytes(3).toString('hex')}` })
        .expect(200)
    ).body.id as number;
  const graph = async () => (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
  const putGraph = async (groups: Record<number, unknown>, extra: Record<string, unknown> = {}) => {
    const { revision } = await graph();
    const body = { revision, groups: Object.fromEntries(Object.entries(groups).map(([g, e]) => [g, { [db]: e }])), ...extra };
    return http().put('/api/permissions/graph').set(auth(admin)).send(body);
  };
  const user = async (attributes: Record<string, unknown>, groupIds = [group]) =>
    makeUserDirect(t, { group_ids: groupIds, login_attributes: attributes });
  const run = async (session: string, query: object) => {
    const res = await http().post('/api/dataset').set(auth(session)).send(query);
    expect(res.status).toBe(202);
    return res.body;
  };
  const rows = async (session: string, query: object): Promise<unknown[][]> => {
    const body = await run(session, query);
    if (body.status !== 'completed') throw new Error(`query failed: ${body.error}`);
    return body.data.rows;
  };
  const mbql = () => ({
    database: db,
    type: 'query',
    query: { 'source-table': table, 'order-by': [['asc', ['field', 'n', { 'base-type': 'type/Integer' }]]] },
  });
  const sql = (query: string) => ({ database: db, type: 'native', native: { query } });
  const owners = (rs: unknown[][]) => [...new Set(rs.map((r) => r.find((v) => typeof v === 'string')))].sort();

  beforeAll(async () => {
    await pg(`CREATE ROLE ${roleA} NOLOGIN`);
    await pg(`CREATE ROLE ${roleB} NOLOGIN`);
    wh = await e2eWarehouse('postgres', '', {
      statements: [
        'CREATE TABLE docs (n INTEGER PRIMARY KEY, owner TEXT NOT NULL)',
        `INSERT INTO docs VALUES (1, '${roleA}'), (2, '${roleB}'), (3, '${roleA}'), (4, 'nobody')`,
        `GRANT SELECT ON docs TO ${roleA}, ${roleB}`,
        'ALTER TABLE docs ENABLE ROW LEVEL SECURITY',
        'CREATE POLICY own_rows ON docs USING (owner = current_user)',
      ],
    });
    t = await startTestApp();
    admin = await setupAdmin(t);
    db = (
      await http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine: 'postgres', name: `Docs ${tag}`, details: wh.details })
        .expect(200)
    ).body.id;
    await waitForSync(t, admin, db);
    const meta = (await http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body;
    table = meta.tables.find((x: { name: string }) => x.name === 'docs').id;
    group = await newGroup();
    const res = await putGraph(
      {
        [ALL_USERS_GROUP_ID]: { 'view-data': 'blocked', 'create-queries': 'no' },
        [group]: { 'view-data': 'impersonated', 'create-queries': 'query-builder-and-native', download: { schemas: 'full' } },
      },
      { impersonations: [{ group_id: group, db_id: db, attribute: 'db_role' }] },
    );
    expect(res.status).toBe(200);
    expect(res.body.impersonations).toEqual([{ id: expect.any(Number), group_id: group, db_id: db, attribute: 'db_role' }]);
    u1 = await user({ db_role: roleA });
    u2 = await user({ db_role: roleB });
  });

  afterAll(async () => {
    await t?.close();
    await wh?.drop();
    await pg(`DROP ROLE IF EXISTS ${roleA}`);
    await pg(`DROP ROLE IF EXISTS ${roleB}`);
  });

  it('shows the group as impersonated in the graph, and lists the policy', async () => {
    expect((await graph()).groups[group][db]['view-data']).toBe('impersonated');
    const all = (await http().get(BASE).set(auth(admin)).expect(200)).body;
    expect(all).toEqual([{ id: expect.any(Number), group_id: group, db_id: db, attribute: 'db_role' }]);
    const one = (await http().get(`${BASE}?group_id=${group}&db_id=${db}`).set(auth(admin)).expect(200)).body;
    expect(one).toEqual(all[0]);
  });

  it("runs each user's query builder and SQL queries under their role: the warehouse's row security applies", async () => {
    for (const [u, role, ns] of [
      [u1, roleA, [1, 3]],
      [u2, roleB, [2]],
    ] as const) {
      const viaMbql = await rows(u.session, mbql());
      expect(owners(viaMbql)).toEqual([role]);
      expect(viaMbql.map((r) => r.find((v) => typeof v === 'number'))).toEqual(ns);
      expect(await rows(u.session, sql('SELECT n, owner, current_user FROM docs ORDER BY n'))).toEqual(ns.map((n) => [n, role, role]));
    }
  });

  it("refuses SQL that would leave the user's role for the connection's", async () => {
    for (const query of ['RESET ROLE', 'SET ROLE NONE', "SELECT set_config('role', 'none', true)"]) {
      const body = await run(u1.session, sql(query));
      expect(body.status).toBe('failed');
    }
    expect(owners(await rows(u1.session, sql('SELECT n, owner FROM docs')))).toEqual([roleA]);
  });

  it("never answers one role's run of a card from another role's cached result", async () => {
    await http().put('/api/setting/enable-query-caching').set(auth(admin)).send({ value: true }).expect(204);
    await http().put('/api/setting/query-caching-min-ttl').set(auth(admin)).send({ value: 0 }).expect(204);
    const shared = (
      await http()
        .post('/api/collection')
        .set(auth(admin))
        .send({ name: `Reports ${tag}` })
        .expect(200)
    ).body.id;
    const collections = (await http().get('/api/collection/graph').set(auth(admin)).expect(200)).body;
    collections.groups = { [group]: { [shared]: 'read' } };
    await http().put('/api/collection/graph').set(auth(admin)).send(collections).expect(200);
    const card = await http()
      .post('/api/card')
      .set(auth(admin))
      .send({
        name: 'Doc count',
        display: 'scalar',
        visualization_settings: {},
        dataset_query: { database: db, type: 'query', query: { 'source-table': table, aggregation: [['count']] } },
        collection_id: shared,
        cache_ttl: 600,
      })
      .expect(200);
    const count = async (session: string) => {
      const res = await http().post(`/api/card/${card.body.id}/query`).set(auth(session)).send({}).expect(202);
      return [Number(res.body.data.rows[0][0]), res.body.cached === true] as const;
    };
    expect(await count(u1.session)).toEqual([2, false]);
    // The entry is written in the background: u1's next runs come from it once it is there.
    let again = await count(u1.session);
    for (let i = 0; i < 50 && !again[1]; i++) {
      await new Promise((r) => setTimeout(r, 100));
      again = await count(u1.session);
    }
    expect(again).toEqual([2, true]);
    expect((await count(u2.session))[0]).toBe(1);
    expect((await count(admin))[0]).toBe(4);
  });

  it('never impersonates an admin, nor a user with unrestricted access through another group', async () => {
    expect((await rows(admin, sql('SELECT n FROM docs ORDER BY n'))).map((r) => r[0])).toEqual([1, 2, 3, 4]);
    const other = await newGroup();
    expect((await putGraph({ [other]: { 'view-data': 'unrestricted', 'create-queries': 'query-builder-and-native' } })).status).toBe(200);
    const both = await user({ db_role: roleA }, [group, other]);
    expect((await rows(both.session, mbql())).length).toBe(4);
  });

  it('fails the query, closed, when the role does not exist or the attribute is missing, invalid, or the default role', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ db_role: `imp_missing_${tag}` }, /role "imp_missing_\w+" does not exist/],
      [{}, /^User does not have attribute required for connection impersonation\.$/],
      [{ db_role: [roleA, roleB] }, /role must be a single non-empty string/],
      [{ db_role: String(wh.details.user) }, /role must not be the database default role/],
    ];
    for (const [attributes, error] of cases) {
      const u = await user(attributes);
      for (const query of [mbql(), sql('SELECT n FROM docs')]) {
        const body = await run(u.session, query);
        expect(body.status).toBe('failed');
        expect(body.error).toMatch(error);
        expect(body.data.rows).toEqual([]);
      }
    }
  });

  it('shows an impersonated user the values their role reads (not the stored list), and refuses a sandbox beside it', async () => {
    const meta = (await http().get(`/api/table/${table}/query_metadata`).set(auth(u1.session)).expect(200)).body;
    const ownerField = meta.fields.find((f: { name: string }) => f.name === 'owner').id;
    await http().put(`/api/field/${ownerField}`).set(auth(admin)).send({ has_field_values: 'list' }).expect(200);
    const values = (await http().get(`/api/field/${ownerField}/values`).set(auth(u1.session)).expect(200)).body;
    expect(values.values).toEqual([[roleA]]);
    const all = (await http().get(`/api/field/${ownerField}/values`).set(auth(admin)).expect(200)).body;
    expect(all.values.length).toBe(3);

    const both = await newGroup();
    await putGraph(
      { [both]: { 'view-data': 'impersonated', 'create-queries': 'query-builder' } },
      { impersonations: [{ group_id: both, db_id: db, attribute: 'db_role' }] },
    );
    await http()
      .post('/api/mt/gtap')
      .set(auth(admin))
      .send({ group_id: both, table_id: table, attribute_remappings: { db_role: 'owner' } })
      .expect(200);
    const u = await user({ db_role: roleA }, [both]);
    const body = await run(u.session, mbql());
    expect([body.status, body.error]).toEqual(['failed', 'Conflicting sandboxing and impersonation policies found.']);
    await putGraph({ [both]: { 'view-data': 'blocked' } });
  });

  it('refuses non-admins on the policy routes and the graph', async () => {
    const { id } = (await http().get(BASE).set(auth(admin)).expect(200)).body[0];
    for (const res of [await http().get(BASE).set(auth(u1.session)), await http().delete(`${BASE}/${id}`).set(auth(u1.session))]) {
      expect(res.status).toBe(403);
      expect(res.text).toBe(FORBIDDEN);
    }
    const edit = await http()
      .put('/api/permissions/graph')
      .set(auth(u1.session))
      .send({ revision: 0, groups: {}, impersonations: [{ group_id: group, db_id: db, attribute: 'x' }] });
    expect(edit.status).toBe(403);
    expect((await http().get(BASE).set(auth(admin)).expect(200)).body).toHaveLength(1);
  });

  it('refuses `impersonated` without its policy, and replaces a policy sent again', async () => {
    const g = await newGroup();
    const res = await putGraph({ [g]: { 'view-data': 'impersonated' } });
    expect(res.status).toBe(400);
    expect(res.body.errors.groups).toMatch(/needs a policy in `impersonations`/);
    const again = await putGraph(
      { [group]: { 'view-data': 'impersonated' } },
      { impersonations: [{ group_id: group, db_id: db, attribute: 'other_role' }] },
    );
    expect(again.status).toBe(200);
    const all = (await http().get(BASE).set(auth(admin)).expect(200)).body;
    expect(all).toEqual([expect.objectContaining({ group_id: group, db_id: db, attribute: 'other_role' })]);
    expect((await run(u1.session, mbql())).error).toBe('User does not have attribute required for connection impersonation.');
    await putGraph(
      { [group]: { 'view-data': 'impersonated' } },
      { impersonations: [{ group_id: group, db_id: db, attribute: 'db_role' }] },
    );
    expect(owners(await rows(u1.session, mbql()))).toEqual([roleA]);
  });

  it('deletes the policy when the group is moved off impersonated, and through its route', async () => {
    expect((await putGraph({ [group]: { 'view-data': 'unrestricted' } })).status).toBe(200);
    expect((await http().get(BASE).set(auth(admin)).expect(200)).body).toEqual([]);
    expect((await graph()).groups[group][db]['view-data']).toBe('unrestricted');
    expect((await rows(u1.session, mbql())).length).toBe(4);

    await putGraph(
      { [group]: { 'view-data': 'impersonated' } },
      { impersonations: [{ group_id: group, db_id: db, attribute: 'db_role' }] },
    );
    const [{ id }] = (await http().get(BASE).set(auth(admin)).expect(200)).body;
    await http().delete(`${BASE}/${id}`).set(auth(admin)).expect(204);
    await http().delete(`${BASE}/${id}`).set(auth(admin)).expect(404);
    const none = await http().get(`${BASE}?group_id=${group}&db_id=${db}`).set(auth(admin)).expect(200);
    expect(none.text).toBe('');
    expect((await graph()).groups[group][db]['view-data']).toBe('unrestricted');
  });
});

/**
 * On MariaDB/MySQL the role is the session's for the statement (SET ROLE): shown by CURRENT_ROLE(), and a role that
 * does not exist fails the query. (That the role narrows what is read is shown at the driver level, by a connection
 * user without row privileges of its own: test/engines/impersonation-roles.spec.ts.)
 */
describe.each(availableEngines(['mysql']))('connection impersonation (%s warehouse)', () => {
  const tag = randomBytes(3).toString('hex');
  const role = `imp_m_${tag}`;
  const server = serverAdmin('mysql');
  let t: TestApp;
  let wh: E2eWarehouse;
  let admin: string;
  let db: number;
  let group: number;
  const http = () => t.http();
  const run = async (session: string, query: string) => {
    const res = await http().post('/api/dataset').set(auth(session)).send({ database: db, type: 'native', native: { query } });
    expect(res.status).toBe(202);
    return res.body;
  };

  beforeAll(async () => {
    // Its creator (the warehouse's connection user here) is granted a new role.
    await server(`CREATE ROLE ${role}`);
    wh = await e2eWarehouse('mysql', '', { statements: ['CREATE TABLE docs (n INTEGER PRIMARY KEY)', 'INSERT INTO docs VALUES (1)'] });
    await server(`GRANT SELECT ON \`${String(wh.details.dbname)}\`.docs TO ${role}`);
    t = await startTestApp();
    admin = await setupAdmin(t);
    db = (
      await http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine: 'mysql', name: `Docs ${tag}`, details: wh.details })
        .expect(200)
    ).body.id;
    await waitForSync(t, admin, db);
    group = (
      await http()
        .post('/api/permissions/group')
        .set(auth(admin))
        .send({ name: `G ${tag}` })
        .expect(200)
    ).body.id;
    const { revision } = (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
    await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({
        revision,
        groups: {
          [ALL_USERS_GROUP_ID]: { [db]: { 'view-data': 'blocked', 'create-queries': 'no' } },
          [group]: { [db]: { 'view-data': 'impersonated', 'create-queries': 'query-builder-and-native' } },
        },
        impersonations: [{ group_id: group, db_id: db, attribute: 'db_role' }],
      })
      .expect(200);
  });

  afterAll(async () => {
    await t?.close();
    await wh?.drop();
    await server(`DROP ROLE ${role}`).catch(() => undefined);
  });

  it("runs an impersonated user's SQL under their role, an admin's under none, and fails a role that does not exist", async () => {
    const u = await makeUserDirect(t, { group_ids: [group], login_attributes: { db_role: role } });
    const mine = await run(u.session, 'SELECT CURRENT_ROLE(), COUNT(*) FROM docs');
    expect(mine.status).toBe('completed');
    expect(String(mine.data.rows[0][0])).toContain(role);
    expect((await run(admin, 'SELECT CURRENT_ROLE()')).data.rows[0][0]).toBeNull();
    const missing = await makeUserDirect(t, { group_ids: [group], login_attributes: { db_role: `imp_none_${tag}` } });
    const failed = await run(missing.session, 'SELECT 1');
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/imp_none_/);
  });
});
