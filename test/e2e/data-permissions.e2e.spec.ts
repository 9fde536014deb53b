import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { ADMIN_GROUP_ID, ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, makeUserDirect, MadeUser, setupAdmin } from '../support/factories';
import { waitForIdle } from '../support/sync-runs';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(90_000);

const FORBIDDEN = "You don't have permissions to do that.";
const STALE = 'Looks like someone else edited the permissions and your data is out of date. Please fetch new data and try again.';
const FULL = { data: 'unrestricted', native: 'write', download: { schemas: 'full' } };
const NONE = { data: 'no', native: 'none', download: { schemas: 'none' } };
const QUERY_ONLY = { data: 'unrestricted', native: 'none', download: { schemas: 'full' } };
// As the graph shows them: Metabase's current keys beside the earlier ones (PUTs here use the earlier format).
const FULL_SHOWN = { ...FULL, 'view-data': 'unrestricted', 'create-queries': 'query-builder-and-native' };
const ADMIN_SHOWN = { ...FULL_SHOWN, 'data-model': { schemas: 'all' }, details: 'yes' };
const QUERY_ONLY_SHOWN = { ...QUERY_ONLY, 'view-data': 'unrestricted', 'create-queries': 'query-builder' };

interface Graph {
  revision: number;
  groups: Record<string, Record<string, { data: string; native: string; download: { schemas: string } }>>;
}

function expectValidation(res: Response, param: string, message: string | RegExp) {
  expect(res.status).toBe(400);
  expect(Object.keys(res.body)).toEqual(['errors', 'specific-errors']);
  expect(res.body.errors).toEqual({ [param]: typeof message === 'string' ? message : expect.stringMatching(message) });
  expect(res.body['specific-errors'][param]).toEqual([expect.stringContaining('received:')]);
}

