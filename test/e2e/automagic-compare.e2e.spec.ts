import { DataSource } from 'typeorm';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { makeModel, tableQuery } from '../support/card-factories';
import { expect403, expect404 } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { runXrayCards, type XrayDashboard } from '../support/automagic';

jest.setTimeout(180_000);

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');

/** Comparisons, candidates, query_metadata, model indexes, every error message, and what non-admins get. */
describe('automagic dashboards: comparisons, candidates, metadata, model indexes, errors, permissions', () => {
  let s: SampleApp;
  let orders: number;
  let total: number;
  let segmentId: number;
  let cell: unknown[];
  const http = () => s.t.http();
  const get = async (path: string, who = s.admin) =>
    (await http().get(`/api/automagic-dashboards/${path}`).set(auth(who)).expect(200)).body as XrayDashboard;
  const queryCards = (d: XrayDashboard) => d.dashcards.filter((dc) => dc.card);
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
    segmentId = (
      await http()
        .post('/api/segment')
        .set(auth(s.admin))
        .send({ name: 'Big orders', table_id: orders, definition: { 'source-table': orders, filter: ['>', ['field', total, null], 100] } })
        .expect(200)
    ).body.id;
    cell = ['=', ['field', s.field('PRODUCTS', 'CATEGORY'), { 'source-field': s.field('ORDERS', 'PRODUCT_ID') }], 'Widget'];
  });
  afterAll(() => s.t.close());

  /** Pairs side by side: the left card filtered as its entity says, the right one as the other does. */
  const expectPairs = (d: XrayDashboard, leftFilter: unknown, rightFilter: unknown) => {
    const cards = queryCards(d);
    expect(cards.length).toBeGreaterThan(1);
    expect(cards.length % 2).toBe(0);
    for (let i = 0; i < cards.length; i += 2) {
      expect([cards[i].col, cards[i + 1].col, cards[i].row]).toEqual([0, 12, cards[i + 1].row]);
      expect(cards[i].card!.dataset_query.query.filter).toEqual(leftFilter);
      expect(cards[i + 1].card!.dataset_query.query.filter).toEqual(rightFilter);
    }
  };

  it('compares a segment with its table, and the table with the segment', async () => {
    const segFilter = ['>', ['field', total, null], 100];
    const d = await get(`segment/${segmentId}/compare/table/${orders}`);
    expect(d.name).toBe('Comparison of Big orders and Orders');
    expectPairs(d, segFilter, undefined);
    expect(queryCards(d)[0].card!.name).toMatch(/\(Big orders\)$/);
    await runXrayCards(s.t, s.admin, d);
    const back = await get(`table/${orders}/compare/segment/${segmentId}`);
    expect(back.name).toBe('Comparison of Orders and Big orders');
    expectPairs(back, undefined, segFilter);
  });

  it('compares a cell with its table, with a template, and with an ad-hoc query', async () => {
    const d = await get(`table/${orders}/cell/${b64(cell)}/compare/table/${orders}`);
    expect(d.name).toBe('Comparison of Orders where Category is Widget and Orders');
    expectPairs(d, cell, undefined);
    await runXrayCards(s.t, s.admin, d);
    const adhocFilter = ['<', ['field', total, null], 60];
    const ruled = await get(
      `table/${orders}/rule/table/GenericTable/compare/adhoc/${b64(tableQuery(s.db, orders, { filter: adhocFilter }))}`,
    );
    expect(ruled.description).toMatch(/Orders compares/);
    expectPairs(ruled, undefined, adhocFilter);
    await runXrayCards(s.t, s.admin, ruled);
    const both = await get(`table/${orders}/cell/${b64(cell)}/rule/table/GenericTable/compare/segment/${segmentId}`);
    expectPairs(both, cell, ['>', ['field', total, null], 100]);
  });

  it('lists candidates of the database: schemas with their tables by interestingness, each with its x-ray URL', async () => {
    const list = (await http().get(`/api/automagic-dashboards/database/${s.db}/candidates`).set(auth(s.admin)).expect(200)).body;
    expect(list.length).toBeGreaterThan(0);
    const tables = list.flatMap((sc: { tables: Array<{ score: number; url: string; table: { id: number; name: string } }> }) => sc.tables);
    expect(tables.map((t: { table: { name: string } }) => t.table.name).sort()).toEqual(['ORDERS', 'PEOPLE', 'PRODUCTS', 'REVIEWS']);
    for (const sc of list) {
      const scores = sc.tables.map((t: { score: number }) => t.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
    expect(tables.find((t: { table: { name: string } }) => t.table.name === 'ORDERS')).toMatchObject({
      url: `/auto/dashboard/table/${orders}`,
      rule: 'table/TransactionTable',
      title: 'Orders',
    });
    expect(tables[0].score).toBeGreaterThan(tables.find((t: { table: { name: string } }) => t.table.name === 'PRODUCTS').score);
  });

  it('answers query_metadata: the database, tables and fields the x-ray uses', async () => {
    const m = (await http().get(`/api/automagic-dashboards/table/${orders}/query_metadata`).set(auth(s.admin)).expect(200)).body;
    expect(m.databases.map((d: { id: number }) => d.id)).toEqual([s.db]);
    expect(m.tables.map((t: { name: string }) => t.name).sort()).toEqual(['ORDERS', 'PEOPLE', 'PRODUCTS']);
    const f = (await http().get(`/api/automagic-dashboards/field/${total}/query_metadata`).set(auth(s.admin)).expect(200)).body;
    expect(f.tables.map((t: { id: number }) => t.id)).toContain(orders);
  });

  it('answers the detail dashboard of one row of an indexed model, and 404 without an index', async () => {
    const people = s.table('PEOPLE').id;
    const model = await makeModel(s.t, s.admin, tableQuery(s.db, people), { name: 'Customers' });
    const pkRef = ['field', 'ID', { 'base-type': 'type/BigInteger' }];
    const ds = s.t.app.get(DataSource);
    const inserted = await ds
      .createQueryBuilder()
      .insert()
      .into('model_index')
      .values({
        model_id: model.id,
        pk_ref: JSON.stringify(pkRef),
        value_ref: JSON.stringify(['field', 'NAME', { 'base-type': 'type/Text' }]),
        state: 'indexed',
      })
      .execute();
    const indexId = Number(inserted.identifiers[0]?.id ?? (await ds.query('SELECT MAX(id) AS id FROM model_index'))[0].id);
    await ds
      .createQueryBuilder()
      .insert()
      .into('model_index_value')
      .values({ model_index_id: indexId, model_pk: 1, name: 'Hudson Borer' })
      .execute();
    const d = await get(`model_index/${indexId}/primary_key/1`);
    expect(d.name).toBe('A look at Hudson Borer');
    for (const dc of queryCards(d)) expect(JSON.stringify(dc.card!.dataset_query.query.filter)).toContain(JSON.stringify(['=', pkRef, 1]));
    await runXrayCards(s.t, s.admin, d);
    expect((await get(`model_index/${indexId}/primary_key/2`)).name).toBe('A look at Customers 2');
    expect404(
      await http()
        .get(`/api/automagic-dashboards/model_index/${indexId + 100}/primary_key/1`)
        .set(auth(s.admin)),
    );
  });

  it.each([
    ['bogus/1', 'entity', 'Invalid entity type'],
    ['bogus/1/query_metadata', 'entity', 'Invalid entity type'],
    ['table/1/compare/bogus/1', 'comparison-entity', 'Invalid comparison entity type'],
    ['adhoc/%21%21%21', 'entity-id-or-query', "value couldn't be parsed as base64 encoded JSON"],
    [`adhoc/${Buffer.from('not json').toString('base64')}`, 'entity-id-or-query', "value couldn't be parsed as base64 encoded JSON"],
    ['table/1/cell/%7B%7D%7B', 'cell-query', "value couldn't be parsed as base64 encoded JSON"],
    [`table/1/cell/${Buffer.from('{"a":1}').toString('base64')}`, 'cell-query', "value couldn't be parsed as base64 encoded JSON"],
    ['table/1/compare/adhoc/%24%24', 'entity-id-or-query', "value couldn't be parsed as base64 encoded JSON"],
    ['table/1?show=lots', 'show', 'invalid show value'],
    ['table/1?show=-2', 'show', 'invalid show value'],
    ['model_index/1/primary_key/1?show=x', 'show', 'invalid show value'],
    ['table/1/rule/bogus/GenericTable', 'prefix', 'invalid value for prefix'],
    ['table/1/rule/table/NoSuchTemplate', 'dashboard-template', 'invalid value for dashboard template name'],
    ['table/1/cell/WyI9IiwxLDFd/rule/table/Nope/compare/table/1', 'dashboard-template', 'invalid value for dashboard template name'],
    ['table/abc', 'entity-id-or-query', 'value must be an integer greater than zero.'],
    ['model_index/abc/primary_key/1', 'model-index-id', 'value must be an integer greater than zero.'],
    ['model_index/1/primary_key/0', 'pk-id', 'value must be an integer greater than zero.'],
    ['database/0/candidates', 'id', 'value must be an integer greater than zero.'],
  ])('GET %s: 400 naming %s', async (path, param, message) => {
    const res = await http().get(`/api/automagic-dashboards/${path}`).set(auth(s.admin)).expect(400);
    expect(res.body.errors).toEqual({ [param]: message });
  });

  it('refuses a template of another kind of entity', async () => {
    const res = await http().get(`/api/automagic-dashboards/field/${total}/rule/table/GenericTable`).set(auth(s.admin)).expect(400);
    expect(res.body.errors).toEqual({ prefix: 'invalid value for prefix' });
  });

  it.each([
    'table/999999',
    'field/999999',
    'segment/999999',
    'metric/999999',
    'question/999999',
    'model/999999',
    'table/999999/query_metadata',
    'database/999999/candidates',
    'model_index/999999/primary_key/1',
  ])('GET %s: 404', async (path) => {
    expect404(await http().get(`/api/automagic-dashboards/${path}`).set(auth(s.admin)));
  });

  it('404 for a cell on a field that does not exist and for a comparison with a missing table', async () => {
    expect404(
      await http()
        .get(`/api/automagic-dashboards/table/${orders}/cell/${b64(['=', ['field', 999999, null], 1])}`)
        .set(auth(s.admin)),
    );
    expect404(await http().get(`/api/automagic-dashboards/table/${orders}/compare/table/999999`).set(auth(s.admin)));
  });

  it('needs a session', async () => {
    expect((await http().get(`/api/automagic-dashboards/table/${orders}`)).status).toBe(401);
  });

  it('gives a non-admin the x-rays of tables they may query, and nothing over a table they may not', async () => {
    const mine = await get(`table/${orders}`, s.user.session);
    const admins = await get(`table/${orders}`);
    expect(queryCards(mine).map((dc) => dc.card!.dataset_query)).toEqual(queryCards(admins).map((dc) => dc.card!.dataset_query));
    await runXrayCards(s.t, s.user.session, mine);
    await setAccess('no', 'none');
    try {
      for (const path of [
        `table/${orders}`,
        `field/${total}`,
        `segment/${segmentId}`,
        `table/${orders}/query_metadata`,
        `database/${s.db}/candidates`,
        `table/${orders}/cell/${b64(cell)}`,
      ]) {
        expect403(await http().get(`/api/automagic-dashboards/${path}`).set(auth(s.user.session)));
      }
    } finally {
      await setAccess('unrestricted', 'write');
    }
  });
});
