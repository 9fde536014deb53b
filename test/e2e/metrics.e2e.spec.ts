import { DataSource } from 'typeorm';
import { MetricImportantField } from '../../src/schema/segment-metric.entity';
import { makeCard, tableQuery } from '../support/card-factories';
import { expect400, expect403, expect404, expectMessage } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

const NON_BLANK = 'value must be a non-blank string.';
const POSITIVE_INT = 'value must be an integer greater than zero.';

/** /api/metric over HTTP on the Sample Database: CRUD, important fields, revisions, related, and queries using one. */
describe('legacy metrics', () => {
  let s: SampleApp;
  let orders: number;
  let total: number;
  const http = () => s.t.http();
  const revenue = () => ({ 'source-table': orders, aggregation: [['sum', ['field', total, null]]] });
  const create = async (body: Record<string, unknown> = {}) =>
    (
      await http()
        .post('/api/metric')
        .set(auth(s.admin))
        .send({ name: `Metric ${Math.random().toString(36).slice(2, 8)}`, table_id: orders, definition: revenue(), ...body })
        .expect(200)
    ).body;
  const run = async (query: Record<string, unknown>) => {
    const res = await http()
      .post('/api/dataset')
      .set(auth(s.admin))
      .send({ database: s.db, type: 'query', query: { 'source-table': orders, ...query } })
      .expect(202);
    expect(res.body.status).toBe('completed');
    return res.body.data as { rows: unknown[][]; cols: Array<{ name: string; display_name: string }> };
  };
  const native = async (sql: string) => {
    const res = await http()
      .post('/api/dataset')
      .set(auth(s.admin))
      .send({ database: s.db, type: 'native', native: { query: sql } })
      .expect(202);
    return res.body.data.rows as unknown[][];
  };

  beforeAll(async () => {
    s = await startSampleApp();
    orders = s.table('ORDERS').id;
    total = s.field('ORDERS', 'TOTAL');
  });
  afterAll(() => s.t.close());

  it('creates a metric with its creator and query description; reads it back and lists it', async () => {
    const res = await http()
      .post('/api/metric')
      .set(auth(s.admin))
      .send({
        name: 'Revenue',
        description: 'All sales',
        table_id: orders,
        definition: { source_table: orders, aggregation: ['sum', ['field-id', total]] },
      })
      .expect(200);
    expect(res.body).toMatchObject({
      name: 'Revenue',
      description: 'All sales',
      table_id: orders,
      archived: false,
      how_is_this_calculated: null,
      definition: revenue(),
      creator: expect.objectContaining({ common_name: 'Ada Admin', is_superuser: true }),
      query_description: { table: 'Orders', aggregation: [{ type: 'sum', arg: 'Total' }] },
    });
    expect((await http().get(`/api/metric/${res.body.id}`).set(auth(s.user.session)).expect(200)).body).toEqual(res.body);
    const list = (await http().get('/api/metric').set(auth(s.user.session)).expect(200)).body as Array<{ id: number }>;
    expect(list.find((m) => m.id === res.body.id)).toMatchObject({ database_id: s.db, name: 'Revenue' });
  });

  it('validates POST and PUT with the spec messages; PUT needs a revision message', async () => {
    const post = (body: Record<string, unknown>) =>
      http()
        .post('/api/metric')
        .set(auth(s.admin))
        .send({ name: 'X', table_id: orders, definition: revenue(), ...body });
    expect400(await post({ name: '' }), 'name', NON_BLANK);
    expect400(await post({ table_id: -1 }), 'table_id', POSITIVE_INT);
    expect400(await post({ definition: 5 }), 'definition', 'value must be a map.');
    expect400(await post({ description: false }), 'description', 'value must be a string.');
    expect400(await post({ table_id: 999999 }), 'table_id', 'Table does not exist.');
    const m = await create();
    const put = (body: Record<string, unknown>) => http().put(`/api/metric/${m.id}`).set(auth(s.admin)).send(body);
    expect400(await put({ name: 'Y' }), 'revision_message', NON_BLANK);
    expect400(await put({ how_is_this_calculated: 5, revision_message: 'm' }), 'how_is_this_calculated', 'value must be a string.');
    expect400(await put({ points_of_interest: [], revision_message: 'm' }), 'points_of_interest', 'value must be a string.');
    const res = await put({ how_is_this_calculated: 'Sum of totals', show_in_getting_started: true, revision_message: 'explain' }).expect(
      200,
    );
    expect(res.body).toMatchObject({ how_is_this_calculated: 'Sum of totals', show_in_getting_started: true });
    expect((await put({ how_is_this_calculated: null, revision_message: 'm' }).expect(200)).body.how_is_this_calculated).toBeNull();
  });

  it('refuses every write to non-admins; unknown ids are 404', async () => {
    const m = await create();
    const user = auth(s.user.session);
    expect403(await http().post('/api/metric').set(user).send({ name: 'X', table_id: orders, definition: revenue() }));
    expect403(await http().put(`/api/metric/${m.id}`).set(user).send({ name: 'Y', revision_message: 'm' }));
    expect403(await http().delete(`/api/metric/${m.id}?revision_message=m`).set(user));
    expect403(await http().post(`/api/metric/${m.id}/revert`).set(user).send({ revision_id: 1 }));
    expect403(await http().put(`/api/metric/${m.id}/important_fields`).set(user).send({ important_field_ids: [] }));
    expect404(await http().get('/api/metric/999999').set(user));
    expect404(await http().get('/api/metric/999999/related').set(user));
    expect404(await http().put('/api/metric/999999/important_fields').set(auth(s.admin)).send({ important_field_ids: [] }));
    expect400(await http().get('/api/metric/0').set(user), 'id', POSITIVE_INT);
  });

  it('archives by PUT and by the deprecated DELETE', async () => {
    const m = await create();
    const listed = async () =>
      ((await http().get('/api/metric').set(auth(s.admin)).expect(200)).body as Array<{ id: number }>).some((x) => x.id === m.id);
    expect400(await http().delete(`/api/metric/${m.id}?revision_message=`).set(auth(s.admin)), 'revision_message', NON_BLANK);
    await http().delete(`/api/metric/${m.id}?revision_message=retired`).set(auth(s.admin)).expect(204);
    expect(await listed()).toBe(false);
    expect((await http().get(`/api/metric/${m.id}`).set(auth(s.admin)).expect(200)).body.archived).toBe(true);
    await http().put(`/api/metric/${m.id}`).set(auth(s.admin)).send({ archived: false, revision_message: 'needed' }).expect(200);
    expect(await listed()).toBe(true);
  });

  it('sets at most three important fields, replacing the stored set', async () => {
    const m = await create();
    const fields = ['TAX', 'SUBTOTAL', 'DISCOUNT', 'QUANTITY'].map((f) => s.field('ORDERS', f));
    const put = (ids: unknown) => http().put(`/api/metric/${m.id}/important_fields`).set(auth(s.admin)).send({ important_field_ids: ids });
    expect400(await put('1'), 'important_field_ids', 'value must be an array.');
    expect400(await put([0]), 'important_field_ids', POSITIVE_INT);
    expectMessage(await put(fields), 'A Metric can have a maximum of 3 important fields.');
    expect400(await put([999999]), 'important_field_ids', 'Field does not exist.');
    const stored = async () =>
      (await s.t.app.get(DataSource).getRepository(MetricImportantField).findBy({ metric_id: m.id }))
        .map((f) => f.field_id)
        .sort((a, b) => a - b);
    expect((await put(fields.slice(0, 3)).expect(200)).body).toEqual({ success: true });
    expect(await stored()).toEqual(fields.slice(0, 3).sort((a, b) => a - b));
    await put([fields[3], fields[0]]).expect(200);
    expect(await stored()).toEqual([fields[0], fields[3]].sort((a, b) => a - b));
    await put([]).expect(200);
    expect(await stored()).toEqual([]);
  });

  it('keeps revisions and reverts, as /api/revision does', async () => {
    const m = await create({ name: 'Sales' });
    await http()
      .put(`/api/metric/${m.id}`)
      .set(auth(s.admin))
      .send({ name: 'Gross sales', how_is_this_calculated: 'Sum', revision_message: 'clarify' })
      .expect(200);
    const revs = (await http().get(`/api/metric/${m.id}/revisions`).set(auth(s.user.session)).expect(200)).body;
    expect(revs.map((r: { description: string; message: string | null }) => [r.description, r.message])).toEqual([
      ['renamed this Metric from "Sales" to "Gross sales" and changed how it is calculated.', 'clarify'],
      ['created this.', null],
    ]);
    expect((await http().get(`/api/revision?entity=metric&id=${m.id}`).set(auth(s.admin)).expect(200)).body).toEqual(revs);
    await http().post(`/api/metric/${m.id}/revert`).set(auth(s.admin)).send({ revision_id: revs[1].id }).expect(200);
    expect((await http().get(`/api/metric/${m.id}`).set(auth(s.admin)).expect(200)).body).toMatchObject({
      name: 'Sales',
      how_is_this_calculated: null,
    });
    await http().post('/api/revision/revert').set(auth(s.admin)).send({ entity: 'metric', id: m.id, revision_id: revs[0].id }).expect(200);
    expect((await http().get(`/api/metric/${m.id}`).set(auth(s.admin)).expect(200)).body.name).toBe('Gross sales');
    expect403(
      await http().post('/api/revision/revert').set(auth(s.user.session)).send({ entity: 'metric', id: m.id, revision_id: revs[1].id }),
    );
  });

  it('answers related entities: the table, its other metrics most alike first, its segments and cards', async () => {
    const reviews = s.table('REVIEWS').id;
    const rating = s.field('REVIEWS', 'RATING');
    const body = s.field('REVIEWS', 'BODY');
    const make = (name: string, aggregation: unknown) =>
      http()
        .post('/api/metric')
        .set(auth(s.admin))
        .send({ name, table_id: reviews, definition: { 'source-table': reviews, aggregation: [aggregation] } })
        .expect(200);
    const self = (await make('Avg rating', ['avg', ['field', rating, null]])).body;
    const other = (await make('A count', ['distinct', ['field', body, null]])).body;
    const alike = (await make('Max rating', ['max', ['field', rating, null]])).body;
    const seg = (
      await http()
        .post('/api/segment')
        .set(auth(s.admin))
        .send({ name: 'Good', table_id: reviews, definition: { 'source-table': reviews, filter: ['>=', ['field', rating, null], 4] } })
        .expect(200)
    ).body;
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, reviews));
    const res = await http().get(`/api/metric/${self.id}/related`).set(auth(s.user.session)).expect(200);
    expect(res.body.table).toMatchObject({ id: reviews, name: 'REVIEWS' });
    expect(res.body.metrics.map((x: { id: number }) => x.id)).toEqual([alike.id, other.id]);
    expect(res.body.segments.map((x: { id: number }) => x.id)).toEqual([seg.id]);
    expect(res.body['linking-to'].map((t: { name: string }) => t.name)).toEqual(['PRODUCTS']);
    expect(res.body.cards.map((c: { id: number }) => c.id)).toEqual([card.id]);
  });

  it('expands ["metric", id] in an aggregation: the same values as its definition, named after the metric', async () => {
    const m = await create({ name: 'Revenue' });
    const [[expected]] = await native('SELECT SUM(TOTAL) FROM ORDERS');
    const data = await run({ aggregation: [['metric', m.id]] });
    expect(Number(data.rows[0][0])).toBeCloseTo(Number(expected), 4);
    expect(data.cols[0]).toMatchObject({ name: 'Revenue', display_name: 'Revenue' });

    const quantity = s.field('ORDERS', 'QUANTITY');
    const byQty = await run({
      aggregation: [['metric', m.id]],
      breakout: [['field', quantity, null]],
      'order-by': [['asc', ['field', quantity, null]]],
    });
    const plain = await native('SELECT QUANTITY, SUM(TOTAL) FROM ORDERS GROUP BY QUANTITY ORDER BY QUANTITY');
    expect(byQty.rows.map((r) => Number(r[0]))).toEqual(plain.map((r) => Number(r[0])));
    byQty.rows.forEach((r, i) => expect(Number(r[1])).toBeCloseTo(Number(plain[i][1]), 4));
  });

  it("a metric with a filter (a segment among it) aggregates only its rows, beside the query's own aggregations", async () => {
    const seg = (
      await http()
        .post('/api/segment')
        .set(auth(s.admin))
        .send({ name: 'Big', table_id: orders, definition: { 'source-table': orders, filter: ['>', ['field', total, null], 100] } })
        .expect(200)
    ).body;
    const m = await create({
      name: 'Big orders',
      definition: { 'source-table': orders, aggregation: [['count']], filter: ['segment', seg.id] },
    });
    const [[expected]] = await native('SELECT COUNT(*) FROM ORDERS WHERE TOTAL > 100');
    const data = await run({ aggregation: [['metric', m.id], ['count']] });
    expect(Number(data.rows[0][0])).toBe(Number(expected));
    expect(Number(data.rows[0][1])).toBe(Number((await native('SELECT COUNT(*) FROM ORDERS'))[0][0]));
    const big = ['segment', seg.id];
    const avg = await create({
      name: 'Avg big',
      definition: { 'source-table': orders, aggregation: [['avg', ['field', total, null]]], filter: big },
    });
    const distinct = await create({
      name: 'Buyers',
      definition: { 'source-table': orders, aggregation: [['distinct', ['field', s.field('ORDERS', 'USER_ID'), null]]], filter: big },
    });
    const both = await run({
      aggregation: [
        ['metric', avg.id],
        ['metric', distinct.id],
        ['avg', ['field', total, null]],
      ],
    });
    const [[avgBig, buyers, avgAll]] = await native(
      'SELECT (SELECT AVG(TOTAL) FROM ORDERS WHERE TOTAL > 100), (SELECT COUNT(DISTINCT USER_ID) FROM ORDERS WHERE TOTAL > 100),' +
        ' (SELECT AVG(TOTAL) FROM ORDERS)',
    );
    expect(Number(both.rows[0][0])).toBeCloseTo(Number(avgBig), 4);
    expect(Number(both.rows[0][1])).toBe(Number(buyers));
    expect(Number(both.rows[0][2])).toBeCloseTo(Number(avgAll), 4);
    const unknown = await http()
      .post('/api/dataset')
      .set(auth(s.admin))
      .send({ database: s.db, type: 'query', query: { 'source-table': orders, aggregation: [['metric', 999999]] } })
      .expect(202);
    expect(unknown.body).toMatchObject({ status: 'failed', error: expect.stringContaining('Metric 999999 does not exist.') });
  });
});
