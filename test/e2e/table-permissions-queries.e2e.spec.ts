import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { makeCard, makeGroup, nativeQuery, tableQuery } from '../support/card-factories';
import { expect403, expectText } from '../support/expect-wire';
import { auth, makeUserDirect } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(180_000);

const refused = (why: string) => `You do not have permissions to run this query: ${why}`;

/**
 * Table-level data permissions on every way a query reaches a table (issue 37): the source table, an explicit join,
 * an implicit join through a foreign key, a nested source query, a saved question as source (`card__`), a segment,
 * and the saved question's own run; native SQL and downloads by the tables' levels. The user is only in All Users.
 */
describe('table permissions on queries', () => {
  let s: SampleApp;
  let orders: number;
  let people: number;
  let products: number;
  /** The Sample Database's schema as the graph names it ("" when the engine has none). */
  let schema: string;
  const http = () => s.t.http();
  const setAllUsers = async (entry: Record<string, unknown>) => {
    const { revision } = (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
    const res = await http()
      .put('/api/permissions/graph')
      .set(auth(s.admin))
      .send({ revision, groups: { [ALL_USERS_GROUP_ID]: { [s.db]: entry } } });
    expect([res.status, res.body.errors]).toEqual([200, undefined]);
  };
  const run = (query: unknown, session = s.user.session) =>
    http()
      .post('/api/dataset')
      .set(auth(session))
      .send(query as object);
  const expectRefused = (res: { status: number; text: string }, why: string) => expectText(res as never, 403, refused(why));
  const count = (tableId: number, inner: Record<string, unknown> = {}) => tableQuery(s.db, tableId, { aggregation: [['count']], ...inner });

  beforeAll(async () => {
    s = await startSampleApp();
    [orders, people, products] = [s.table('ORDERS').id, s.table('PEOPLE').id, s.table('PRODUCTS').id];
    schema = (s.table('ORDERS').schema as string | null) ?? '';
  });
  afterAll(() => s.t.close());

  describe('with PEOPLE blocked', () => {
    beforeAll(() =>
      setAllUsers({ 'view-data': { [schema]: { [people]: 'blocked', [orders]: 'unrestricted', [products]: 'unrestricted' } } }),
    );

    it('runs a query on a viewable table', async () => {
      const res = await run(count(orders)).expect(202);
      expect(res.body.status).toBe('completed');
    });

    it('refuses the blocked table as source, in an explicit join, and in a nested source query, naming it', async () => {
      expectRefused(await run(count(people)), 'table PEOPLE is blocked.');
      const join = {
        alias: 'P',
        'source-table': people,
        condition: ['=', ['field', s.field('ORDERS', 'USER_ID'), null], ['field', s.field('PEOPLE', 'ID'), { 'join-alias': 'P' }]],
      };
      expectRefused(await run(count(orders, { joins: [join] })), 'table PEOPLE is blocked.');
      const nested = { database: s.db, type: 'query', query: { 'source-query': { 'source-table': people }, aggregation: [['count']] } };
      expectRefused(await run(nested), 'table PEOPLE is blocked.');
    });

    it('refuses an implicit join through a foreign key to it', async () => {
      const viaFk = count(orders, {
        breakout: [['field', s.field('PEOPLE', 'STATE'), { 'source-field': s.field('ORDERS', 'USER_ID') }]],
      });
      expectRefused(await run(viaFk), 'table PEOPLE is blocked.');
      // The admin runs it.
      expect((await run(viaFk, s.admin).expect(202)).body.status).toBe('completed');
    });

    it('refuses a segment that reaches it', async () => {
      const segment = (
        await http()
          .post('/api/segment')
          .set(auth(s.admin))
          .send({
            name: 'Texans',
            table_id: orders,
            definition: {
              'source-table': orders,
              filter: ['=', ['field', s.field('PEOPLE', 'STATE'), { 'source-field': s.field('ORDERS', 'USER_ID') }], 'TX'],
            },
          })
          .expect(200)
      ).body;
      expectRefused(await run(count(orders, { filter: ['segment', segment.id] })), 'table PEOPLE is blocked.');
    });

    it('refuses a metric that reaches it: a legacy metric in an aggregation, and a metric question run or used as a source', async () => {
      const texans = ['=', ['field', s.field('PEOPLE', 'STATE'), { 'source-field': s.field('ORDERS', 'USER_ID') }], 'TX'];
      const metric = (
        await http()
          .post('/api/metric')
          .set(auth(s.admin))
          .send({
            name: 'Texan orders',
            table_id: orders,
            definition: { 'source-table': orders, aggregation: [['count']], filter: texans },
          })
          .expect(200)
      ).body;
      expectRefused(await run(tableQuery(s.db, orders, { aggregation: [['metric', metric.id]] })), 'table PEOPLE is blocked.');
      // The admin runs it: the refusal is the user's, not a broken metric.
      expect((await run(tableQuery(s.db, orders, { aggregation: [['metric', metric.id]] }), s.admin).expect(202)).body.status).toBe(
        'completed',
      );

      const asCard = await http()
        .post('/api/card')
        .set(auth(s.admin))
        .send({
          name: 'Texan orders',
          type: 'metric',
          display: 'scalar',
          visualization_settings: {},
          dataset_query: count(orders, { filter: texans }),
        })
        .expect(200);
      expect(asCard.body.type).toBe('metric');
      expectRefused(await http().post(`/api/card/${asCard.body.id}/query`).set(auth(s.user.session)).send({}), 'table PEOPLE is blocked.');
      expectRefused(
        await run({ database: s.db, type: 'query', query: { 'source-table': `card__${asCard.body.id}` } }),
        'table PEOPLE is blocked.',
      );
    });

    it('refuses a saved question on it: as a source, nested twice, and its own run', async () => {
      const onPeople = await makeCard(s.t, s.admin, count(people));
      const onCard = await makeCard(s.t, s.admin, { database: s.db, type: 'query', query: { 'source-table': `card__${onPeople.id}` } });
      expectRefused(
        await run({ database: s.db, type: 'query', query: { 'source-table': `card__${onPeople.id}` } }),
        'table PEOPLE is blocked.',
      );
      expectRefused(
        await run({ database: s.db, type: 'query', query: { 'source-table': `card__${onCard.id}` } }),
        'table PEOPLE is blocked.',
      );
      expectRefused(await http().post(`/api/card/${onPeople.id}/query`).set(auth(s.user.session)).send({}), 'table PEOPLE is blocked.');
      const onOrders = await makeCard(s.t, s.admin, count(orders));
      expect((await http().post(`/api/card/${onOrders.id}/query`).set(auth(s.user.session)).send({}).expect(202)).body.status).toBe(
        'completed',
      );
    });

    it('gives no native SQL on a database with a blocked table', async () => {
      expect403(await run(nativeQuery(s.db, 'SELECT COUNT(*) FROM PEOPLE')));
      const db = (await http().get(`/api/database/${s.db}`).set(auth(s.user.session)).expect(200)).body;
      expect(db.native_permissions).toBe('none');
    });

    it('leaves it out of table listings and refuses its metadata', async () => {
      const names = (tables: Array<{ name: string }>) => tables.map((t) => t.name);
      const meta = (await http().get(`/api/database/${s.db}/metadata`).set(auth(s.user.session)).expect(200)).body;
      expect(names(meta.tables)).toEqual(expect.arrayContaining(['ORDERS', 'PRODUCTS']));
      expect(names(meta.tables)).not.toContain('PEOPLE');
      const listed = (await http().get('/api/table').set(auth(s.user.session)).expect(200)).body;
      expect(names(listed)).toContain('ORDERS');
      expect(names(listed)).not.toContain('PEOPLE');
      expect403(await http().get(`/api/table/${people}/query_metadata`).set(auth(s.user.session)));
      await http().get(`/api/table/${orders}/query_metadata`).set(auth(s.user.session)).expect(200);
      // Admins still see it.
      const asAdmin = (await http().get(`/api/database/${s.db}/metadata`).set(auth(s.admin)).expect(200)).body;
      expect(names(asAdmin.tables)).toContain('PEOPLE');
    });

    it("gives a user the most generous of their groups' levels, table by table", async () => {
      const both = await makeUserDirect(s.t);
      const group = await makeGroup(s.t, s.admin, both.id);
      const { revision } = (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
      const entry = {
        'view-data': { [schema]: { [people]: 'unrestricted' } },
        'create-queries': { [schema]: { [people]: 'query-builder' } },
      };
      await http()
        .put('/api/permissions/graph')
        .set(auth(s.admin))
        .send({ revision, groups: { [group]: { [s.db]: entry } } })
        .expect(200);
      expect((await run(count(people), both.session).expect(202)).body.status).toBe('completed');
      expect((await run(count(orders), both.session).expect(202)).body.status).toBe('completed');
      expectRefused(await run(count(people)), 'table PEOPLE is blocked.');
    });

    it('refuses to show the SQL of a query on it', async () => {
      expectRefused(await http().post('/api/dataset/native').set(auth(s.user.session)).send(count(people)), 'table PEOPLE is blocked.');
    });
  });

  describe('with saved questions only (create-queries no)', () => {
    beforeAll(() => setAllUsers({ 'view-data': 'unrestricted', 'create-queries': 'no', download: { schemas: 'full' } }));

    it('refuses a new query, naming the table, but runs a saved question', async () => {
      expectRefused(await run(count(orders)), 'new queries on table ORDERS are not allowed.');
      const card = await makeCard(s.t, s.admin, count(orders));
      expect((await http().post(`/api/card/${card.id}/query`).set(auth(s.user.session)).send({}).expect(202)).body.status).toBe(
        'completed',
      );
    });

    it('refuses a new query only on the tables without it when set per table', async () => {
      await setAllUsers({ 'create-queries': { [schema]: { [orders]: 'query-builder' } } });
      expect((await run(count(orders)).expect(202)).body.status).toBe('completed');
      expectRefused(await run(count(products)), 'new queries on table PRODUCTS are not allowed.');
    });
  });

  describe('downloads per table', () => {
    const download = (query: unknown) =>
      http()
        .post('/api/dataset/csv')
        .set(auth(s.user.session))
        .type('form')
        .send({ query: JSON.stringify(query) });
    const csvRows = (text: string) => text.trimEnd().split('\n').length - 1;
    const ids = (tableId: number, table: string) => tableQuery(s.db, tableId, { fields: [['field', s.field(table, 'ID'), null]] });

    beforeAll(() =>
      setAllUsers({
        'view-data': 'unrestricted',
        'create-queries': 'query-builder',
        download: { schemas: { [schema]: { [orders]: 'limited', [products]: 'full' } } },
      }),
    );

    it('gives each table its level, and a query the least of its tables', async () => {
      const allOrders = (await run(count(orders), s.admin).expect(202)).body.data.rows[0][0];
      expect(allOrders).toBeGreaterThan(10_000);
      expect(csvRows((await download(ids(orders, 'ORDERS')).expect(200)).text)).toBe(10_000);
      const allProducts = (await run(count(products), s.admin).expect(202)).body.data.rows[0][0];
      expect(csvRows((await download(ids(products, 'PRODUCTS')).expect(200)).text)).toBe(allProducts);
      expect403(await download(ids(people, 'PEOPLE')));
      // Through the foreign key to PRODUCTS, ORDERS' limit holds.
      const joined = tableQuery(s.db, orders, {
        fields: [
          ['field', s.field('ORDERS', 'ID'), null],
          ['field', s.field('PRODUCTS', 'TITLE'), { 'source-field': s.field('ORDERS', 'PRODUCT_ID') }],
        ],
      });
      expect(csvRows((await download(joined).expect(200)).text)).toBe(10_000);
    });
  });
});