describe('data permissions graph', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  let groupA: number;
  let groupB: number;
  let dbX: number;
  let dbY: number;
  const warehouses: E2eWarehouse[] = [];
  const http = () => t.http();
  const read = async (): Promise<Graph> => (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
  const put = (body: unknown, session = admin, app = t) =>
    app
      .http()
      .put('/api/permissions/graph')
      .set(auth(session))
      .send(body as object);

  async function connect(name: string): Promise<number> {
    const wh = await e2eWarehouse('sqlite', t.config.dataDir, { statements: ['CREATE TABLE t (id INTEGER PRIMARY KEY)'] });
    warehouses.push(wh);
    const id = (await http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name, details: wh.details }).expect(200)).body
      .id;
    await waitForIdle(t, id);
    return id;
  }
  const newGroup = async () =>
    (
      await http()
        .post('/api/permissions/group')
        .set(auth(admin))
        .send({ name: `G ${randomBytes(3).toString('hex')}` })
        .expect(200)
    ).body.id as number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    [groupA, groupB] = [await newGroup(), await newGroup()];
    user = await makeUserDirect(t, { group_ids: [groupA, groupB] });
    dbX = await connect('X');
    dbY = await connect('Y');
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all(warehouses.map((w) => w.drop()));
  });

  it('is for admins only', async () => {
    const s = auth(user.session);
    for (const res of [await http().get('/api/permissions/graph').set(s), await put({ revision: 0, groups: {} }, user.session)]) {
      expect([res.status, res.text]).toEqual([403, FORBIDDEN]);
    }
    await http().get('/api/permissions/graph').expect(401);
  });

  it('shows every group and database: new databases open to All Users, admins always full', async () => {
    const g = await read();
    expect(Number.isInteger(g.revision)).toBe(true);
    expect(g.groups[ALL_USERS_GROUP_ID]).toEqual({ [dbX]: FULL_SHOWN, [dbY]: FULL_SHOWN });
    expect(g.groups[ADMIN_GROUP_ID]).toEqual({ [dbX]: ADMIN_SHOWN, [dbY]: ADMIN_SHOWN });
    expect(g.groups[groupA]).toEqual({ [dbX]: NONE, [dbY]: NONE });
    expect(
      Object.keys(g.groups)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([ALL_USERS_GROUP_ID, ADMIN_GROUP_ID, groupA, groupB].sort((a, b) => a - b));
  });

  it('overwrites the parts sent, keeps the rest, and bumps the revision', async () => {
    const before = await read();
    const res = await put({ revision: before.revision, groups: { [groupA]: { [dbX]: QUERY_ONLY } } }).expect(200);
    expect(res.body.revision).toBe(before.revision + 1);
    expect(res.body.groups[groupA]).toEqual({ [dbX]: QUERY_ONLY_SHOWN, [dbY]: NONE });
    expect(res.body.groups[ALL_USERS_GROUP_ID]).toEqual(before.groups[ALL_USERS_GROUP_ID]);
    expect(await read()).toEqual(res.body);
  });

  it('stores native SQL only together with data access', async () => {
    const g = await read();
    const res = await put({ revision: g.revision, groups: { [groupB]: { [dbY]: { data: 'no', native: 'write' } } } }).expect(200);
    expect(res.body.groups[groupB][dbY]).toEqual(NONE);
  });

  it('takes back the whole graph as read, Administrators included, when they are unchanged', async () => {
    const g = await read();
    g.groups[groupB][dbX] = FULL;
    const res = await put(g).expect(200);
    expect(res.body.groups[groupB][dbX]).toEqual(FULL_SHOWN);
    expect(res.body.revision).toBe(g.revision + 1);
  });

  it('refuses to change the Administrators group', async () => {
    const g = await read();
    const res = await put({ revision: g.revision, groups: { [ADMIN_GROUP_ID]: { [dbX]: NONE } } });
    expect([res.status, res.body]).toEqual([400, { message: 'You cannot change the permissions of the Administrators group.' }]);
    expect(await read()).toEqual(g);
  });

  it('refuses a stale revision with 409', async () => {
    const g = await read();
    const res = await put({ revision: g.revision - 1, groups: { [groupA]: { [dbY]: FULL } } });
    expect([res.status, res.body]).toEqual([409, { message: STALE }]);
    expect((await put({ revision: g.revision + 5, groups: {} })).status).toBe(409);
    expect(await read()).toEqual(g);
  });

  it('lets only one of two edits made from the same revision through', async () => {
    const g = await read();
    const results = await Promise.all([
      put({ revision: g.revision, groups: { [groupA]: { [dbY]: QUERY_ONLY } } }),
      put({ revision: g.revision, groups: { [groupB]: { [dbY]: QUERY_ONLY } } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const after = await read();
    expect(after.revision).toBe(g.revision + 1);
    const winner = results[0].status === 200 ? groupA : groupB;
    const loser = winner === groupA ? groupB : groupA;
    expect([after.groups[winner][dbY], after.groups[loser][dbY]]).toEqual([QUERY_ONLY_SHOWN, g.groups[loser][dbY]]);
  });

  it('keeps the revision right across instances sharing the app DB', async () => {
    const other = await startTestApp({}, t);
    try {
      const g = await read();
      await put({ revision: g.revision, groups: { [groupA]: { [dbY]: NONE } } }).expect(200);
      // The other instance must not take the revision both have seen before, and must take the new one.
      expect((await put({ revision: g.revision, groups: { [groupB]: { [dbY]: NONE } } }, admin, other)).status).toBe(409);
      const res = await put({ revision: g.revision + 1, groups: { [groupB]: { [dbY]: NONE } } }, admin, other);
      expect(res.status).toBe(200);
      expect(res.body.revision).toBe(g.revision + 2);
      expect((await read()).revision).toBe(g.revision + 2);
    } finally {
      await other.close();
    }
  });

  it('refuses unknown groups and databases, and applies nothing of a refused edit', async () => {
    const g = await read();
    expectValidation(
      await put({ revision: g.revision, groups: { [groupA]: { [dbX]: NONE }, 99999: { [dbX]: NONE } } }),
      'groups',
      'group 99999 does not exist.',
    );
    expectValidation(
      await put({ revision: g.revision, groups: { [groupA]: { [dbX]: NONE, 99999: NONE } } }),
      'groups',
      'database 99999 does not exist.',
    );
    expect(await read()).toEqual(g);
  });

  it.each<[string, unknown, string, string | RegExp]>([
    ['no revision', { groups: {} }, 'revision', 'value must be an integer.'],
    ['a revision that is a string', { revision: '3', groups: {} }, 'revision', 'value must be an integer.'],
    ['a negative revision', { revision: -1, groups: {} }, 'revision', 'value must be an integer.'],
    ['no groups', { revision: 0 }, 'groups', 'value must be a map.'],
    ['groups as a list', { revision: 0, groups: [] }, 'groups', 'value must be a map.'],
    ['a group id that is not a number', { revision: 0, groups: { abc: {} } }, 'groups', /group ids/],
    ['a group mapped to a string', { revision: 0, groups: { 1: 'all' } }, 'groups', /group ids/],
    ['a database id that is not a number', { revision: 0, groups: { 1: { x: FULL } } }, 'groups', /each database/],
    ['Metabase’s old schemas shape', { revision: 0, groups: { 1: { 1: { data: { schemas: 'all' } } } } }, 'groups', /each database/],
    ['an unknown data level', { revision: 0, groups: { 1: { 1: { data: 'all', native: 'none' } } } }, 'groups', /each database/],
    ['an unknown native level', { revision: 0, groups: { 1: { 1: { data: 'unrestricted', native: 'read' } } } }, 'groups', /each database/],
    ['a missing native level', { revision: 0, groups: { 1: { 1: { data: 'unrestricted' } } } }, 'groups', /each database/],
  ])('refuses %s with 400', async (_what, body, param, message) => {
    expectValidation(await put(body), param, message);
  });

  it('decides which databases a user sees, and whether they may write SQL', async () => {
    const g = await read();
    await put({
      revision: g.revision,
      groups: {
        [ALL_USERS_GROUP_ID]: { [dbX]: NONE, [dbY]: NONE },
        [groupA]: { [dbX]: QUERY_ONLY, [dbY]: NONE },
        [groupB]: { [dbX]: NONE, [dbY]: NONE },
      },
    }).expect(200);
    const list = async () => (await http().get('/api/database').set(auth(user.session)).expect(200)).body;
    let seen = await list();
    expect(seen.data.map((d: { id: number; native_permissions: string }) => [d.id, d.native_permissions])).toEqual([[dbX, 'none']]);
    expect(seen.total).toBe(1);
    expect((await http().get(`/api/database/${dbX}`).set(auth(user.session)).expect(200)).body.native_permissions).toBe('none');
    await http().get(`/api/database/${dbY}`).set(auth(user.session)).expect(403);

    // The best grant among the user's groups counts.
    await put({ revision: g.revision + 1, groups: { [groupB]: { [dbX]: FULL, [dbY]: QUERY_ONLY } } }).expect(200);
    seen = await list();
    expect(seen.data.map((d: { id: number; native_permissions: string }) => [d.id, d.native_permissions])).toEqual([
      [dbX, 'write'],
      [dbY, 'none'],
    ]);

    // Admins see every database with native SQL whatever the graph says.
    const asAdmin = (await http().get('/api/database').set(auth(admin)).expect(200)).body.data;
    expect(
      asAdmin.filter((d: { id: number }) => [dbX, dbY].includes(d.id)).map((d: { native_permissions: string }) => d.native_permissions),
    ).toEqual(['write', 'write']);
  });
});
