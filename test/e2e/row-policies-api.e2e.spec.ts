import { randomBytes } from 'node:crypto';
import { auth, makeUserDirect, MadeUser, setupAdmin } from '../support/factories';
import { waitForDatabase, waitForSync } from '../support/sync-wait';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

const FORBIDDEN = "You don't have permissions to do that.";

describe('/api/mt/gtap: row security policies', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  let dbId: number;
  let orders: number;
  let people: number;
  let ordersUserId: number;
  let group: number;
  const http = () => t.http();
  const graph = async () => (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;

  beforeAll(async () => {
    t = await startTestApp({ LOAD_SAMPLE_DATABASE: 'true' });
    admin = await setupAdmin(t);
    dbId = await waitForDatabase(t, admin, 'Sample Database');
    await waitForSync(t, admin, dbId);
    const meta = (await http().get(`/api/database/${dbId}/metadata`).set(auth(admin)).expect(200)).body;
    const table = (name: string) => meta.tables.find((x: { name: string }) => x.name === name);
    orders = table('ORDERS').id;
    people = table('PEOPLE').id;
    ordersUserId = table('ORDERS').fields.find((f: { name: string }) => f.name === 'USER_ID').id;
    group = (
      await http()
        .post('/api/permissions/group')
        .set(auth(admin))
        .send({ name: `Sales ${randomBytes(3).toString('hex')}` })
        .expect(200)
    ).body.id;
    user = await makeUserDirect(t, { group_ids: [group] });
    const g = await graph();
    g.groups[group] = { [dbId]: { data: 'unrestricted', native: 'write', download: { schemas: 'full' } } };
    await http().put('/api/permissions/graph').set(auth(admin)).send(g).expect(200);
  });
  afterAll(() => t?.close());

  it('is for admins only', async () => {
    // A real policy, so refusals of reading, changing and deleting it are not 404s in disguise.
    const made = (
      await http()
        .post('/api/mt/gtap')
        .set(auth(admin))
        .send({ group_id: group, table_id: orders, attribute_remappings: { uid: 'USER_ID' } })
        .expect(200)
    ).body.id as number;
    for (const res of [
      await http().get('/api/mt/gtap').set(auth(user.session)),
      await http().get(`/api/mt/gtap/${made}`).set(auth(user.session)),
      await http().post('/api/mt/gtap').set(auth(user.session)).send({ group_id: group, table_id: orders }),
      await http().put(`/api/mt/gtap/${made}`).set(auth(user.session)).send({ attribute_remappings: {} }),
      await http().delete(`/api/mt/gtap/${made}`).set(auth(user.session)),
      await http().post('/api/mt/gtap/validate').set(auth(user.session)).send({ group_id: group, table_id: orders }),
    ])
      expect([res.status, res.text]).toEqual([403, FORBIDDEN]);
    await http().get('/api/mt/gtap').expect(401);
    // Untouched by the refused calls.
    expect((await http().get(`/api/mt/gtap/${made}`).set(auth(admin)).expect(200)).body.attribute_remappings).toEqual({ uid: 'USER_ID' });
    await http().delete(`/api/mt/gtap/${made}`).set(auth(admin)).expect(204);
  });

  it("creates, reads, lists, updates and deletes a policy, turning the group's native SQL off", async () => {
    const created = await http()
      .post('/api/mt/gtap')
      .set(auth(admin))
      .send({ group_id: group, table_id: orders, card_id: null, attribute_remappings: { uid: 'USER_ID' } })
      .expect(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      group_id: group,
      table_id: orders,
      card_id: null,
      attribute_remappings: { uid: 'USER_ID' },
    });
    const id = created.body.id;
    const entry = (await graph()).groups[group][dbId];
    expect(entry).toMatchObject({ data: 'unrestricted', native: 'none' });
    // The graph shows the table with a policy as sandboxed, the database's other tables as they were (Metabase's shape).
    const schemaOf = (e: { 'view-data': Record<string, Record<string, string>> }) => Object.values(e['view-data'])[0];
    expect(schemaOf(entry)[String(orders)]).toBe('sandboxed');
    expect(schemaOf(entry)[String(people)]).toBe('unrestricted');
    // Sent back as read, it changes nothing: a sandboxed table is stored as unrestricted.
    const read = await graph();
    await http().put('/api/permissions/graph').set(auth(admin)).send(read).expect(200);
    expect(schemaOf((await graph()).groups[group][dbId])[String(orders)]).toBe('sandboxed');

    expect((await http().get(`/api/mt/gtap/${id}`).set(auth(admin)).expect(200)).body).toEqual(created.body);
    expect((await http().get('/api/mt/gtap').set(auth(admin)).expect(200)).body).toEqual([created.body]);
    const one = await http().get('/api/mt/gtap').query({ group_id: group, table_id: orders }).set(auth(admin)).expect(200);
    expect(one.body).toEqual(created.body);
    // No policy for the pair: nothing (Metabase answers nil).
    const none = await http().get('/api/mt/gtap').query({ group_id: group, table_id: people }).set(auth(admin)).expect(200);
    expect(none.text).toBe('');

    const dup = await http().post('/api/mt/gtap').set(auth(admin)).send({ group_id: group, table_id: orders }).expect(400);
    expect(dup.body.message).toMatch(/already has a policy/);

    const updated = await http()
      .put(`/api/mt/gtap/${id}`)
      .set(auth(admin))
      .send({ attribute_remappings: { uid: ['dimension', ['field', ordersUserId, null]] } })
      .expect(200);
    expect(updated.body.attribute_remappings).toEqual({ uid: ['dimension', ['field', ordersUserId, null]] });
    expect((await http().get(`/api/mt/gtap/${id}`).set(auth(admin)).expect(200)).body).toEqual(updated.body);
    const moved = await http().put(`/api/mt/gtap/${id}`).set(auth(admin)).send({ table_id: people }).expect(400);
    expect(moved.body.message).toMatch(/cannot be changed/);

    await http().delete(`/api/mt/gtap/${id}`).set(auth(admin)).expect(204);
    await http().get(`/api/mt/gtap/${id}`).set(auth(admin)).expect(404);
    expect((await graph()).groups[group][dbId]['view-data']).toBe('unrestricted');
    await http().delete(`/api/mt/gtap/${id}`).set(auth(admin)).expect(404);
  });

  it('validates: the group, table and columns must exist', async () => {
    await http()
      .post('/api/mt/gtap/validate')
      .set(auth(admin))
      .send({ group_id: group, table_id: orders, attribute_remappings: { uid: 'USER_ID' } })
      .expect(204);
    const bad = await http()
      .post('/api/mt/gtap/validate')
      .set(auth(admin))
      .send({ group_id: group, table_id: orders, attribute_remappings: { uid: 'NOPE' } })
      .expect(400);
    expect(bad.body.message).toMatch(/`uid` is mapped to "NOPE", not a column/);
    await http().post('/api/mt/gtap').set(auth(admin)).send({ group_id: group, table_id: 999999 }).expect(404);
    await http().post('/api/mt/gtap').set(auth(admin)).send({ group_id: 999999, table_id: orders }).expect(404);
    const shape = await http().post('/api/mt/gtap').set(auth(admin)).send({ group_id: 'x', table_id: orders }).expect(400);
    expect(Object.keys(shape.body.errors)).toEqual(['group_id']);
  });

  it("refuses a question whose columns are typed unlike the table's", async () => {
    const card = await http()
      .post('/api/card')
      .set(auth(admin))
      .send({
        name: 'Orders as text',
        display: 'table',
        visualization_settings: {},
        dataset_query: { database: dbId, type: 'native', native: { query: 'SELECT CAST(ID AS TEXT) AS ID FROM ORDERS' } },
        result_metadata: [{ name: 'ID', display_name: 'ID', base_type: 'type/Text' }],
      })
      .expect(200);
    const res = await http()
      .post('/api/mt/gtap')
      .set(auth(admin))
      .send({ group_id: group, table_id: orders, card_id: card.body.id })
      .expect(400);
    expect(res.body.message).toBe("Sandbox Questions can't return columns that have different types than the Table they are sandboxing.");
    const sqlCard = await http()
      .post('/api/card')
      .set(auth(admin))
      .send({
        name: 'Orders by SQL',
        display: 'table',
        visualization_settings: {},
        dataset_query: { database: dbId, type: 'native', native: { query: 'SELECT ID FROM ORDERS' } },
      })
      .expect(200);
    // A SQL question's attributes fill in its template tags, not the table's columns (row-policies-sql.e2e).
    const native = await http()
      .post('/api/mt/gtap')
      .set(auth(admin))
      .send({ group_id: group, table_id: orders, card_id: sqlCard.body.id, attribute_remappings: { uid: 'USER_ID' } });
    expect([native.status, native.body.message]).toEqual([
      400,
      expect.stringMatching(/is mapped to "USER_ID", not a variable of question/),
    ]);
  });
});
