import { DataSource } from 'typeorm';
import type { CardSource } from '../../src/query-engine/metadata';
import { serveCards } from '../support/cards';
import { auth, MadeUser } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { TestApp } from '../support/test-app';
import { grantsChanged } from '../support/grants';

const PARAM = { id: 'abc123', type: 'category', name: 'Category', slug: 'category', values_source_type: 'card' };
const MBQL_CARD = 1;
const NATIVE_CARD = 2;
const PEOPLE_CARD = 3;
const FORBIDDEN_CARD = 4;
const ADMINS_ONLY_CARD = 5;
const MISSING_CARD = 999;
const text = (name: string) => ['field', name, { 'base-type': 'type/Text' }];

describe('parameter values from a card (values_source_type "card")', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  let db: number;
  let table: SampleApp['table'];
  let field: SampleApp['field'];
  const param = (config: Record<string, unknown>) => ({ parameter: { ...PARAM, values_source_config: config } });
  const values = (body: unknown, session = admin) =>
    t
      .http()
      .post('/api/dataset/parameter/values')
      .set(auth(session))
      .send(body as object);
  const search = (q: string, body: unknown, session = admin) =>
    t
      .http()
      .post(`/api/dataset/parameter/search/${encodeURIComponent(q)}`)
      .set(auth(session))
      .send(body as object);
  const dataset = (query: unknown) =>
    t.http().post('/api/dataset').set(auth(admin)).send({ database: db, type: 'query', query }).expect(202);

  beforeAll(async () => {
    ({ t, admin, user, db, table, field } = await startSampleApp());
    const mbql = (id: number, tableName: string): CardSource => ({
      id,
      databaseId: db,
      query: { database: db, type: 'query', query: { 'source-table': table(tableName).id } },
    });
    const cards: Record<number, CardSource> = {
      [MBQL_CARD]: mbql(MBQL_CARD, 'PRODUCTS'),
      [NATIVE_CARD]: {
        id: NATIVE_CARD,
        databaseId: db,
        query: { database: db, type: 'native', native: { query: 'SELECT CATEGORY, TITLE FROM PRODUCTS' } },
        resultMetadata: [
          { name: 'CATEGORY', base_type: 'type/Text' },
          { name: 'TITLE', base_type: 'type/Text' },
        ],
      },
      [PEOPLE_CARD]: mbql(PEOPLE_CARD, 'PEOPLE'),
      [ADMINS_ONLY_CARD]: mbql(ADMINS_ONLY_CARD, 'PRODUCTS'),
    };
    serveCards(t.app, cards, (id, caller) => id === FORBIDDEN_CARD || (id === ADMINS_ONLY_CARD && !caller.isSuperuser));
  });
  afterAll(() => t.close());

  it('lists the distinct values of a column of an MBQL card, in order', async () => {
    const res = await values(param({ card_id: MBQL_CARD, value_field: ['field', field('PRODUCTS', 'CATEGORY'), null] })).expect(200);
    expect(res.body).toEqual({ values: [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']], has_more_values: false });
    // field_ids do not matter for a card source.
    const withIds = await values({
      ...param({ card_id: MBQL_CARD, value_field: ['field', field('PRODUCTS', 'CATEGORY'), null] }),
      field_ids: [field('PEOPLE', 'SOURCE')],
    }).expect(200);
    expect(withIds.body.values).toEqual(res.body.values);
  });

  it('lists the values of a result column of a native card, by name', async () => {
    const res = await values(param({ card_id: NATIVE_CARD, value_field: text('CATEGORY') }), user.session).expect(200);
    expect(res.body).toEqual({ values: [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']], has_more_values: false });
  });

  it('pairs each value with its label', async () => {
    const id = field('PRODUCTS', 'ID');
    const title = field('PRODUCTS', 'TITLE');
    const expected = (
      await dataset({
        'source-table': table('PRODUCTS').id,
        fields: [
          ['field', id, null],
          ['field', title, null],
        ],
        'order-by': [['asc', ['field', id, null]]],
      })
    ).body.data.rows;
    expect(expected.length).toBeGreaterThan(100);
    const res = await values(param({ card_id: MBQL_CARD, value_field: ['field', id, null], label_field: ['field', title, null] })).expect(
      200,
    );
    expect(res.body).toEqual({ values: expected, has_more_values: false });

    const native = await values(param({ card_id: NATIVE_CARD, value_field: text('TITLE'), label_field: text('CATEGORY') })).expect(200);
    expect(native.body.values.length).toBeGreaterThan(100);
    expect(
      native.body.values.every(
        (p: unknown[]) => p.length === 2 && typeof p[0] === 'string' && ['Doohickey', 'Gadget', 'Gizmo', 'Widget'].includes(p[1] as string),
      ),
    ).toBe(true);
  });

  it('searches the values (and labels) containing the text, any case', async () => {
    const category = { card_id: MBQL_CARD, value_field: ['field', field('PRODUCTS', 'CATEGORY'), null] };
    expect((await search('GAD', param(category)).expect(200)).body).toEqual({ values: [['Gadget']], has_more_values: false });
    expect((await search('gi', param(category)).expect(200)).body.values).toEqual([['Gizmo']]);
    expect((await search('zzz', param(category)).expect(200)).body.values).toEqual([]);
    // LIKE wildcards in the search text match themselves.
    expect((await search('%', param(category)).expect(200)).body.values).toEqual([]);
    expect((await search('wID', param({ card_id: NATIVE_CARD, value_field: text('CATEGORY') })).expect(200)).body.values).toEqual([
      ['Widget'],
    ]);
    const byQueryString = await t
      .http()
      .post('/api/dataset/parameter/search')
      .query({ query: 'doo' })
      .set(auth(admin))
      .send(param(category))
      .expect(200);
    expect(byQueryString.body.values).toEqual([['Doohickey']]);

    const title = field('PRODUCTS', 'TITLE');
    const chairs = (
      await dataset({
        'source-table': table('PRODUCTS').id,
        aggregation: [['distinct', ['field', title, null]]],
        filter: ['contains', ['field', title, null], 'chair', { 'case-sensitive': false }],
      })
    ).body.data.rows[0][0];
    expect(chairs).toBeGreaterThan(0);
    const titles = await search('CHAIR', param({ card_id: NATIVE_CARD, value_field: text('TITLE') })).expect(200);
    expect(titles.body.values).toHaveLength(chairs);
    expect(titles.body.values.every((v: string[]) => /chair/i.test(v[0]))).toBe(true);

    // With a label, a value matches by its label too; numbers are searched as text.
    const gizmos = await search('gizmo', param({ card_id: NATIVE_CARD, value_field: text('TITLE'), label_field: text('CATEGORY') })).expect(
      200,
    );
    expect(gizmos.body.values.length).toBeGreaterThan(10);
    expect(gizmos.body.values.every((p: string[]) => p[1] === 'Gizmo')).toBe(true);
    const ids = await search('123', param({ card_id: MBQL_CARD, value_field: ['field', field('PRODUCTS', 'ID'), null] })).expect(200);
    expect(ids.body.values).toEqual([[123]]);
  });

  it('answers at most 1000 values and says when there are more', async () => {
    const email = ['field', field('PEOPLE', 'EMAIL'), null];
    const total = (await dataset({ 'source-table': table('PEOPLE').id, aggregation: [['distinct', email]] })).body.data.rows[0][0];
    expect(total).toBeGreaterThan(1000);
    const res = await values(param({ card_id: PEOPLE_CARD, value_field: email })).expect(200);
    expect(res.body.has_more_values).toBe(true);
    expect(res.body.values).toHaveLength(1000);
    expect(new Set(res.body.values.map((v: string[]) => v[0])).size).toBe(1000);

    const gmail = (
      await dataset({
        'source-table': table('PEOPLE').id,
        aggregation: [['distinct', email]],
        filter: ['contains', email, 'GMAIL', { 'case-sensitive': false }],
      })
    ).body.data.rows[0][0];
    const found = await search('GMAIL', param({ card_id: PEOPLE_CARD, value_field: email })).expect(200);
    expect(found.body.values).toHaveLength(Math.min(gmail, 1000));
    expect(found.body.has_more_values).toBe(gmail > 1000);
  });

  it('answers 404 for a card that does not exist', async () => {
    const body = param({ card_id: MISSING_CARD, value_field: text('CATEGORY') });
    expect((await values(body).expect(404)).text).toBe('Not found.');
    expect((await search('a', body).expect(404)).text).toBe('Not found.');
  });

  it('answers 403 for a card the caller may not read', async () => {
    expect((await values(param({ card_id: FORBIDDEN_CARD, value_field: text('CATEGORY') })).expect(403)).text).toBe(
      "You don't have permissions to do that.",
    );
    const adminsOnly = param({ card_id: ADMINS_ONLY_CARD, value_field: ['field', field('PRODUCTS', 'CATEGORY'), null] });
    await search('gi', adminsOnly, user.session).expect(403);
    expect((await search('gi', adminsOnly).expect(200)).body.values).toEqual([['Gizmo']]);
  });

  it("needs data access to the card's database", async () => {
    const body = param({ card_id: NATIVE_CARD, value_field: text('CATEGORY') });
    expect((await values(body, user.session).expect(200)).body.values).toHaveLength(4);
    const ds = t.app.get(DataSource);
    await ds.query("UPDATE database_permission SET data = 'no', native = 'none'");
    await grantsChanged(t.app);
    try {
      expect((await values(body, user.session).expect(403)).text).toBe("You don't have permissions to do that.");
      await search('gi', body, user.session).expect(403);
      await values(body, admin).expect(200);
    } finally {
      await ds.query("UPDATE database_permission SET data = 'unrestricted', native = 'write'");
      await grantsChanged(t.app);
    }
  });

  it('validates values_source_config', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [undefined, /^values_source_config\.card_id must be an integer greater than zero\.$/],
      [{ value_field: text('CATEGORY') }, /card_id must be an integer greater than zero/],
      [{ card_id: 'x', value_field: text('CATEGORY') }, /card_id must be an integer greater than zero/],
      [{ card_id: 0, value_field: text('CATEGORY') }, /card_id must be an integer greater than zero/],
      [{ card_id: NATIVE_CARD }, /^values_source_config\.value_field must be a field reference such as \["field", 12, null\]/],
      [{ card_id: NATIVE_CARD, value_field: 'CATEGORY' }, /value_field must be a field reference/],
      [{ card_id: NATIVE_CARD, value_field: ['field'] }, /value_field must be a field reference/],
      [{ card_id: NATIVE_CARD, value_field: text('CATEGORY'), label_field: ['expression', 'x'] }, /label_field must be a field reference/],
    ];
    for (const [config, message] of cases) {
      const res = await values({ parameter: { ...PARAM, values_source_config: config } }).expect(400);
      expect(res.body.errors.parameter).toMatch(message);
      expect(res.body['specific-errors'].parameter[0]).toContain('received:');
    }
    await search('a', { parameter: { ...PARAM, values_source_config: { card_id: MBQL_CARD } } }).expect(400);
  });

  it('answers 400 with the reason when the value field is not in the card', async () => {
    const res = await values(param({ card_id: NATIVE_CARD, value_field: text('NO_SUCH_COLUMN') })).expect(400);
    expect(res.body.message).toMatch(/NO_SUCH_COLUMN/);
  });
});
