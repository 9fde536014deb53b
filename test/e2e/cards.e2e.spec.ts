import { DataSource } from 'typeorm';
import { makeCard, makeCollection, makeModel, nativeQuery, tableQuery } from '../support/card-factories';
import { auth } from '../support/factories';
import { expect400, expect404 } from '../support/expect-wire';
import { toMbql5 } from '../support/mbql5';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

/** Creating, reading, changing, archiving and deleting cards; dataset_query answered back as it was sent. */
describe('cards: create, read, update, delete', () => {
  let s: SampleApp;
  let orders: number;
  const http = () => s.t.http();

  beforeAll(async () => {
    s = await startSampleApp();
    orders = s.table('ORDERS').id;
  });
  afterAll(() => s.t.close());

  it('creates a question with its query as sent, derived ids, computed result_metadata and the full card shape', async () => {
    const q = tableQuery(s.db, orders, { aggregation: [['count']] });
    const res = await http()
      .post('/api/card')
      .set(auth(s.admin))
      .send({ name: 'Order count', display: 'scalar', visualization_settings: { a: 1 }, dataset_query: q, description: 'How many' })
      .expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toMatchObject({
      name: 'Order count',
      display: 'scalar',
      description: 'How many',
      type: 'question',
      dataset: false,
      archived: false,
      dataset_query: q,
      visualization_settings: { a: 1 },
      parameters: [],
      parameter_mappings: [],
      database_id: s.db,
      table_id: orders,
      query_type: 'query',
      collection_id: null,
      collection: null,
      can_write: true,
      creator: { email: 'admin@example.com', first_name: 'Ada', last_name: 'Admin', common_name: 'Ada Admin' },
      'last-edit-info': { email: 'admin@example.com', first_name: 'Ada', last_name: 'Admin' },
      average_query_time: null,
      last_query_start: null,
      public_uuid: null,
      enable_embedding: false,
      embedding_params: null,
    });
    expect(res.body.entity_id).toMatch(/^[\w-]{21}$/);
    expect(res.body.result_metadata).toEqual([expect.objectContaining({ name: 'count', base_type: 'type/BigInteger' })]);
    expect(typeof res.body.created_at).toBe('string');
  });

  it('stores an MBQL 5 query as sent and answers it back the same way', async () => {
    const legacy = tableQuery(s.db, orders, { aggregation: [['count']] });
    const mbql5 = toMbql5(legacy);
    const card = await makeCard(s.t, s.admin, mbql5);
    expect(card).toMatchObject({ dataset_query: mbql5, database_id: s.db, table_id: orders, query_type: 'query' });
    const read = await http().get(`/api/card/${card.id}`).set(auth(s.admin)).expect(200);
    expect(read.body.dataset_query).toEqual(mbql5);
    const ran = await http().post(`/api/card/${card.id}/query`).set(auth(s.admin)).send({}).expect(202);
    const plain = await http().post('/api/dataset').set(auth(s.admin)).send(legacy).expect(202);
    expect(ran.body.data.rows).toEqual(plain.body.data.rows);
    expect(ran.body.context).toBe('question');
  });

  it('takes `type` and the older `dataset` flag for models, and answers both', async () => {
    const viaType = await makeModel(s.t, s.admin, tableQuery(s.db, orders));
    expect(viaType).toMatchObject({ type: 'model', dataset: true });
    const viaFlag = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { dataset: true });
    expect(viaFlag).toMatchObject({ type: 'model', dataset: true });
    const back = await http().put(`/api/card/${viaFlag.id}`).set(auth(s.admin)).send({ dataset: false }).expect(200);
    expect(back.body).toMatchObject({ type: 'question', dataset: false });
    const metric = await http().put(`/api/card/${viaFlag.id}`).set(auth(s.admin)).send({ type: 'metric' }).expect(200);
    expect(metric.body).toMatchObject({ type: 'metric', dataset: false });
  });

  it('saves a failing query without result_metadata, and keeps result_metadata sent by the client', async () => {
    const broken = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT * FROM NO_SUCH_TABLE'));
    expect(broken.result_metadata).toBeNull();
    expect(broken.query_type).toBe('native');
    const sent = [{ name: 'X', display_name: 'X', base_type: 'type/Integer' }];
    const kept = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT 1 AS X'), { result_metadata: sent });
    expect(kept.result_metadata).toEqual(sent);
  });

  it('refuses a create naming every missing required key in one 400', async () => {
    const res = await http().post('/api/card').set(auth(s.admin)).send({}).expect(400);
    expect(res.body.errors).toEqual({
      name: 'value must be a non-blank string.',
      display: 'value must be a non-blank string.',
      visualization_settings: 'value must be a map.',
      dataset_query: 'value must be a map.',
    });
    const base = { name: 'x', display: 'table', visualization_settings: {}, dataset_query: tableQuery(s.db, orders) };
    expect400(
      await http()
        .post('/api/card')
        .set(auth(s.admin))
        .send({ ...base, name: '  ' }),
      'name',
      'value must be a non-blank string.',
    );
    expect400(
      await http()
        .post('/api/card')
        .set(auth(s.admin))
        .send({ ...base, description: '' }),
      'description',
      'value must be a non-blank string.',
    );
    expect400(
      await http()
        .post('/api/card')
        .set(auth(s.admin))
        .send({ ...base, type: 'chart' }),
      'type',
      'value must be one of: `question`, `model`, `metric`.',
    );
    expect400(
      await http()
        .post('/api/card')
        .set(auth(s.admin))
        .send({ ...base, dataset: 'yes' }),
      'dataset',
      'value must be a boolean.',
    );
    expect400(
      await http()
        .post('/api/card')
        .set(auth(s.admin))
        .send({ ...base, parameters: [{ id: 'a' }] }),
      'parameters',
      'value must be a map with the keys `id` and `type`.',
    );
    expect400(
      await http()
        .post('/api/card')
        .set(auth(s.admin))
        .send({ ...base, parameters: 'x' }),
      'parameters',
      'value must be an array.',
    );
    expect400(
      await http()
        .post('/api/card')
        .set(auth(s.admin))
        .send({ ...base, parameter_mappings: [{ parameter_id: 'a' }] }),
      'parameter_mappings',
      'value must be an array of maps with the keys `parameter_id` and `target`.',
    );
    for (const key of ['collection_id', 'collection_position', 'cache_ttl']) {
      expect400(
        await http()
          .post('/api/card')
          .set(auth(s.admin))
          .send({ ...base, [key]: 0 }),
        key,
        'value must be an integer greater than zero.',
      );
    }
    expect400(
      await http()
        .post('/api/card')
        .set(auth(s.admin))
        .send({ ...base, dataset_query: { type: 'query', query: {} } }),
      'dataset_query',
      'value must be a map with the key `database`, an integer greater than zero.',
    );
  });

  it('answers 404 for a missing card and 400 for an id that is not int+, on every :id route', async () => {
    expect404(await http().get('/api/card/999999').set(auth(s.admin)));
    expect404(await http().put('/api/card/999999').set(auth(s.admin)).send({ name: 'x' }));
    expect404(await http().delete('/api/card/999999').set(auth(s.admin)));
    expect404(await http().post('/api/card/999999/copy').set(auth(s.admin)));
    expect404(await http().post('/api/card/999999/query').set(auth(s.admin)).send({}));
    for (const [method, path] of [
      ['get', '/api/card/abc'],
      ['put', '/api/card/0'],
      ['delete', '/api/card/-1'],
      ['post', '/api/card/x/copy'],
    ] as const) {
      expect400(await http()[method](path).set(auth(s.admin)).send({}), 'id', 'value must be an integer greater than zero.');
    }
    expect400(
      await http().post('/api/card/abc/query').set(auth(s.admin)).send({}),
      'card-id',
      'value must be an integer greater than zero.',
    );
    expect400(
      await http().post('/api/card/pivot/abc/query').set(auth(s.admin)).send({}),
      'card-id',
      'value must be an integer greater than zero.',
    );
    expect400(await http().get('/api/card/1?ignore_view=yes').set(auth(s.admin)), 'ignore_view', 'value must be a valid boolean string.');
    expect400(await http().get('/api/card/1?context=dashboard').set(auth(s.admin)), 'context', 'value must be one of: `collection`.');
  });

  it('counts views unless ignore_view, and updates every field', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    await http().get(`/api/card/${card.id}`).set(auth(s.admin)).expect(200);
    await http().get(`/api/card/${card.id}?context=collection`).set(auth(s.admin)).expect(200);
    expect((await http().get(`/api/card/${card.id}?ignore_view=true`).set(auth(s.admin)).expect(200)).body.view_count).toBe(2);
    const coll = await makeCollection(s.t);
    const changed = await http()
      .put(`/api/card/${card.id}`)
      .set(auth(s.admin))
      .send({
        name: 'Renamed',
        description: 'Now described',
        display: 'bar',
        visualization_settings: { 'graph.dimensions': ['X'] },
        collection_id: coll,
        collection_position: 2,
        cache_ttl: 5,
        collection_preview: false,
        enable_embedding: true,
        embedding_params: { state: 'enabled' },
        parameters: [{ id: 'p1', type: 'category', name: 'P', slug: 'p' }],
      })
      .expect(200);
    expect(changed.body).toMatchObject({
      name: 'Renamed',
      description: 'Now described',
      display: 'bar',
      visualization_settings: { 'graph.dimensions': ['X'] },
      collection_id: coll,
      collection_position: 2,
      cache_ttl: 5,
      collection_preview: false,
      enable_embedding: true,
      embedding_params: { state: 'enabled' },
      parameters: [{ id: 'p1', type: 'category' }],
      collection: { id: coll, effective_ancestors: [expect.objectContaining({ id: 'root' })] },
    });
    expect400(
      await http()
        .put(`/api/card/${card.id}`)
        .set(auth(s.admin))
        .send({ embedding_params: { state: 'maybe' } }),
      'embedding_params',
      'value must be a valid embedding params map.',
    );
    expect400(
      await http().put(`/api/card/${card.id}`).set(auth(s.admin)).send({ archived: 'yes' }),
      'archived',
      'value must be a boolean.',
    );
    expect400(await http().put(`/api/card/${card.id}`).set(auth(s.admin)).send({ name: '' }), 'name', 'value must be a non-blank string.');
  });

  it('refreshes result_metadata when the query changes', async () => {
    const card = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT 1 AS A'));
    expect(card.result_metadata).toEqual([expect.objectContaining({ name: 'A' })]);
    const changed = await http()
      .put(`/api/card/${card.id}`)
      .set(auth(s.admin))
      .send({ dataset_query: nativeQuery(s.db, 'SELECT 2 AS B') })
      .expect(200);
    expect(changed.body.result_metadata).toEqual([expect.objectContaining({ name: 'B' })]);
  });

  it('archives and unarchives by PUT, deletes for good by DELETE', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { collection_position: 1 });
    const archived = await http().put(`/api/card/${card.id}`).set(auth(s.admin)).send({ archived: true }).expect(200);
    expect(archived.body).toMatchObject({ archived: true, collection_position: null });
    const ids = async (f: string) =>
      (await http().get(`/api/card?f=${f}`).set(auth(s.admin)).expect(200)).body.map((c: { id: number }) => c.id);
    expect(await ids('archived')).toContain(card.id);
    expect(await ids('all')).not.toContain(card.id);
    expect((await http().put(`/api/card/${card.id}`).set(auth(s.admin)).send({ archived: false }).expect(200)).body.archived).toBe(false);
    expect(await ids('all')).toContain(card.id);
    await http().delete(`/api/card/${card.id}`).set(auth(s.admin)).expect(204);
    expect404(await http().get(`/api/card/${card.id}`).set(auth(s.admin)));
    const left = await s.t.app.get(DataSource).query(`SELECT COUNT(*) AS n FROM revision WHERE model = 'card' AND model_id = ${card.id}`);
    expect(Number(left[0].n)).toBe(0);
  });

  it('archives its cards with a collection, and unarchiving it restores only those, not the ones archived on their own', async () => {
    const home = (await http().post('/api/collection').set(auth(s.admin)).send({ name: 'Shelf' }).expect(200)).body.id;
    const kept = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { collection_id: home });
    const alone = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { collection_id: home });
    await http().put(`/api/card/${alone.id}`).set(auth(s.admin)).send({ archived: true }).expect(200);
    await http().put(`/api/collection/${home}`).set(auth(s.admin)).send({ archived: true }).expect(200);
    const state = async (id: number) => (await http().get(`/api/card/${id}?ignore_view=true`).set(auth(s.admin)).expect(200)).body.archived;
    expect([await state(kept.id), await state(alone.id)]).toEqual([true, true]);
    await http().put(`/api/collection/${home}`).set(auth(s.admin)).send({ archived: false }).expect(200);
    expect([await state(kept.id), await state(alone.id)]).toEqual([false, true]);
  });

  it('writes a revision on create and on every update, with a readable description', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { name: 'A' });
    await http()
      .put(`/api/card/${card.id}`)
      .set(auth(s.admin))
      .send({ name: 'B', archived: true, visualization_settings: { x: 1 } })
      .expect(200);
    const rows: Array<{ is_creation: boolean | number; description: string | null; object: string }> = await s.t.app
      .get(DataSource)
      .query(`SELECT is_creation, description, object FROM revision WHERE model = 'card' AND model_id = ${card.id} ORDER BY id`);
    expect(rows.map((r) => [Boolean(r.is_creation), r.description])).toEqual([
      [true, null],
      [false, 'renamed this Card from "A" to "B", changed the visualization settings and archived it.'],
    ]);
    expect(JSON.parse(rows[1].object)).toMatchObject({ name: 'B', archived: true, dataset_query: tableQuery(s.db, orders) });
    const coll = await makeCollection(s.t, 'Sales');
    await http()
      .post('/api/card/collections')
      .set(auth(s.admin))
      .send({ card_ids: [card.id], collection_id: coll })
      .expect(200);
    const moved: Array<{ description: string }> = await s.t.app
      .get(DataSource)
      .query(
        `SELECT description FROM revision WHERE model = 'card' AND model_id = ${card.id}` +
          ` AND most_recent = ${s.t.app.get(DataSource).options.type === 'postgres' ? 'TRUE' : '1'}`,
      );
    expect(moved[0].description).toBe('moved this Card to Sales.');
  });

  it('copies a card as "Copy of ..."', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { name: 'Original', description: 'd' });
    const copy = await http().post(`/api/card/${card.id}/copy`).set(auth(s.admin)).expect(200);
    expect(copy.body).toMatchObject({ name: 'Copy of Original', description: 'd', dataset_query: card.dataset_query as object });
    expect(copy.body.id).not.toBe(card.id);
  });

  it('moves cards between collections, null meaning Root', async () => {
    const coll = await makeCollection(s.t);
    const a = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const b = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    expect(
      (
        await http()
          .post('/api/card/collections')
          .set(auth(s.admin))
          .send({ card_ids: [a.id, b.id], collection_id: coll })
          .expect(200)
      ).body,
    ).toEqual({ status: 'ok' });
    expect((await http().get(`/api/card/${a.id}`).set(auth(s.admin))).body.collection_id).toBe(coll);
    await http()
      .post('/api/card/collections')
      .set(auth(s.admin))
      .send({ card_ids: [a.id], collection_id: null })
      .expect(200);
    expect((await http().get(`/api/card/${a.id}`).set(auth(s.admin))).body.collection_id).toBeNull();
    expect400(
      await http()
        .post('/api/card/collections')
        .set(auth(s.admin))
        .send({ card_ids: [0] }),
      'card_ids',
      'value must be an integer greater than zero.',
    );
    expect400(await http().post('/api/card/collections').set(auth(s.admin)).send({ card_ids: 'x' }), 'card_ids', 'value must be an array.');
  });
});
