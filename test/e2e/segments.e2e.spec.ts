import { SegmentsAndMetricsService } from '../../src/modules/segments-and-metrics/segments-and-metrics.service';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { makeCard, tableQuery } from '../support/card-factories';
import { expect400, expect403, expect404 } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

const NON_BLANK = 'value must be a non-blank string.';
const POSITIVE_INT = 'value must be an integer greater than zero.';

/** /api/segment over HTTP on the Sample Database: CRUD, archiving, revisions, related, access, and queries using one. */
describe('segments', () => {
  let s: SampleApp;
  let orders: number;
  let total: number;
  const http = () => s.t.http();
  const bigOrders = () => ({ 'source-table': orders, filter: ['>', ['field', total, null], 100] });
  const create = async (body: Record<string, unknown> = {}) =>
    (
      await http()
        .post('/api/segment')
        .set(auth(s.admin))
        .send({ name: `Seg ${Math.random().toString(36).slice(2, 8)}`, table_id: orders, definition: bigOrders(), ...body })
        .expect(200)
    ).body;
  const count = async (query: Record<string, unknown>) => {
    const res = await http()
      .post('/api/dataset')
      .set(auth(s.admin))
      .send({ database: s.db, type: 'query', query: { 'source-table': orders, aggregation: [['count']], ...query } })
      .expect(202);
    expect(res.body.status).toBe('completed');
    return Number(res.body.data.rows[0][0]);
  };
  const nativeCount = async (where: string) => {
    const res = await http()
      .post('/api/dataset')
      .set(auth(s.admin))
      .send({ database: s.db, type: 'native', native: { query: `SELECT COUNT(*) FROM ORDERS WHERE ${where}` } })
      .expect(202);
    return Number(res.body.data.rows[0][0]);
  };
  const setAccess = async (data: string, native: string) => {
    const graph = (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
    await http()
      .put('/api/permissions/graph')
      .set(auth(s.admin))
      .send({ revision: graph.revision, groups: { [ALL_USERS_GROUP_ID]: { [s.db]: { data, native } } } })
      .expect(200);
  };

  beforeAll(async () => {
    s = await startSampleApp();
    orders = s.table('ORDERS').id;
    total = s.field('ORDERS', 'TOTAL');
  });
  afterAll(() => s.t.close());

  it('creates a segment with its definition normalized, its creator and query description', async () => {
    const res = await http()
      .post('/api/segment')
      .set(auth(s.admin))
      .send({
        name: 'Big orders',
        description: 'Over 100',
        table_id: orders,
        definition: { source_table: orders, filter: ['>', ['field-id', total], 100] },
      })
      .expect(200);
    expect(res.body).toMatchObject({
      name: 'Big orders',
      description: 'Over 100',
      table_id: orders,
      archived: false,
      caveats: null,
      points_of_interest: null,
      show_in_getting_started: false,
      definition: { 'source-table': orders, filter: ['>', ['field', total, null], 100] },
      creator: expect.objectContaining({ email: 'admin@example.com', common_name: 'Ada Admin' }),
      query_description: { table: 'Orders', filter: [{ field: 'Total' }] },
    });
    expect(res.body.entity_id).toHaveLength(21);
    expect(res.body).not.toHaveProperty('how_is_this_calculated');
    const got = await http().get(`/api/segment/${res.body.id}`).set(auth(s.user.session)).expect(200);
    expect(got.body).toEqual(res.body);
  });

  it('lists unarchived segments by name with their database, to those who may query it', async () => {
    const b = await create({ name: 'zz last' });
    const a = await create({ name: 'AA first' });
    const list = (await http().get('/api/segment').set(auth(s.user.session)).expect(200)).body as Array<{
      id: number;
      database_id: number;
    }>;
    const ids = list.map((x) => x.id);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
    expect(list.find((x) => x.id === a.id)).toMatchObject({
      database_id: s.db,
      creator: expect.any(Object),
      query_description: expect.any(Object),
    });
    await setAccess('no', 'none');
    try {
      expect((await http().get('/api/segment').set(auth(s.user.session)).expect(200)).body).toEqual([]);
      expect403(await http().get(`/api/segment/${a.id}`).set(auth(s.user.session)));
      expect403(await http().get(`/api/segment/${a.id}/revisions`).set(auth(s.user.session)));
      expect403(await http().get(`/api/segment/${a.id}/related`).set(auth(s.user.session)));
    } finally {
      await setAccess('unrestricted', 'write');
    }
  });

  it('validates what POST takes, with the spec messages', async () => {
    const post = (body: Record<string, unknown>) =>
      http()
        .post('/api/segment')
        .set(auth(s.admin))
        .send({ name: 'X', table_id: orders, definition: bigOrders(), ...body });
    expect400(await post({ name: '  ' }), 'name', NON_BLANK);
    expect400(await post({ name: undefined }), 'name', NON_BLANK);
    expect400(await post({ name: 'x'.repeat(255) }), 'name', 'value must be a string of at most 254 characters.');
    expect400(await post({ table_id: 0 }), 'table_id', POSITIVE_INT);
    expect400(await post({ table_id: 'x' }), 'table_id', POSITIVE_INT);
    expect400(await post({ definition: 'filter' }), 'definition', 'value must be a map.');
    expect400(await post({ definition: undefined }), 'definition', 'value must be a map.');
    expect400(await post({ description: 3 }), 'description', 'value must be a string.');
    expect400(await post({ table_id: 999999 }), 'table_id', 'Table does not exist.');
    await post({ description: null }).expect(200);
  });

  it('refuses writes to non-admins, and answers 400 and 404 for bad and unknown ids', async () => {
    const seg = await create();
    const user = auth(s.user.session);
    expect403(await http().post('/api/segment').set(user).send({ name: 'X', table_id: orders, definition: bigOrders() }));
    expect403(await http().put(`/api/segment/${seg.id}`).set(user).send({ name: 'Y', revision_message: 'm' }));
    expect403(await http().delete(`/api/segment/${seg.id}?revision_message=m`).set(user));
    expect403(await http().post(`/api/segment/${seg.id}/revert`).set(user).send({ revision_id: 1 }));
    expect400(await http().get('/api/segment/abc').set(user), 'id', POSITIVE_INT);
    expect404(await http().get('/api/segment/999999').set(user));
    expect404(await http().put('/api/segment/999999').set(auth(s.admin)).send({ revision_message: 'm' }));
    expect404(await http().get('/api/segment/999999/revisions').set(user));
    expect404(await http().get('/api/segment/999999/related').set(user));
    expect404(await http().delete('/api/segment/999999?revision_message=m').set(auth(s.admin)));
  });

  it('updates with a revision message required; null clears texts but not the name', async () => {
    const seg = await create({ description: 'Old' });
    const put = (body: Record<string, unknown>) => http().put(`/api/segment/${seg.id}`).set(auth(s.admin)).send(body);
    expect400(await put({ name: 'New' }), 'revision_message', NON_BLANK);
    expect400(await put({ name: 'New', revision_message: ' ' }), 'revision_message', NON_BLANK);
    expect400(await put({ name: '', revision_message: 'm' }), 'name', NON_BLANK);
    expect400(await put({ archived: 'yes', revision_message: 'm' }), 'archived', 'value must be a boolean.');
    expect400(await put({ definition: [1], revision_message: 'm' }), 'definition', 'value must be a map.');
    expect400(await put({ caveats: 1, revision_message: 'm' }), 'caveats', 'value must be a string.');
    expect400(await put({ show_in_getting_started: 'no', revision_message: 'm' }), 'show_in_getting_started', 'value must be a boolean.');
    const res = await put({
      name: 'Renamed',
      caveats: 'Careful',
      points_of_interest: 'Totals',
      show_in_getting_started: true,
      revision_message: 'tidy',
    }).expect(200);
    expect(res.body).toMatchObject({
      name: 'Renamed',
      description: 'Old',
      caveats: 'Careful',
      points_of_interest: 'Totals',
      show_in_getting_started: true,
    });
    const cleared = await put({ name: null, description: null, definition: null, revision_message: 'clear' }).expect(200);
    expect(cleared.body).toMatchObject({ name: 'Renamed', description: null, definition: bigOrders() });
  });

  it('archives by PUT and by the deprecated DELETE, which needs a revision message', async () => {
    const seg = await create();
    const listed = async () =>
      ((await http().get('/api/segment').set(auth(s.admin)).expect(200)).body as Array<{ id: number }>).some((x) => x.id === seg.id);
    await http().put(`/api/segment/${seg.id}`).set(auth(s.admin)).send({ archived: true, revision_message: 'gone' }).expect(200);
    expect(await listed()).toBe(false);
    expect((await http().get(`/api/segment/${seg.id}`).set(auth(s.admin)).expect(200)).body.archived).toBe(true);
    await http().put(`/api/segment/${seg.id}`).set(auth(s.admin)).send({ archived: false, revision_message: 'back' }).expect(200);
    expect(await listed()).toBe(true);
    expect400(await http().delete(`/api/segment/${seg.id}`).set(auth(s.admin)), 'revision_message', NON_BLANK);
    const del = await http().delete(`/api/segment/${seg.id}?revision_message=obsolete`).set(auth(s.admin)).expect(204);
    expect(del.text).toBe('');
    expect(await listed()).toBe(false);
    const revs = (await http().get(`/api/segment/${seg.id}/revisions`).set(auth(s.admin)).expect(200)).body;
    expect(revs.map((r: { description: string; message: string | null }) => [r.description, r.message])).toEqual([
      ['archived this Segment.', 'obsolete'],
      ['unarchived this Segment.', 'back'],
      ['archived this Segment.', 'gone'],
      ['created this.', null],
    ]);
  });

  it('keeps revisions with authors and sentences, and reverts to one', async () => {
    const seg = await create({ name: 'First' });
    await http().put(`/api/segment/${seg.id}`).set(auth(s.admin)).send({ name: 'Second', revision_message: 'rename' }).expect(200);
    await http()
      .put(`/api/segment/${seg.id}`)
      .set(auth(s.admin))
      .send({
        definition: { 'source-table': orders, filter: ['<', ['field', total, null], 10] },
        description: 'Small',
        revision_message: 'redefine',
      })
      .expect(200);
    const list = await http().get(`/api/segment/${seg.id}/revisions`).set(auth(s.user.session)).expect(200);
    expect(list.body.map((r: { description: string }) => r.description)).toEqual([
      'added a description and modified the definition.',
      'renamed this Segment from "First" to "Second".',
      'created this.',
    ]);
    expect(list.body[0]).toMatchObject({
      message: 'redefine',
      most_recent: true,
      user: expect.objectContaining({ common_name: 'Ada Admin' }),
      diff: { before: expect.any(Object), after: expect.any(Object) },
    });
    const same = await http().get(`/api/revision?entity=segment&id=${seg.id}`).set(auth(s.admin)).expect(200);
    expect(same.body).toEqual(list.body);

    const created = list.body[2];
    const reverted = await http().post(`/api/segment/${seg.id}/revert`).set(auth(s.admin)).send({ revision_id: created.id }).expect(200);
    expect(reverted.body).toMatchObject({ is_reversion: true, most_recent: true });
    const back = (await http().get(`/api/segment/${seg.id}`).set(auth(s.admin)).expect(200)).body;
    expect(back).toMatchObject({ name: 'First', description: null, definition: bigOrders() });
    expect((await http().get(`/api/segment/${seg.id}/revisions`).set(auth(s.admin)).expect(200)).body).toHaveLength(4);

    const other = await create();
    const otherRev = (await http().get(`/api/segment/${other.id}/revisions`).set(auth(s.admin)).expect(200)).body[0];
    expect404(await http().post(`/api/segment/${seg.id}/revert`).set(auth(s.admin)).send({ revision_id: otherRev.id }));
    expect400(await http().post(`/api/segment/${seg.id}/revert`).set(auth(s.admin)).send({}), 'revision_id', POSITIVE_INT);
  });

  it('answers related entities: the table, its other segments and metrics, linked tables and cards, each bounded', async () => {
    const products = s.table('PRODUCTS').id;
    const price = s.field('PRODUCTS', 'PRICE');
    const def = (n: number) => ({ 'source-table': products, filter: ['>', ['field', price, null], n] });
    const seg = (
      await http()
        .post('/api/segment')
        .set(auth(s.admin))
        .send({ name: 'Pricey', table_id: products, definition: def(50) })
        .expect(200)
    ).body;
    for (let i = 0; i < 6; i++)
      await http()
        .post('/api/segment')
        .set(auth(s.admin))
        .send({ name: `Other ${i}`, table_id: products, definition: def(i) })
        .expect(200);
    const metric = (
      await http()
        .post('/api/metric')
        .set(auth(s.admin))
        .send({
          name: 'Avg price',
          table_id: products,
          definition: { 'source-table': products, aggregation: [['avg', ['field', price, null]]] },
        })
        .expect(200)
    ).body;
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products));
    const res = await http().get(`/api/segment/${seg.id}/related`).set(auth(s.user.session)).expect(200);
    expect(res.body.table).toMatchObject({ id: products, display_name: 'Products' });
    expect(res.body.segments).toHaveLength(5);
    expect(res.body.segments.map((x: { id: number }) => x.id)).not.toContain(seg.id);
    expect(res.body.metrics.map((x: { id: number }) => x.id)).toEqual([metric.id]);
    expect(res.body['linked-from'].map((t: { name: string }) => t.name).sort()).toEqual(['ORDERS', 'REVIEWS']);
    expect(res.body['linking-to']).toEqual([]);
    expect(res.body.cards.map((c: { id: number }) => c.id)).toContain(card.id);
    const fromOrders = await http()
      .get(`/api/segment/${(await create()).id}/related`)
      .set(auth(s.admin))
      .expect(200);
    expect(fromOrders.body['linking-to'].map((t: { name: string }) => t.name).sort()).toEqual(['PEOPLE', 'PRODUCTS']);
  });

  it('expands ["segment", id] in a query filter to its definition, the same rows as the filter itself', async () => {
    const seg = await create();
    const small = await create({ definition: { 'source-table': orders, filter: ['<', ['field', total, null], 20] } });
    const expected = await nativeCount('TOTAL > 100');
    expect(expected).toBeGreaterThan(0);
    expect(await count({ filter: ['segment', seg.id] })).toBe(expected);
    expect(await count({ filter: ['>', ['field', total, null], 100] })).toBe(expected);
    expect(await count({ filter: ['or', ['segment', seg.id], ['segment', small.id]] })).toBe(
      await nativeCount('TOTAL > 100 OR TOTAL < 20'),
    );
    expect(await count({ filter: ['not', ['segment', seg.id]] })).toBe(await nativeCount('NOT (TOTAL > 100)'));
    const unknown = await http()
      .post('/api/dataset')
      .set(auth(s.admin))
      .send({ database: s.db, type: 'query', query: { 'source-table': orders, filter: ['segment', 999999] } })
      .expect(202);
    expect(unknown.body).toMatchObject({ status: 'failed', error: expect.stringContaining('Segment 999999 does not exist.') });
  });

  it('an archived segment still expands in saved questions that use it', async () => {
    const seg = await create();
    await http().delete(`/api/segment/${seg.id}?revision_message=old`).set(auth(s.admin)).expect(204);
    expect(await count({ filter: ['segment', seg.id] })).toBe(await nativeCount('TOTAL > 100'));
  });

  it("lists a table's unarchived segments for the table and field answers", async () => {
    const reviews = s.table('REVIEWS').id;
    const seg = (
      await http()
        .post('/api/segment')
        .set(auth(s.admin))
        .send({
          name: 'Rated',
          table_id: reviews,
          definition: { 'source-table': reviews, filter: ['not-null', ['field', s.field('REVIEWS', 'RATING'), null]] },
        })
        .expect(200)
    ).body;
    const gone = (
      await http()
        .post('/api/segment')
        .set(auth(s.admin))
        .send({ name: 'Gone', table_id: reviews, definition: { 'source-table': reviews } })
        .expect(200)
    ).body;
    await http().delete(`/api/segment/${gone.id}?revision_message=x`).set(auth(s.admin)).expect(204);
    const listed = await s.t.app.get(SegmentsAndMetricsService).onTable('segment', reviews);
    expect(listed.map((x) => x.id)).toEqual([seg.id]);
    expect(listed[0]).toMatchObject({ query_description: { table: 'Reviews', filter: [{ field: 'Rating' }] } });
  });

  it('important_fields is a metric route only', async () => {
    const seg = await create();
    const res = await http().put(`/api/segment/${seg.id}/important_fields`).set(auth(s.admin)).send({ important_field_ids: [] });
    expect(res.status).toBe(404);
  });
});
