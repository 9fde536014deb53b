import { randomBytes } from 'node:crypto';
import { ADMIN_GROUP_ID, ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { expect404 } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

type Entry = Record<string, unknown>;
interface Graph {
  revision: number;
  groups: Record<string, Record<string, Entry>>;
}

const NATIVE_NEEDS_DATA = 'Invalid DB permissions: If you have write access for native queries, you must have data access to all schemas.';

/**
 * The permissions graph in Metabase's current shape (issue 37): per group and database `view-data`, `create-queries`,
 * `download` (`data-model`, `details` for administrators), database-wide or per schema and table, beside the keys of
 * the graph's earlier format (`data`, `native`), which clients written for it still read and send.
 */
describe('permissions graph: table level', () => {
  let s: SampleApp;
  let schema: string;
  let orders: number;
  let people: number;
  const http = () => s.t.http();
  const read = async (path = ''): Promise<Graph> => (await http().get(`/api/permissions/graph${path}`).set(auth(s.admin)).expect(200)).body;
  const put = (body: unknown, query = '') =>
    http()
      .put(`/api/permissions/graph${query}`)
      .set(auth(s.admin))
      .send(body as object);
  const newGroup = async () =>
    (
      await http()
        .post('/api/permissions/group')
        .set(auth(s.admin))
        .send({ name: `T ${randomBytes(3).toString('hex')}` })
        .expect(200)
    ).body.id as number;
  const edit = async (group: number, entry: Entry) => put({ revision: (await read()).revision, groups: { [group]: { [s.db]: entry } } });

  beforeAll(async () => {
    s = await startSampleApp();
    schema = (s.table('ORDERS').schema as string | null) ?? '';
    [orders, people] = [s.table('ORDERS').id, s.table('PEOPLE').id];
  });
  afterAll(() => s.t.close());

  it("shows Metabase's keys beside the earlier ones, leaving out the least values", async () => {
    const group = await newGroup();
    const g = await read();
    expect(g.groups[ALL_USERS_GROUP_ID][s.db]).toEqual({
      'view-data': 'unrestricted',
      'create-queries': 'query-builder-and-native',
      download: { schemas: 'full' },
      data: 'unrestricted',
      native: 'write',
    });
    expect(g.groups[ADMIN_GROUP_ID][s.db]).toEqual({
      'view-data': 'unrestricted',
      'create-queries': 'query-builder-and-native',
      download: { schemas: 'full' },
      'data-model': { schemas: 'all' },
      details: 'yes',
      data: 'unrestricted',
      native: 'write',
    });
    // Blocked: nothing of the current keys but `download`, which both formats share.
    expect(g.groups[group][s.db]).toEqual({ data: 'no', native: 'none', download: { schemas: 'none' } });
  });

  it('stores per-table levels and answers only the groups sent; a table sandboxed without a policy is refused', async () => {
    const group = await newGroup();
    // Stored as unrestricted, a sandboxed table without its policy would be open (permissions-graph-sandboxes.e2e).
    const open = await edit(group, { 'view-data': { [schema]: { [orders]: 'unrestricted', [people]: 'sandboxed' } } });
    expect([open.status, JSON.stringify(open.body)]).toEqual([400, expect.stringContaining('needs a policy in `sandboxes`')]);
    const res = await edit(group, {
      'view-data': { [schema]: { [orders]: 'unrestricted', [people]: 'unrestricted' } },
      'create-queries': { [schema]: { [orders]: 'query-builder' } },
      download: { schemas: { [schema]: { [orders]: 'limited', [people]: 'full' } } },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.groups)).toEqual([String(group)]);
    const entry = res.body.groups[group][s.db];
    expect(entry).toEqual({
      'view-data': { [schema]: { [orders]: 'unrestricted', [people]: 'unrestricted' } },
      'create-queries': { [schema]: { [orders]: 'query-builder' } },
      download: { schemas: { [schema]: { [orders]: 'limited', [people]: 'full' } } },
      data: 'unrestricted',
      native: 'none',
    });
    expect((await read()).groups[group][s.db]).toEqual(entry);
  });

  it('shows a kind set alike on every table as one level, and reads it back unchanged', async () => {
    const group = await newGroup();
    const tables = (s.meta.tables as Array<{ id: number }>).map((t) => t.id);
    const all = Object.fromEntries(tables.map((id) => [id, 'query-builder']));
    await edit(group, { 'view-data': 'unrestricted', 'create-queries': { [schema]: all } }).then((r) => expect(r.status).toBe(200));
    const shown = (await read()).groups[group][s.db];
    expect(shown).toMatchObject({ 'view-data': 'unrestricted', 'create-queries': 'query-builder', data: 'unrestricted', native: 'none' });
    // The whole graph as read, sent back: only the revision moves.
    const before = await read();
    const res = await put(before).expect(200);
    expect(res.body).toEqual({ ...before, revision: before.revision + 1 });
  });

  it('narrows to one database or one group, 404 for unknown ones', async () => {
    const all = await read();
    const byDb = await read(`/db/${s.db}`);
    expect(byDb.revision).toBe(all.revision);
    expect(Object.keys(byDb.groups).sort()).toEqual(Object.keys(all.groups).sort());
    for (const [gid, dbs] of Object.entries(byDb.groups)) expect(dbs).toEqual({ [s.db]: all.groups[gid][s.db] });
    expect(await read(`/group/${ALL_USERS_GROUP_ID}`)).toEqual({
      revision: all.revision,
      groups: { [ALL_USERS_GROUP_ID]: all.groups[ALL_USERS_GROUP_ID] },
    });
    expect404(await http().get('/api/permissions/graph/db/99999').set(auth(s.admin)));
    expect404(await http().get('/api/permissions/graph/group/99999').set(auth(s.admin)));
    await http().get(`/api/permissions/graph/db/${s.db}`).set(auth(s.user.session)).expect(403);
  });

  it('applies the earlier keys a client of that format changed in an entry it read whole', async () => {
    const group = await newGroup();
    await edit(group, { 'view-data': 'unrestricted', 'create-queries': 'query-builder', download: { schemas: 'full' } });
    const shown = (await read()).groups[group][s.db];
    // Our admin screen: the entry as read, with `native` changed.
    const res = await edit(group, { ...shown, native: 'write' });
    expect(res.status).toBe(200);
    expect(res.body.groups[ALL_USERS_GROUP_ID]).toBeDefined();
    expect(res.body.groups[group][s.db]).toMatchObject({ 'create-queries': 'query-builder-and-native', native: 'write' });
    // And the current keys changed in an entry that also carries the earlier ones.
    const again = (await read()).groups[group][s.db];
    const blocked = await edit(group, { ...again, 'view-data': 'blocked', 'create-queries': 'no' });
    expect(blocked.body.groups[group][s.db]).toEqual({ data: 'no', native: 'none', download: { schemas: 'none' } });
  });

  it('takes legacy-no-self-service as data access without new queries; blocking takes queries and downloads away', async () => {
    const group = await newGroup();
    const res = await edit(group, { 'view-data': 'legacy-no-self-service', download: { schemas: 'limited' } });
    expect(res.body.groups[group][s.db]).toEqual({
      'view-data': 'unrestricted',
      download: { schemas: 'limited' },
      data: 'unrestricted',
      native: 'none',
    });
    const blocked = await edit(group, { 'view-data': 'blocked' });
    expect(blocked.body.groups[group][s.db]).toEqual({ data: 'no', native: 'none', download: { schemas: 'none' } });
  });

  it('answers only the revision with skip-graph, and takes a stale revision with force', async () => {
    const group = await newGroup();
    const g = await read();
    const skipped = await put(
      { revision: g.revision, groups: { [group]: { [s.db]: { 'view-data': 'unrestricted' } } } },
      '?skip-graph=true',
    );
    expect([skipped.status, skipped.body]).toEqual([200, { revision: g.revision + 1 }]);
    const stale = { revision: g.revision, groups: { [group]: { [s.db]: { 'view-data': 'blocked' } } } };
    expect((await put(stale)).status).toBe(409);
    const forced = await put(stale, '?force=true');
    expect(forced.status).toBe(200);
    expect(forced.body.revision).toBe(g.revision + 2);
  });

  it.each<[string, Entry, string]>([
    ['native SQL with a blocked database', { 'view-data': 'blocked', 'create-queries': 'query-builder-and-native' }, NATIVE_NEEDS_DATA],
    ['an unknown view-data', { 'view-data': 'all' }, "each database's view-data must be"],
    ['impersonation without its policy', { 'view-data': 'impersonated' }, 'view-data `impersonated` needs a policy in `impersonations`'],
    [
      'native SQL on one table',
      { 'create-queries': { PUBLIC: { 1: 'query-builder-and-native' } } },
      "each database's create-queries must be",
    ],
    ['details for a group', { details: 'yes' }, 'details permissions are not supported: only administrators see database details.'],
    ['a data model for a group', { 'data-model': { schemas: 'all' } }, 'data-model permissions are not supported'],
  ])('refuses %s with 400, changing nothing', async (_what, entry, message) => {
    const group = await newGroup();
    const before = await read();
    const res = await edit(group, entry);
    expect(res.status).toBe(400);
    expect(res.body.errors.groups).toContain(message);
    expect(res.body['specific-errors'].groups[0]).toContain('received:');
    expect(await read()).toEqual(before);
  });

  it('refuses a table or schema not in the database', async () => {
    const group = await newGroup();
    const res = await edit(group, { 'view-data': { [schema]: { 999999: 'unrestricted' } } });
    expect(res.body.errors).toEqual({ groups: `table 999999 does not exist in schema "${schema}" of database ${s.db}.` });
    const other = await edit(group, { 'view-data': { NOWHERE: 'unrestricted' } });
    expect(other.body.errors).toEqual({ groups: `schema "NOWHERE" does not exist in database ${s.db}.` });
  });
});
