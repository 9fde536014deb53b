import { randomBytes } from 'node:crypto';
import { auth, setupAdmin } from '../support/factories';
import { waitForDatabase, waitForSync } from '../support/sync-wait';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

interface Table {
  id: number;
  name: string;
  schema: string | null;
  fields: Array<{ id: number; name: string }>;
}

/**
 * `PUT /api/permissions/graph` with Metabase's `sandboxes`: the graph's levels and the row and column security
 * policies are stored in one transaction under one revision, so a table is never left open between the two, and a
 * refusal stores neither.
 */
describe('the permissions graph with its row and column security policies (sandboxes)', () => {
  let t: TestApp;
  let admin: string;
  let dbId: number;
  let tables: Table[];
  const http = () => t.http();
  const graph = async () => (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
  const policies = async () => (await http().get('/api/mt/gtap').set(auth(admin)).expect(200)).body as Array<Record<string, unknown>>;
  const table = (name: string) => tables.find((x) => x.name === name)!;
  const schemaOf = (name: string) => table(name).schema ?? '';
  const newGroup = async () =>
    (
      await http()
        .post('/api/permissions/group')
        .set(auth(admin))
        .send({ name: `G ${randomBytes(3).toString('hex')}` })
        .expect(200)
    ).body.id as number;
  /** View data per table: ORDERS as given, every other table unrestricted. */
  const entry = (orders: string, createQueries = 'query-builder-and-native') => ({
    'view-data': {
      [schemaOf('ORDERS')]: Object.fromEntries(tables.map((x) => [x.id, x.name === 'ORDERS' ? orders : 'unrestricted'])),
    },
    'create-queries': createQueries,
    download: { schemas: 'full' },
  });
  const userIdPolicy = (group: number) => ({
    group_id: group,
    table_id: table('ORDERS').id,
    card_id: null,
    attribute_remappings: { uid: ['dimension', ['field', table('ORDERS').fields.find((f) => f.name === 'USER_ID')!.id, null]] },
  });

  beforeAll(async () => {
    t = await startTestApp({ LOAD_SAMPLE_DATABASE: 'true' });
    admin = await setupAdmin(t);
    dbId = await waitForDatabase(t, admin, 'Sample Database');
    await waitForSync(t, admin, dbId);
    tables = (await http().get(`/api/database/${dbId}/metadata`).set(auth(admin)).expect(200)).body.tables;
  });
  afterAll(() => t?.close());

  it('stores a sandboxed table and its policy together, answering the policy as stored, and takes native SQL away', async () => {
    const group = await newGroup();
    const { revision } = await graph();
    const res = await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({ revision, groups: { [group]: { [dbId]: entry('sandboxed') } }, sandboxes: [userIdPolicy(group)] })
      .expect(200);
    expect(res.body.sandboxes).toEqual([{ id: expect.any(Number), ...userIdPolicy(group) }]);
    expect((await policies()).filter((p) => p.group_id === group)).toEqual(res.body.sandboxes);
    const stored = (await graph()).groups[group][dbId];
    expect(stored['view-data'][schemaOf('ORDERS')][table('ORDERS').id]).toBe('sandboxed');
    expect(stored['create-queries']).not.toBe('query-builder-and-native');
  });

  it('refuses a sandboxed table without a policy, or an invalid policy, storing nothing', async () => {
    const group = await newGroup();
    const before = await graph();
    const bare = await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({ revision: before.revision, groups: { [group]: { [dbId]: entry('sandboxed') } } })
      .expect(400);
    expect(JSON.stringify(bare.body)).toMatch(/`sandboxed` needs a policy in `sandboxes`/);
    const wrong = { ...userIdPolicy(group), attribute_remappings: { uid: 'NO_SUCH_COLUMN' } };
    const invalid = await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({ revision: before.revision, groups: { [group]: { [dbId]: entry('sandboxed') } }, sandboxes: [wrong] })
      .expect(400);
    expect(invalid.body.message).toMatch(/not a column of table/);
    const shape = await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({ revision: before.revision, groups: {}, sandboxes: [{ group_id: group }] })
      .expect(400);
    expect(JSON.stringify(shape.body)).toMatch(/sandboxes/);
    const after = await graph();
    expect(after.revision).toBe(before.revision);
    expect(after.groups[group]).toEqual(before.groups[group]);
    expect((await policies()).filter((p) => p.group_id === group)).toEqual([]);
  });

  it('refuses a stale revision without storing the policy', async () => {
    const group = await newGroup();
    const { revision } = await graph();
    await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({ revision: revision - 1, groups: { [group]: { [dbId]: entry('sandboxed') } }, sandboxes: [userIdPolicy(group)] })
      .expect(409);
    expect((await policies()).filter((p) => p.group_id === group)).toEqual([]);
  });

  it('changes a policy sent alone, and removes it when its table is given another view-data', async () => {
    const group = await newGroup();
    let { revision } = await graph();
    await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({ revision, groups: { [group]: { [dbId]: entry('sandboxed') } }, sandboxes: [userIdPolicy(group)] })
      .expect(200);
    ({ revision } = await graph());
    const byRegion = { ...userIdPolicy(group), attribute_remappings: { uid: 'USER_ID', region: 'PRODUCT_ID' } };
    await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({ revision, groups: {}, sandboxes: [byRegion] })
      .expect(200);
    expect((await policies()).filter((p) => p.group_id === group)).toEqual([{ id: expect.any(Number), ...byRegion }]);
    // Sent back as read, the graph keeps the policy.
    const read = await graph();
    await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({ revision: read.revision, groups: { [group]: read.groups[group] } })
      .expect(200);
    expect(await policies()).toContainEqual(expect.objectContaining({ group_id: group }));
    ({ revision } = await graph());
    await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({ revision, groups: { [group]: { [dbId]: entry('blocked', 'query-builder') } } })
      .expect(200);
    expect((await policies()).filter((p) => p.group_id === group)).toEqual([]);
  });
});
