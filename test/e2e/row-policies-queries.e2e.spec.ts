import { randomBytes } from 'node:crypto';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { dashboardWith } from '../support/dashboard-factories';
import { binary, parseCsv, readXlsx } from '../support/downloads';
import { auth, makeUserDirect, MadeUser } from '../support/factories';
import { startSampleApp, type SampleApp } from '../support/sample-app';

jest.setTimeout(180_000);

/**
 * Filter policies on the Sample Database: ORDERS by USER_ID (attribute `uid`) and PRODUCTS by CATEGORY (`cat`),
 * for one group. Two users of that group with different attributes each see their rows only, wherever the tables
 * are read; every answer is compared with the same restriction written by hand in SQL (run by the admin).
 */
describe('row security policies applied to queries', () => {
  let s: SampleApp;
  let group: number;
  let other: number;
  let u1: MadeUser;
  let u2: MadeUser;
  let uids: number[];
  const http = () => s.t.http();
  const FULL = { data: 'unrestricted', native: 'write', download: { schemas: 'full' } };
  const NONE = { data: 'no', native: 'none', download: { schemas: 'none' } };
  const f = (table: string, name: string) => s.field(table, name);

  async function setGraph(groups: Record<number, unknown>) {
    const g = (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
    for (const [id, perms] of Object.entries(groups)) g.groups[id] = { [s.db]: perms };
    await http().put('/api/permissions/graph').set(auth(s.admin)).send(g).expect(200);
  }
  const newGroup = async () =>
    (
      await http()
        .post('/api/permissions/group')
        .set(auth(s.admin))
        .send({ name: `G ${randomBytes(3).toString('hex')}` })
        .expect(200)
    ).body.id as number;
  const setAttributes = (u: MadeUser, login_attributes: Record<string, unknown>) =>
    http().put(`/api/user/${u.id}`).set(auth(s.admin)).send({ login_attributes }).expect(200);
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
  const inList = (values: unknown[]) => values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ');
  const mbql = (query: object) => ({ database: s.db, type: 'query', query });

  beforeAll(async () => {
    s = await startSampleApp();
    [group, other] = [await newGroup(), await newGroup()];
    await setGraph({ [ALL_USERS_GROUP_ID]: NONE, [group]: FULL, [other]: FULL });
    for (const [table, attribute, column] of [
      ['ORDERS', 'uid', 'USER_ID'],
      ['PRODUCTS', 'cat', 'CATEGORY'],
    ])
      await http()
        .post('/api/mt/gtap')
        .set(auth(s.admin))
        .send({ group_id: group, table_id: s.table(table).id, attribute_remappings: { [attribute]: column } })
        .expect(200);
    // Three buyers: u1 sees one (a string attribute on an integer column), u2 two (a list).
    uids = (await sql('SELECT DISTINCT USER_ID FROM ORDERS ORDER BY USER_ID LIMIT 3')).map((r) => Number(r[0]));
    u1 = await makeUserDirect(s.t, { group_ids: [group] });
    u2 = await makeUserDirect(s.t, { group_ids: [group] });
    await setAttributes(u1, { uid: String(uids[0]), cat: 'Gizmo' });
    await setAttributes(u2, { uid: [uids[1], uids[2]], cat: ['Widget', 'Doohickey'] });
  });
  afterAll(() => s.t.close());

  const cases = () => [
    { who: () => u1, uid: () => [uids[0]], cat: ['Gizmo'] },
    { who: () => u2, uid: () => [uids[1], uids[2]], cat: ['Widget', 'Doohickey'] },
  ];

  it('filters the source table', async () => {
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
      const got = await rows(c.who().session, query);
      expect(got.length).toBeGreaterThan(0);
      expect(got).toEqual(await sql(`SELECT ID, USER_ID, TOTAL FROM ORDERS WHERE USER_ID IN (${inList(c.uid())}) ORDER BY ID`));
    }
  });

  it('filters a joined table in its join condition', async () => {
    for (const c of cases()) {
      const query = mbql({
        'source-table': s.table('PEOPLE').id,
        joins: [
          {
            'source-table': s.table('ORDERS').id,
            alias: 'O',
            condition: ['=', ['field', f('PEOPLE', 'ID'), null], ['field', f('ORDERS', 'USER_ID'), { 'join-alias': 'O' }]],
            fields: 'none',
          },
        ],
        filter: ['<=', ['field', f('PEOPLE', 'ID'), null], uids[2] + 2],
        aggregation: [['count', ['field', f('ORDERS', 'ID'), { 'join-alias': 'O' }]]],
        breakout: [['field', f('PEOPLE', 'ID'), null]],
      });
      const expected = await sql(
        `SELECT P.ID, COUNT(O.ID) FROM PEOPLE P LEFT JOIN ORDERS O ON P.ID = O.USER_ID AND O.USER_ID IN (${inList(c.uid())})
         WHERE P.ID <= ${uids[2] + 2} GROUP BY P.ID ORDER BY P.ID`,
      );
      expect(await rows(c.who().session, query)).toEqual(expected);
    }
  });

  it('filters the target of an implicit join', async () => {
    for (const c of cases()) {
      const query = mbql({
        'source-table': s.table('ORDERS').id,
        aggregation: [['count']],
        breakout: [['field', f('PRODUCTS', 'CATEGORY'), { 'source-field': f('ORDERS', 'PRODUCT_ID') }]],
      });
      const expected = await sql(
        `SELECT P.CATEGORY, COUNT(*) FROM ORDERS O LEFT JOIN PRODUCTS P ON O.PRODUCT_ID = P.ID AND P.CATEGORY IN (${inList(c.cat)})
         WHERE O.USER_ID IN (${inList(c.uid())}) GROUP BY P.CATEGORY ORDER BY P.CATEGORY`,
      );
      expect(await rows(c.who().session, query)).toEqual(expected);
    }
  });

  it('filters the table of a nested source-query, two stages down', async () => {
    for (const c of cases()) {
      const query = mbql({
        'source-query': {
          'source-query': { 'source-table': s.table('ORDERS').id, fields: [['field', f('ORDERS', 'USER_ID'), null]] },
          aggregation: [['count']],
          breakout: [['field', 'USER_ID', { 'base-type': 'type/Integer' }]],
        },
        'order-by': [['asc', ['field', 'USER_ID', { 'base-type': 'type/Integer' }]]],
      });
      const expected = await sql(
        `SELECT USER_ID, COUNT(*) FROM ORDERS WHERE USER_ID IN (${inList(c.uid())}) GROUP BY USER_ID ORDER BY USER_ID`,
      );
      expect(await rows(c.who().session, query)).toEqual(expected);
    }
  });

  it('filters a saved question used as a source, the saved question itself, and its CSV, JSON and XLSX exports', async () => {
    const card = await http()
      .post('/api/card')
      .set(auth(s.admin))
      .send({
        name: `All orders ${randomBytes(3).toString('hex')}`,
        display: 'table',
        visualization_settings: {},
        dataset_query: mbql({ 'source-table': s.table('ORDERS').id }),
      })
      .expect(200);
    for (const c of cases()) {
      const [[count]] = await sql(`SELECT COUNT(*) FROM ORDERS WHERE USER_ID IN (${inList(c.uid())})`);
      const nested = await rows(c.who().session, mbql({ 'source-table': `card__${card.body.id}`, aggregation: [['count']] }));
      expect(nested).toEqual([[count]]);
      const saved = await http().post(`/api/card/${card.body.id}/query`).set(auth(c.who().session)).expect(202);
      expect(saved.body.row_count).toBe(count);
      const csv = await http()
        .post('/api/dataset/csv')
        .set(auth(c.who().session))
        .type('form')
        .send({ query: JSON.stringify(mbql({ 'source-table': s.table('ORDERS').id })) })
        .expect(200);
      expect(parseCsv(csv.text).filter((r) => r.length > 1)).toHaveLength(Number(count) + 1);
      const json = await http().post(`/api/card/${card.body.id}/query/json`).set(auth(c.who().session)).expect(200);
      expect(json.body).toHaveLength(Number(count));
      expect(new Set((json.body as Array<Record<string, unknown>>).map((r) => Number(r['User ID'])))).toEqual(new Set(c.uid()));
      const xlsx = await http()
        .post(`/api/card/${card.body.id}/query/xlsx`)
        .set(auth(c.who().session))
        .buffer(true)
        .parse(binary)
        .expect(200);
      expect((await readXlsx(xlsx.body)).actualRowCount).toBe(Number(count) + 1);
    }
  });

  it('never answers one user from the cache of another', async () => {
    for (const [key, value] of [
      ['enable-query-caching', true],
      ['query-caching-min-ttl', 0],
    ])
      await http().put(`/api/setting/${key}`).set(auth(s.admin)).send({ value }).expect(204);
    const card = await http()
      .post('/api/card')
      .set(auth(s.admin))
      .send({
        name: `Orders by user ${randomBytes(3).toString('hex')}`,
        display: 'table',
        visualization_settings: {},
        cache_ttl: 1,
        dataset_query: mbql({
          'source-table': s.table('ORDERS').id,
          aggregation: [['count']],
          breakout: [['field', f('ORDERS', 'USER_ID'), null]],
        }),
      })
      .expect(200);
    const runCard = async (u: MadeUser) => (await http().post(`/api/card/${card.body.id}/query`).set(auth(u.session)).expect(202)).body;
    const first = await runCard(u1);
    expect(first.data.rows.map((r: unknown[]) => r[0])).toEqual([uids[0]]);
    // Stored in the background: u1 is answered from the cache once it is there.
    let again = await runCard(u1);
    for (let i = 0; i < 50 && !again.cached; i++) {
      await new Promise((r) => setTimeout(r, 100));
      again = await runCard(u1);
    }
    expect(again.cached).toBe(true);
    const second = await runCard(u2);
    expect(second.cached).toBeUndefined();
    expect(second.data.rows.map((r: unknown[]) => r[0])).toEqual([uids[1], uids[2]]);
  });

  it('refuses SQL: the policy took native rights away, and with them given back the engine still refuses', async () => {
    const native = { database: s.db, type: 'native', native: { query: 'SELECT COUNT(*) FROM ORDERS' } };
    await http().post('/api/dataset').set(auth(u1.session)).send(native).expect(403);
    await setGraph({ [group]: FULL });
    try {
      const res = await run(u1.session, native);
      expect(res.status).toBe('failed');
      expect(res.error).toMatch(/Native queries are not allowed on this database/);
    } finally {
      await setGraph({ [group]: { ...FULL, native: 'none' } });
    }
  });

  it('refuses a user without the attribute, or with one that does not parse; another unrestricted group lifts the policy', async () => {
    const orders = mbql({ 'source-table': s.table('ORDERS').id, aggregation: [['count']] });
    const none = await makeUserDirect(s.t, { group_ids: [group] });
    expect(await run(none.session, orders)).toMatchObject({ status: 'failed', error: 'Query requires user attribute `uid`' });
    const bad = await makeUserDirect(s.t, { group_ids: [group] });
    await setAttributes(bad, { uid: 'abc', cat: 'Gizmo' });
    expect((await run(bad.session, orders)).error).toMatch(/`uid` \("abc"\) is not an integer/);
    const lifted = await makeUserDirect(s.t, { group_ids: [group, other] });
    expect(await rows(lifted.session, orders)).toEqual(await sql('SELECT COUNT(*) FROM ORDERS'));
  });

  it("combines the filter policies of a user's two groups on one table by OR: the union of both groups' rows", async () => {
    const byProduct = await newGroup();
    await setGraph({ [byProduct]: { ...FULL, native: 'none' } });
    await http()
      .post('/api/mt/gtap')
      .set(auth(s.admin))
      .send({ group_id: byProduct, table_id: s.table('ORDERS').id, attribute_remappings: { pid: 'PRODUCT_ID' } })
      .expect(200);
    // A product u1's buyer never bought, so that the union is strictly larger than either side.
    const [[pid]] = await sql(
      `SELECT MIN(PRODUCT_ID) FROM ORDERS WHERE PRODUCT_ID NOT IN (SELECT PRODUCT_ID FROM ORDERS WHERE USER_ID = ${uids[0]})`,
    );
    const both = await makeUserDirect(s.t, { group_ids: [group, byProduct] });
    await setAttributes(both, { uid: String(uids[0]), cat: 'Gizmo', pid: String(pid) });
    const query = mbql({
      'source-table': s.table('ORDERS').id,
      fields: [
        ['field', f('ORDERS', 'ID'), null],
        ['field', f('ORDERS', 'USER_ID'), null],
        ['field', f('ORDERS', 'PRODUCT_ID'), null],
      ],
      'order-by': [['asc', ['field', f('ORDERS', 'ID'), null]]],
    });
    const got = await rows(both.session, query);
    const union = await sql(`SELECT ID, USER_ID, PRODUCT_ID FROM ORDERS WHERE USER_ID = ${uids[0]} OR PRODUCT_ID = ${pid} ORDER BY ID`);
    const [[byUser]] = await sql(`SELECT COUNT(*) FROM ORDERS WHERE USER_ID = ${uids[0]}`);
    const [[byPid]] = await sql(`SELECT COUNT(*) FROM ORDERS WHERE PRODUCT_ID = ${pid}`);
    expect(Number(byUser)).toBeGreaterThan(0);
    expect(Number(byPid)).toBeGreaterThan(0);
    expect(got).toEqual(union);
    expect(got.length).toBe(Number(byUser) + Number(byPid));
    // A user of the product group alone sees that product's orders: the OR comes from the two groups.
    const productOnly = await makeUserDirect(s.t, { group_ids: [byProduct] });
    await setAttributes(productOnly, { pid: String(pid) });
    expect(await rows(productOnly.session, query)).toEqual(
      await sql(`SELECT ID, USER_ID, PRODUCT_ID FROM ORDERS WHERE PRODUCT_ID = ${pid} ORDER BY ID`),
    );
  });

  it("filters a dashboard card's query", async () => {
    const card = await http()
      .post('/api/card')
      .set(auth(s.admin))
      .send({
        name: `Orders count ${randomBytes(3).toString('hex')}`,
        display: 'scalar',
        visualization_settings: {},
        dataset_query: mbql({ 'source-table': s.table('ORDERS').id, aggregation: [['count']] }),
      })
      .expect(200);
    const dash = await dashboardWith(s.t, s.admin, [card.body.id]);
    const dashcard = dash.dashcards[0].id;
    for (const c of cases()) {
      const res = await http()
        .post(`/api/dashboard/${dash.id}/dashcard/${dashcard}/card/${card.body.id}/query`)
        .set(auth(c.who().session))
        .send({})
        .expect(202);
      expect(res.body.data.rows).toEqual(await sql(`SELECT COUNT(*) FROM ORDERS WHERE USER_ID IN (${inList(c.uid())})`));
    }
  });

  it('filters every query of a pivot table, its grand total included', async () => {
    const res = await http()
      .post('/api/dataset/pivot')
      .set(auth(u2.session))
      .send({
        ...mbql({
          'source-table': s.table('ORDERS').id,
          aggregation: [['count']],
          breakout: [
            ['field', f('PRODUCTS', 'CATEGORY'), { 'source-field': f('ORDERS', 'PRODUCT_ID') }],
            ['field', f('ORDERS', 'USER_ID'), null],
          ],
        }),
        pivot_rows: [0, 1],
      })
      .expect(202);
    expect(res.body.status).toBe('completed');
    const total = (res.body.data.rows as unknown[][]).filter((r) => r[2] === 3);
    const users = new Set((res.body.data.rows as unknown[][]).filter((r) => r[2] === 0).map((r) => r[1]));
    expect([...users].sort()).toEqual([uids[1], uids[2]]);
    expect(total.map((r) => r[3])).toEqual((await sql(`SELECT COUNT(*) FROM ORDERS WHERE USER_ID IN (${uids[1]}, ${uids[2]})`))[0]);
  });

  it("lists, searches and summarizes a restricted table's values from the user's rows only", async () => {
    const category = f('PRODUCTS', 'CATEGORY');
    const all = await http().get(`/api/field/${category}/values`).set(auth(s.admin)).expect(200);
    expect(all.body.values.length).toBe(4);
    const mine = await http().get(`/api/field/${category}/values`).set(auth(u1.session)).expect(200);
    expect(mine.body).toEqual({ field_id: category, values: [['Gizmo']], has_more_values: false });
    const theirs = await http().get(`/api/field/${category}/values`).set(auth(u2.session)).expect(200);
    expect(theirs.body.values).toEqual([['Doohickey'], ['Widget']]);
    const search = (session: string, value: string) =>
      http().get(`/api/field/${category}/search/${category}`).query({ value }).set(auth(session)).expect(200);
    expect((await search(u1.session, 'G')).body).toEqual([['Gizmo', 'Gizmo']]);
    expect((await search(u1.session, 'W')).body).toEqual([]);
    const [[count]] = await sql(`SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'`);
    const summary = await http().get(`/api/field/${category}/summary`).set(auth(u1.session)).expect(200);
    expect(summary.body).toEqual([
      ['count', Number(count)],
      ['distincts', 1],
    ]);
  });

  describe('a question policy', () => {
    let u3: MadeUser;
    let q: number;
    const uid = () => uids[1];
    const threeColumns = () => [
      ['field', f('ORDERS', 'ID'), null],
      ['field', f('ORDERS', 'USER_ID'), null],
      ['field', f('ORDERS', 'TOTAL'), null],
    ];
    /** A group whose policy on ORDERS is a new question of this query. */
    let lastCard = 0;
    async function questionGroup(query: object, attribute_remappings: object = {}): Promise<number> {
      const group = await newGroup();
      await setGraph({ [group]: { ...FULL, native: 'none' } });
      const card = await http()
        .post('/api/card')
        .set(auth(s.admin))
        .send({
          name: `Policy ${randomBytes(3).toString('hex')}`,
          display: 'table',
          visualization_settings: {},
          dataset_query: mbql(query),
        })
        .expect(200);
      await http()
        .post('/api/mt/gtap')
        .set(auth(s.admin))
        .send({ group_id: group, table_id: s.table('ORDERS').id, card_id: card.body.id, attribute_remappings })
        .expect(200);
      lastCard = card.body.id;
      return group;
    }

    beforeAll(async () => {
      q = await questionGroup(
        { 'source-table': s.table('ORDERS').id, fields: threeColumns() },
        { uid: ['dimension', ['field', f('ORDERS', 'USER_ID'), null]] },
      );
      u3 = await makeUserDirect(s.t, { group_ids: [q] });
      await setAttributes(u3, { uid: uid() });
    });

    it('combines with a question of the same columns as their UNION; refuses one of other columns, naming the groups', async () => {
      const same = await questionGroup({
        'source-table': s.table('ORDERS').id,
        fields: threeColumns(),
        filter: ['=', ['field', f('ORDERS', 'USER_ID'), null], uids[2]],
      });
      const both = await makeUserDirect(s.t, { group_ids: [q, same] });
      await setAttributes(both, { uid: uid() });
      const count = mbql({ 'source-table': s.table('ORDERS').id, aggregation: [['count']] });
      expect(await rows(both.session, count)).toEqual(await sql(`SELECT COUNT(*) FROM ORDERS WHERE USER_ID IN (${uids[1]}, ${uids[2]})`));

      const narrower = await questionGroup({ 'source-table': s.table('ORDERS').id, fields: [['field', f('ORDERS', 'ID'), null]] });
      const clash = await makeUserDirect(s.t, { group_ids: [q, narrower] });
      await setAttributes(clash, { uid: uid() });
      const names = (await http().get('/api/permissions/group').set(auth(s.admin)).expect(200)).body as Array<{ id: number; name: string }>;
      const res = await run(clash.session, count);
      expect(res.status).toBe('failed');
      expect(res.error).toContain(`groups ${[q, narrower].map((id) => names.find((g) => g.id === id)!.name).join(', ')}`);
      expect(res.error).toMatch(/cannot be combined/);
    });

    it('keeps refusing the table when its question is deleted, rather than opening it', async () => {
      const group = await questionGroup({ 'source-table': s.table('ORDERS').id, fields: threeColumns() });
      const u = await makeUserDirect(s.t, { group_ids: [group] });
      const count = mbql({ 'source-table': s.table('ORDERS').id, aggregation: [['count']] });
      expect(await rows(u.session, count)).toEqual(await sql('SELECT COUNT(*) FROM ORDERS'));
      await http().delete(`/api/card/${lastCard}`).set(auth(s.admin)).expect(204);
      const res = await run(u.session, count);
      expect(res.status).toBe('failed');
      expect(res.error).toMatch(/uses a question that no longer exists/);
    });

    it("replaces the table by the question's rows, its attributes filling the question's filter", async () => {
      const query = mbql({
        'source-table': s.table('ORDERS').id,
        fields: [
          ['field', f('ORDERS', 'ID'), null],
          ['field', f('ORDERS', 'TOTAL'), null],
        ],
        'order-by': [['asc', ['field', f('ORDERS', 'ID'), null]]],
      });
      expect(await rows(u3.session, query)).toEqual(await sql(`SELECT ID, TOTAL FROM ORDERS WHERE USER_ID = ${uid()} ORDER BY ID`));
      const byState = mbql({
        'source-table': s.table('ORDERS').id,
        aggregation: [['count']],
        breakout: [['field', f('PEOPLE', 'STATE'), { 'source-field': f('ORDERS', 'USER_ID') }]],
      });
      expect(await rows(u3.session, byState)).toEqual(
        await sql(
          `SELECT P.STATE, COUNT(*) FROM ORDERS O LEFT JOIN PEOPLE P ON O.USER_ID = P.ID WHERE O.USER_ID = ${uid()} GROUP BY P.STATE`,
        ),
      );
    });

    it("shows only the question's columns: in the table's metadata, and a query for another fails", async () => {
      const meta = await http()
        .get(`/api/table/${s.table('ORDERS').id}/query_metadata`)
        .set(auth(u3.session))
        .expect(200);
      expect(meta.body.fields.map((x: { name: string }) => x.name).sort()).toEqual(['ID', 'TOTAL', 'USER_ID']);
      const admins = await http()
        .get(`/api/table/${s.table('ORDERS').id}/query_metadata`)
        .set(auth(s.admin))
        .expect(200);
      expect(admins.body.fields.length).toBeGreaterThan(3);
      const res = await run(u3.session, mbql({ 'source-table': s.table('ORDERS').id, fields: [['field', f('ORDERS', 'DISCOUNT'), null]] }));
      expect(res.status).toBe('failed');
      expect(res.error).toMatch(/not a column of the source query/);
    });
  });
});
