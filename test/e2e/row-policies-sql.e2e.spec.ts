import { randomBytes } from 'node:crypto';
import { QueryCacheService } from '../../src/modules/query-cache/query-cache.service';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { auth, makeUserDirect, MadeUser } from '../support/factories';
import { startSampleApp, type SampleApp } from '../support/sample-app';

jest.setTimeout(180_000);

/**
 * Policies whose question is SQL (Metabase's sandboxing with a native question): the question stands in for the
 * table, its template tags filled in from the user's attributes as bound values. ORDERS is replaced by a question
 * with a number variable (`uid`, a list for u2), PRODUCTS by one with a field filter (`cat`). Every answer is
 * compared with the same restriction written by hand in SQL (run by the admin).
 */
describe('row security policies with SQL questions', () => {
  let s: SampleApp;
  let group: number;
  let u1: MadeUser;
  let u2: MadeUser;
  let uids: number[];
  let ordersCard: number;
  const http = () => s.t.http();
  const f = (table: string, name: string) => s.field(table, name);
  const mbql = (query: object) => ({ database: s.db, type: 'query', query });

  const run = async (session: string, query: object) => {
    const res = await http().post('/api/dataset').set(auth(session)).send(query);
    expect([202, 200]).toContain(res.status);
    return res.body;
  };
  const rows = async (session: string, query: object): Promise<unknown[][]> => {
    const body = await run(session, query);
    if (body.status !== 'completed') throw new Error(`query failed: ${body.error}`);
    return body.data.rows;
  };
  const sql = (query: string) => rows(s.admin, { database: s.db, type: 'native', native: { query } });
  const sorted = (r: unknown[][]) => [...r].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  const sqlCard = async (query: string, tags: Record<string, object>) =>
    (
      await http()
        .post('/api/card')
        .set(auth(s.admin))
        .send({
          name: `Policy ${randomBytes(3).toString('hex')}`,
          display: 'table',
          visualization_settings: {},
          dataset_query: { database: s.db, type: 'native', native: { query, 'template-tags': tags } },
        })
        .expect(200)
    ).body.id as number;
  const policy = async (body: object) => {
    const res = await http()
      .post('/api/mt/gtap')
      .set(auth(s.admin))
      .send({ group_id: group, ...body });
    expect([res.status, res.body.message]).toEqual([200, undefined]);
  };

  beforeAll(async () => {
    s = await startSampleApp();
    group = (
      await http()
        .post('/api/permissions/group')
        .set(auth(s.admin))
        .send({ name: `SQL policies ${randomBytes(3).toString('hex')}` })
        .expect(200)
    ).body.id;
    const g = (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
    g.groups[ALL_USERS_GROUP_ID] = { [s.db]: { data: 'no', native: 'none', download: { schemas: 'none' } } };
    g.groups[group] = { [s.db]: { data: 'unrestricted', native: 'write', download: { schemas: 'full' } } };
    await http().put('/api/permissions/graph').set(auth(s.admin)).send(g).expect(200);

    // Saved with a default, the question runs once as it is saved: its columns are known. The policy's users never get
    // the default: without the attribute their queries fail.
    ordersCard = await sqlCard('SELECT ID, USER_ID, PRODUCT_ID, TOTAL FROM ORDERS WHERE USER_ID IN ({{uid}})', {
      uid: { id: 'u', name: 'uid', 'display-name': 'User', type: 'number', default: '1' },
    });
    const productsCard = await sqlCard('SELECT ID, CATEGORY, TITLE FROM PRODUCTS WHERE {{cat}}', {
      cat: {
        id: 'c',
        name: 'cat',
        'display-name': 'Category',
        type: 'dimension',
        dimension: ['field', f('PRODUCTS', 'CATEGORY'), null],
        'widget-type': 'category',
      },
    });
    await policy({
      table_id: s.table('ORDERS').id,
      card_id: ordersCard,
      attribute_remappings: { uid: ['variable', ['template-tag', 'uid']] },
    });
    await policy({
      table_id: s.table('PRODUCTS').id,
      card_id: productsCard,
      attribute_remappings: { cat: ['dimension', ['template-tag', 'cat']] },
    });

    uids = (await sql('SELECT DISTINCT USER_ID FROM ORDERS ORDER BY USER_ID LIMIT 3')).map((r) => Number(r[0]));
    u1 = await makeUserDirect(s.t, { group_ids: [group] });
    u2 = await makeUserDirect(s.t, { group_ids: [group] });
    await http()
      .put(`/api/user/${u1.id}`)
      .set(auth(s.admin))
      .send({ login_attributes: { uid: String(uids[0]), cat: 'Gizmo' } })
      .expect(200);
    await http()
      .put(`/api/user/${u2.id}`)
      .set(auth(s.admin))
      .send({ login_attributes: { uid: [uids[1], uids[2]], cat: ['Widget', 'Doohickey'] } })
      .expect(200);
  });
  afterAll(() => s.t.close());

  const cases = () => [
    { who: u1, uid: [uids[0]], cat: ["'Gizmo'"] },
    { who: u2, uid: [uids[1], uids[2]], cat: ["'Widget'", "'Doohickey'"] },
  ];

  it("answers a query on the table from the question's rows, its variable bound to the user's attribute", async () => {
    for (const c of cases()) {
      const query = mbql({
        'source-table': s.table('ORDERS').id,
        fields: [
          ['field', f('ORDERS', 'ID'), null],
          ['field', f('ORDERS', 'USER_ID'), null],
          ['field', f('ORDERS', 'TOTAL'), null],
        ],
        'order-by': [['asc', ['field', f('ORDERS', 'ID'), null]]],
      });
      const got = await rows(c.who.session, query);
      expect(got.length).toBeGreaterThan(0);
      expect(got).toEqual(await sql(`SELECT ID, USER_ID, TOTAL FROM ORDERS WHERE USER_ID IN (${c.uid.join(', ')}) ORDER BY ID`));
    }
  });

  it('replaces an implicitly joined table by its question, the field filter bound to the attribute', async () => {
    for (const c of cases()) {
      const query = mbql({
        'source-table': s.table('ORDERS').id,
        aggregation: [['count']],
        breakout: [['field', f('PRODUCTS', 'CATEGORY'), { 'source-field': f('ORDERS', 'PRODUCT_ID') }]],
      });
      const expected = await sql(
        `SELECT P.CATEGORY, COUNT(*) FROM ORDERS O
         LEFT JOIN (SELECT ID, CATEGORY FROM PRODUCTS WHERE CATEGORY IN (${c.cat.join(', ')})) P ON O.PRODUCT_ID = P.ID
         WHERE O.USER_ID IN (${c.uid.join(', ')}) GROUP BY P.CATEGORY`,
      );
      expect(sorted(await rows(c.who.session, query))).toEqual(sorted(expected));
    }
  });

  it("lists a field's values from the question's rows only", async () => {
    const category = f('PRODUCTS', 'CATEGORY');
    const values = async (session: string) =>
      ((await http().get(`/api/field/${category}/values`).set(auth(session)).expect(200)).body.values as unknown[][])
        .map((v) => v[0])
        .sort();
    expect(await values(u1.session)).toEqual(['Gizmo']);
    expect(await values(u2.session)).toEqual(['Doohickey', 'Widget']);
    expect((await values(s.admin)).length).toBe(4);
  });

  it('never lists, searches or summarizes the values of a column the question leaves out', async () => {
    const discount = f('ORDERS', 'DISCOUNT');
    const values = await http().get(`/api/field/${discount}/values`).set(auth(u1.session)).expect(200);
    expect(values.body).toEqual({ field_id: discount, values: [], has_more_values: false });
    const search = await http().get(`/api/field/${discount}/search/${discount}`).query({ value: '1' }).set(auth(u1.session));
    expect([search.status, search.body.message]).toEqual([400, expect.stringMatching(/not a column of the source query/)]);
    const summary = await http().get(`/api/field/${discount}/summary`).set(auth(u1.session));
    expect([summary.status, summary.body.message]).toEqual([400, expect.stringMatching(/not a column of the source query/)]);
  });

  it("shows only the question's columns, and refuses a query for another", async () => {
    const meta = await http()
      .get(`/api/table/${s.table('ORDERS').id}/query_metadata`)
      .set(auth(u1.session))
      .expect(200);
    expect(meta.body.fields.map((x: { name: string }) => x.name).sort()).toEqual(['ID', 'PRODUCT_ID', 'TOTAL', 'USER_ID']);
    const res = await run(u1.session, mbql({ 'source-table': s.table('ORDERS').id, fields: [['field', f('ORDERS', 'DISCOUNT'), null]] }));
    expect(res.status).toBe('failed');
    expect(res.error).toMatch(/not a column of the source query/);
  });

  it('with caching on, answers a saved question with a parameter from the cache for the same user only', async () => {
    const setting = (key: string, value: unknown) => http().put(`/api/setting/${key}`).set(auth(s.admin)).send({ value }).expect(204);
    await setting('enable-query-caching', true);
    // Metabase stores only runs longer than a minute by default: every run here is quicker.
    await setting('query-caching-min-ttl', 0);
    try {
      const total = ['field', f('ORDERS', 'TOTAL'), null];
      const card = (
        await http()
          .post('/api/card')
          .set(auth(s.admin))
          .send({
            name: `Orders by user over a total ${randomBytes(3).toString('hex')}`,
            display: 'table',
            visualization_settings: {},
            cache_ttl: 600,
            dataset_query: mbql({
              'source-table': s.table('ORDERS').id,
              aggregation: [['count']],
              breakout: [['field', f('ORDERS', 'USER_ID'), null]],
              'order-by': [['asc', ['field', f('ORDERS', 'USER_ID'), null]]],
            }),
            parameters: [{ id: 'mt', slug: 'min_total', name: 'Min total', type: 'number/>=', target: ['dimension', total] }],
          })
          .expect(200)
      ).body.id;
      const parameters = [{ id: 'mt', type: 'number/>=', target: ['dimension', total], value: [50] }];
      const runCard = async (session: string) => {
        const res = await http().post(`/api/card/${card}/query`).set(auth(session)).send({ parameters }).expect(202);
        expect(res.body.status).toBe('completed');
        return res.body;
      };
      const expected = (c: ReturnType<typeof cases>[number]) =>
        sql(
          `SELECT USER_ID, COUNT(*) FROM ORDERS WHERE USER_ID IN (${c.uid.join(', ')}) AND TOTAL >= 50 GROUP BY USER_ID ORDER BY USER_ID`,
        );
      const [one, two] = cases();
      const cache = s.t.app.get(QueryCacheService);

      const first = await runCard(one.who.session);
      expect(first.cached).toBeUndefined();
      expect(first.data.rows).toEqual(await expected(one));
      // The parameter narrows the answer: without it the counts are others.
      expect(first.data.rows).not.toEqual(
        await sql(`SELECT USER_ID, COUNT(*) FROM ORDERS WHERE USER_ID IN (${one.uid.join(', ')}) GROUP BY USER_ID ORDER BY USER_ID`),
      );
      await cache.flush();
      // The same card, the same parameter value, right after: the other user's rows, not the cached ones.
      const second = await runCard(two.who.session);
      expect(second.cached).toBeUndefined();
      expect(second.data.rows).toEqual(await expected(two));
      expect(second.data.rows).not.toEqual(first.data.rows);
      await cache.flush();
      // Caching is on: each user's second run is theirs, from the cache.
      const again = await runCard(one.who.session);
      expect(again).toMatchObject({ cached: true, data: { rows: first.data.rows } });
      expect(await runCard(two.who.session)).toMatchObject({ cached: true, data: { rows: second.data.rows } });
    } finally {
      await setting('enable-query-caching', false);
    }
  });

  it("refuses the user's own SQL, a user without the attribute, and an attribute that is not a number", async () => {
    await http()
      .post('/api/dataset')
      .set(auth(u1.session))
      .send({ database: s.db, type: 'native', native: { query: 'SELECT COUNT(*) FROM ORDERS' } })
      .expect(403);
    const count = mbql({ 'source-table': s.table('ORDERS').id, aggregation: [['count']] });
    const bare = await makeUserDirect(s.t, { group_ids: [group] });
    const missing = await run(bare.session, count);
    expect([missing.status, missing.error]).toEqual(['failed', expect.stringContaining('Query requires user attribute `uid`')]);
    await http()
      .put(`/api/user/${bare.id}`)
      .set(auth(s.admin))
      .send({ login_attributes: { uid: '1) OR (1=1' } })
      .expect(200);
    const injected = await run(bare.session, count);
    expect(injected.status).toBe('failed');
    expect(injected.error).toMatch(/^Invalid value for 'User': .* is not a number$/);
  });

  it('validates the policy: each attribute names a variable of the question, whose columns are known', async () => {
    const other = await http()
      .post('/api/permissions/group')
      .set(auth(s.admin))
      .send({ name: `V ${randomBytes(3).toString('hex')}` });
    const res = await http()
      .post('/api/mt/gtap')
      .set(auth(s.admin))
      .send({
        group_id: other.body.id,
        table_id: s.table('ORDERS').id,
        card_id: ordersCard,
        attribute_remappings: { uid: ['variable', ['template-tag', 'nope']] },
      });
    expect([res.status, res.body.message]).toEqual([400, expect.stringMatching(/is mapped to .*nope.*, not a variable of question/)]);
    const byColumn = await http()
      .post('/api/mt/gtap')
      .set(auth(s.admin))
      .send({ group_id: other.body.id, table_id: s.table('ORDERS').id, card_id: ordersCard, attribute_remappings: { uid: 'USER_ID' } });
    expect(byColumn.status).toBe(400);
    const unknown = await sqlCard('SELECT ID FROM ORDERS WHERE USER_ID = {{uid}}', { uid: { id: 'v', name: 'uid', type: 'number' } });
    const noColumns = await http()
      .post('/api/mt/gtap')
      .set(auth(s.admin))
      .send({
        group_id: other.body.id,
        table_id: s.table('ORDERS').id,
        card_id: unknown,
        attribute_remappings: { uid: ['variable', ['template-tag', 'uid']] },
      });
    expect([noColumns.status, noColumns.body.message]).toEqual([400, expect.stringMatching(/has no known columns .* default values/)]);
    const ok = await http()
      .post('/api/mt/gtap')
      .set(auth(s.admin))
      .send({
        group_id: other.body.id,
        table_id: s.table('ORDERS').id,
        card_id: ordersCard,
        attribute_remappings: { uid: ['variable', ['template-tag', 'uid']] },
      });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ card_id: ordersCard, attribute_remappings: { uid: ['variable', ['template-tag', 'uid']] } });
  });
});
