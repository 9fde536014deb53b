import { grant, makeCard, makeCollection, makeGroup, tableQuery } from '../support/card-factories';
import { auth, makeUserDirect, setupAdmin, type MadeUser } from '../support/factories';
import { expect400, expect403, expect404, expectMessage } from '../support/expect-wire';
import { startTestApp, type TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';
import { actionWarehouse, queryActionBody, type ActionWarehouse } from './actions-helpers';

jest.setTimeout(120_000);

type Json = Record<string, unknown>;

/**
 * /api/action over HTTP: CRUD with its validation messages and collection permissions, and execution of query and
 * implicit actions writing to a real table (SQLite always, Postgres and MariaDB when reachable), each write all-or-nothing.
 */
describe.each(availableEngines(['sqlite', 'postgres', 'mysql']).map((e) => [e]))('actions on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let w: ActionWarehouse;
  let shared: number;
  let reader: MadeUser;
  let writer: MadeUser;
  let outsider: MadeUser;

  const http = () => t.http();
  const create = async (body: Json, key = admin): Promise<Json> => {
    const res = await http().post('/api/action').set(auth(key)).send(body);
    if (res.status !== 200) throw new Error(`action create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const implicit = (kind: string, extra: Json = {}) =>
    create({ name: `Implicit ${kind}`, type: 'implicit', kind, model_id: w.model, ...extra });
  const execute = (id: unknown, parameters: Json, key = admin) =>
    http().post(`/api/action/${id}/execute`).set(auth(key)).send({ parameters });
  const items = () => w.rows('SELECT id, name, qty FROM items ORDER BY id');

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    shared = await makeCollection(t, 'Shared');
    w = await actionWarehouse(t, admin, engine as 'sqlite' | 'postgres' | 'mysql', shared);
    [reader, writer, outsider] = [await makeUserDirect(t), await makeUserDirect(t), await makeUserDirect(t)];
    await grant(t, await makeGroup(t, admin, reader.id), shared, 'read');
    await grant(t, await makeGroup(t, admin, writer.id), shared, 'write');
  });
  afterAll(async () => {
    await t?.close();
    await w?.wh.drop();
  });

  it('creates a query action and answers it as Metabase does; GET, list by model, PUT and DELETE', async () => {
    const body = queryActionBody(
      w.model,
      w.db,
      'UPDATE items SET qty = {{qty}} WHERE id = {{id}}',
      { id: 'number', qty: 'number' },
      { description: 'Set stock' },
    );
    const made = await create(body);
    expect(made).toMatchObject({
      name: body.name,
      description: 'Set stock',
      type: 'query',
      model_id: w.model,
      database_id: w.db,
      dataset_query: body.dataset_query,
      parameters: body.parameters,
      parameter_mappings: [],
      visualization_settings: {},
      public_uuid: null,
      made_public_by_id: null,
      archived: false,
      database_enabled_actions: true,
    });
    expect(made.entity_id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(new Date(made.created_at as string).getTime()).not.toBeNaN();
    expect((await http().get(`/api/action/${made.id}`).set(auth(admin)).expect(200)).body).toEqual(made);

    const other = await implicit('row/delete');
    const listed = (await http().get(`/api/action?model-id=${w.model}`).set(auth(admin)).expect(200)).body as Json[];
    expect(listed.map((a) => a.id)).toEqual(expect.arrayContaining([made.id, other.id]));
    expect(((await http().get('/api/action').set(auth(admin)).expect(200)).body as Json[]).map((a) => a.id)).toEqual(
      expect.arrayContaining([made.id, other.id]),
    );

    const put = await http()
      .put(`/api/action/${made.id}`)
      .set(auth(admin))
      .send({ name: 'Restock', description: null, visualization_settings: { type: 'button' } })
      .expect(200);
    expect(put.body).toMatchObject({
      id: made.id,
      name: 'Restock',
      description: null,
      visualization_settings: { type: 'button' },
      dataset_query: body.dataset_query,
    });
    // Archived: out of the listing and GET, back by PUT.
    await http().put(`/api/action/${made.id}`).set(auth(admin)).send({ archived: true }).expect(200);
    expect(
      ((await http().get(`/api/action?model-id=${w.model}`).set(auth(admin)).expect(200)).body as Json[]).map((a) => a.id),
    ).not.toContain(made.id);
    expect404(await http().get(`/api/action/${made.id}`).set(auth(admin)));
    await http().put(`/api/action/${made.id}`).set(auth(admin)).send({ archived: false }).expect(200);

    await http().delete(`/api/action/${made.id}`).set(auth(admin)).expect(204);
    expect404(await http().get(`/api/action/${made.id}`).set(auth(admin)));
    expect404(await http().delete(`/api/action/${made.id}`).set(auth(admin)));
  });

  it('answers every validation message of the action endpoints', async () => {
    const ok = queryActionBody(w.model, w.db, 'DELETE FROM items WHERE id = {{id}}', { id: 'number' });
    const post = (body: Json) => http().post('/api/action').set(auth(admin)).send(body);
    expect400(await post({ ...ok, name: undefined }), 'name', 'value must be a non-blank string.');
    expect400(await post({ ...ok, name: '  ' }), 'name', 'value must be a non-blank string.');
    expect400(await post({ ...ok, model_id: 0 }), 'model_id', 'value must be an integer greater than zero.');
    expect400(await post({ ...ok, type: 'magic' }), 'type', 'value must be one of: `query`, `implicit`, `http`.');
    expect400(
      await post({ ...ok, type: 'implicit', kind: 'row/upsert' }),
      'kind',
      'value must be one of: `row/create`, `row/update`, `row/delete`.',
    );
    expect400(
      await post({ ...ok, type: 'implicit', kind: undefined }),
      'kind',
      'value must be one of: `row/create`, `row/update`, `row/delete`.',
    );
    expect400(await post({ ...ok, parameters: 'x' }), 'parameters', 'value must be an array.');
    expect400(await post({ ...ok, dataset_query: 'SELECT 1' }), 'dataset_query', 'value must be a map.');
    expect400(await post({ ...ok, visualization_settings: [] }), 'visualization_settings', 'value must be a map.');
    expect400(
      await post({ ...ok, dataset_query: tableQuery(w.db, w.table) }),
      'dataset_query',
      'value must be a native query: a map with `type` "native" and `native.query`.',
    );
    expect400(await post({ ...ok, database_id: 999_999 }), 'database_id', 'value must be the id of an existing database.');
    expect404(await post({ ...ok, model_id: 999_999 }));
    // A saved question is no model; a native model takes no implicit actions.
    const question = await makeCard(t, admin, tableQuery(w.db, w.table), { collection_id: shared });
    expectMessage(await post({ ...ok, model_id: question.id }), 'Actions must be made with models, not cards.');
    expectMessage(
      await post({ name: 'x', type: 'implicit', kind: 'row/create', model_id: w.nativeModel }),
      'Implicit actions are not supported for models with custom queries.',
    );
    expect400(await http().put('/api/action/1').set(auth(admin)).send({ archived: 'yes' }), 'archived', 'value must be a boolean.');
    expect400(await http().get('/api/action/0').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
    expect400(await http().get('/api/action?model-id=x').set(auth(admin)), 'model-id', 'value must be an integer greater than zero.');
    const made = await create(ok);
    expect400(
      await http()
        .post(`/api/action/${made.id}/execute`)
        .set(auth(admin))
        .send({ parameters: [1] }),
      'parameters',
      'value must be a map.',
    );
    expectMessage(await execute(made.id, { nope: 1 }), 'No destination parameter found for #{"nope"}. Found: #{"p-id"}');
    expectMessage(await execute(made.id, {}), "You'll need to pick a value for 'ID' before this query can run.");
  });

  it('runs a query action: its tags bound as parameters, never as SQL text', async () => {
    const insert = await create(
      queryActionBody(w.model, w.db, 'INSERT INTO items (id, name, qty) VALUES ({{id}}, {{name}}, {{qty}})', {
        id: 'number',
        name: 'text',
        qty: 'number',
      }),
    );
    const sly = "x'); DELETE FROM items; --";
    expect((await execute(insert.id, { 'p-id': 10, 'p-name': sly, 'p-qty': '7' }).expect(200)).body).toEqual({ 'rows-affected': 1 });
    expect(await w.rows('SELECT id, name, qty FROM items WHERE id = 10')).toEqual([[10, sly, 7]]);
    // An optional clause goes when its tag has no value.
    const bump = await create(
      queryActionBody(w.model, w.db, 'UPDATE items SET qty = qty + 1 WHERE id >= 1 [[AND id = {{id}}]]', { id: 'number' }),
    );
    expect((await execute(bump.id, { 'p-id': 10 }).expect(200)).body).toEqual({ 'rows-affected': 1 });
    expect((await w.rows('SELECT qty FROM items WHERE id = 10'))[0]).toEqual([8]);
    await http().delete(`/api/action/${insert.id}`).set(auth(admin)).expect(204);
    await http().delete(`/api/action/${bump.id}`).set(auth(admin)).expect(204);
  });

  it('changes nothing when a write fails: a two-row write whose second row breaks a constraint answers the database message', async () => {
    const before = await items();
    const two = await create(
      queryActionBody(w.model, w.db, "INSERT INTO items (id, name, qty) VALUES ({{a}}, 'ok', 1), ({{b}}, 'bad', -1)", {
        a: 'number',
        b: 'number',
      }),
    );
    const res = await execute(two.id, { 'p-a': 20, 'p-b': 21 });
    expect(res.status).toBe(400);
    // `{message}` and nothing else: the database's refusal reaches the wire through the one error filter.
    expect(Object.keys(res.body)).toEqual(['message']);
    expect(res.body.message).toMatch(
      { sqlite: /CHECK constraint failed/, postgres: /violates check constraint/, mysql: /CONSTRAINT .*qty.* failed/ }[engine as string]!,
    );
    expect(await items()).toEqual(before);
    // Two statements' worth through two rows of an UPDATE: the second row's violation undoes the first.
    const drain = await create(queryActionBody(w.model, w.db, 'UPDATE items SET qty = qty - {{n}} WHERE id IN (1, 2)', { n: 'number' }));
    expect((await execute(drain.id, { 'p-n': 4 })).status).toBe(400);
    expect(await items()).toEqual(before);
    // A duplicate primary key through an implicit create: refused, nothing written.
    const creator = await implicit('row/create');
    const dup = await execute(creator.id, { id: 1, name: 'again', qty: 1 });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toMatch(
      { sqlite: /UNIQUE constraint failed/, postgres: /duplicate key value/, mysql: /Duplicate entry/ }[engine as string]!,
    );
    expect(await items()).toEqual(before);
  });

  it('runs implicit actions on the model table by primary key', async () => {
    const creator = await implicit('row/create');
    expect(creator.parameters).toEqual([
      expect.objectContaining({ id: 'id', target: ['variable', ['template-tag', 'id']], type: 'type/Integer' }),
      expect.objectContaining({ id: 'name', target: ['variable', ['template-tag', 'name']], type: 'type/Text' }),
      expect.objectContaining({ id: 'qty', target: ['variable', ['template-tag', 'qty']], type: 'type/Integer' }),
    ]);
    const created = await execute(creator.id, { id: '30', name: 'plum', qty: 4 }).expect(200);
    expect(created.body).toEqual({ 'created-row': { id: 30, name: 'plum', qty: 4 } });

    const updater = await implicit('row/update');
    expect((await execute(updater.id, { id: 30, qty: 9 }).expect(200)).body).toEqual({ 'rows-updated': [1] });
    expect(await w.rows('SELECT name, qty FROM items WHERE id = 30')).toEqual([['plum', 9]]);
    expectMessage(await execute(updater.id, { qty: 9 }), 'Missing primary key parameter: "id"');
    const gone = await execute(updater.id, { id: 404, qty: 1 });
    expect([gone.status, gone.body]).toEqual([404, { message: "Sorry, the row you're trying to update doesn't exist" }]);

    const deleter = await implicit('row/delete');
    expect((deleter.parameters as Json[]).map((p) => p.id)).toEqual(['id']);
    expectMessage(await execute(deleter.id, { id: 30, name: 'plum' }), 'No destination parameter found for #{"name"}. Found: #{"id"}');
    expect((await execute(deleter.id, { id: 30 }).expect(200)).body).toEqual({ 'rows-deleted': [1] });
    expect(await w.rows('SELECT id FROM items WHERE id = 30')).toEqual([]);
  });

  it('refuses actions on a database without actions enabled', async () => {
    const action = await create(queryActionBody(w.model, w.db, 'DELETE FROM items WHERE id = {{id}}', { id: 'number' }));
    await w.enableActions(false);
    try {
      expectMessage(await execute(action.id, { 'p-id': 999 }), 'Actions are not enabled.');
      expectMessage(
        await http()
          .post('/api/action')
          .set(auth(admin))
          .send(queryActionBody(w.model, w.db, 'DELETE FROM items', {})),
        'Actions are not enabled.',
      );
      expectMessage(
        await http().post('/api/action').set(auth(admin)).send({ name: 'x', type: 'implicit', kind: 'row/delete', model_id: w.model }),
        'Actions are not enabled.',
      );
      expect((await http().get(`/api/action/${action.id}`).set(auth(admin)).expect(200)).body.database_enabled_actions).toBe(false);
    } finally {
      await w.enableActions(true);
    }
  });

  it("follows the model's collection for reading and writing, and data access for running", async () => {
    const action = await create(queryActionBody(w.model, w.db, 'UPDATE items SET qty = qty WHERE id = {{id}}', { id: 'number' }));
    const body = queryActionBody(w.model, w.db, 'DELETE FROM items WHERE id = {{id}}', { id: 'number' });
    // Reader: reads and runs, writes nothing.
    expect((await http().get(`/api/action/${action.id}`).set(auth(reader.session)).expect(200)).body.id).toBe(action.id);
    expect(
      ((await http().get(`/api/action?model-id=${w.model}`).set(auth(reader.session)).expect(200)).body as Json[]).map((a) => a.id),
    ).toContain(action.id);
    expect((await execute(action.id, { 'p-id': 1 }, reader.session).expect(200)).body).toEqual({ 'rows-affected': 1 });
    expect403(await http().post('/api/action').set(auth(reader.session)).send(body));
    expect403(await http().put(`/api/action/${action.id}`).set(auth(reader.session)).send({ name: 'no' }));
    expect403(await http().delete(`/api/action/${action.id}`).set(auth(reader.session)));
    // Writer: writes.
    const mine = await create(body, writer.session);
    await http().put(`/api/action/${mine.id}`).set(auth(writer.session)).send({ name: 'Mine' }).expect(200);
    await http().delete(`/api/action/${mine.id}`).set(auth(writer.session)).expect(204);
    // Outsider: nothing, and the listing leaves the action out.
    expect403(await http().get(`/api/action/${action.id}`).set(auth(outsider.session)));
    expect403(await http().get(`/api/action?model-id=${w.model}`).set(auth(outsider.session)));
    expect(((await http().get('/api/action').set(auth(outsider.session)).expect(200)).body as Json[]).map((a) => a.id)).not.toContain(
      action.id,
    );
    expect403(await execute(action.id, { 'p-id': 1 }, outsider.session));
    // Writing SQL needs native query permission on the database; an implicit action, data access.
    const setAccess = async (data: string, native: string) => {
      const graph = (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
      await http()
        .put('/api/permissions/graph')
        .set(auth(admin))
        .send({ revision: graph.revision, groups: { 1: { [w.db]: { data, native } } } })
        .expect(200);
    };
    await setAccess('unrestricted', 'none');
    expect403(await http().post('/api/action').set(auth(writer.session)).send(body));
    expect403(await http().put(`/api/action/${action.id}`).set(auth(writer.session)).send({ dataset_query: body.dataset_query }));
    const rowDelete = await create({ name: 'Delete row', type: 'implicit', kind: 'row/delete', model_id: w.model }, writer.session);
    // Without data access to the database, running is refused even to a reader of the model, and so is authoring.
    await setAccess('no', 'none');
    expect403(
      await http()
        .post('/api/action')
        .set(auth(writer.session))
        .send({ name: 'Delete row', type: 'implicit', kind: 'row/delete', model_id: w.model }),
    );
    expect403(await execute(rowDelete.id, { id: 1 }, writer.session));
    expect403(await execute(action.id, { 'p-id': 1 }, reader.session));
    // Not signed in: 401.
    expect((await http().get(`/api/action/${action.id}`)).status).toBe(401);
  });

  it('makes and removes public links: superusers only, with public sharing on', async () => {
    const action = await create(queryActionBody(w.model, w.db, 'DELETE FROM items WHERE id = {{id}}', { id: 'number' }));
    expectMessage(await http().post(`/api/action/${action.id}/public_link`).set(auth(admin)), 'Public sharing is not enabled.');
    await http().put('/api/setting/enable-public-sharing').set(auth(admin)).send({ value: true }).expect(204);
    expect403(await http().post(`/api/action/${action.id}/public_link`).set(auth(writer.session)));
    const link = (await http().post(`/api/action/${action.id}/public_link`).set(auth(admin)).expect(200)).body;
    expect(link.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await http().post(`/api/action/${action.id}/public_link`).set(auth(admin)).expect(200)).body).toEqual(link);
    expect((await http().get(`/api/action/${action.id}`).set(auth(admin)).expect(200)).body).toMatchObject({
      public_uuid: link.uuid,
      made_public_by_id: expect.any(Number),
    });
    expect403(await http().delete(`/api/action/${action.id}/public_link`).set(auth(writer.session)));
    await http().delete(`/api/action/${action.id}/public_link`).set(auth(admin)).expect(204);
    expect((await http().get(`/api/action/${action.id}`).set(auth(admin)).expect(200)).body.public_uuid).toBeNull();
    expect404(await http().delete(`/api/action/${action.id}/public_link`).set(auth(admin)));
    expect404(await http().post('/api/action/999999/public_link').set(auth(admin)));
  });
});
