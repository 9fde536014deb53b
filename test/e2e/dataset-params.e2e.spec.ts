import { DataSource } from 'typeorm';
import { auth, MadeUser } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { TestApp } from '../support/test-app';
import { grantsChanged } from '../support/grants';

const PARAM = { id: 'abc123', type: 'category', name: 'Category', slug: 'category' };

describe('POST /api/dataset/parameter/values and /search on the Sample Database', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  let db: number;
  let table: SampleApp['table'];
  let field: SampleApp['field'];
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
  });
  afterAll(() => t.close());

  it('lists the values of a list field', async () => {
    const res = await values({ parameter: PARAM, field_ids: [field('PRODUCTS', 'CATEGORY')] }).expect(200);
    expect(res.body).toEqual({ values: [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']], has_more_values: false });
  });

  it('unites, de-duplicates and sorts the values of several fields', async () => {
    const category = field('PRODUCTS', 'CATEGORY');
    const source = field('PEOPLE', 'SOURCE');
    const res = await values({ parameter: PARAM, field_ids: [source, category, category] }).expect(200);
    expect(res.body).toEqual({
      values: [['Affiliate'], ['Doohickey'], ['Facebook'], ['Gadget'], ['Gizmo'], ['Google'], ['Organic'], ['Twitter'], ['Widget']],
      has_more_values: false,
    });
  });

  it('reads distinct values live for fields without a value list, bounded to 1000', async () => {
    const vendor = field('PRODUCTS', 'VENDOR');
    const distinct = (await dataset({ 'source-table': table('PRODUCTS').id, aggregation: [['distinct', ['field', vendor, null]]] })).body
      .data.rows[0][0];
    const res = await values({ parameter: PARAM, field_ids: [vendor] }).expect(200);
    expect(res.body.values).toHaveLength(distinct);
    expect(res.body.has_more_values).toBe(false);
    const flat = res.body.values.map((v: string[]) => v[0]);
    expect(flat).toEqual([...flat].sort());

    const ids = await values({ parameter: PARAM, field_ids: [field('ORDERS', 'ID')] }).expect(200);
    expect(ids.body.values).toHaveLength(1000);
    expect(ids.body.has_more_values).toBe(true);
    expect(ids.body.values.slice(0, 3)).toEqual([[1], [2], [3]]);
  });

  it('searches values containing the text, any case', async () => {
    const category = field('PRODUCTS', 'CATEGORY');
    expect((await search('gi', { parameter: PARAM, field_ids: [category] }).expect(200)).body).toEqual({
      values: [['Gizmo']],
      has_more_values: false,
    });
    expect((await search('GAD', { parameter: PARAM, field_ids: [category] }).expect(200)).body.values).toEqual([['Gadget']]);
    expect((await search('zzz', { parameter: PARAM, field_ids: [category] }).expect(200)).body.values).toEqual([]);
    const byQueryString = await t
      .http()
      .post('/api/dataset/parameter/search')
      .query({ query: 'wid' })
      .set(auth(admin))
      .send({ parameter: PARAM, field_ids: [category] })
      .expect(200);
    expect(byQueryString.body.values).toEqual([['Widget']]);

    const title = field('PRODUCTS', 'TITLE');
    const expected = (
      await dataset({
        'source-table': table('PRODUCTS').id,
        aggregation: [['distinct', ['field', title, null]]],
        filter: ['contains', ['field', title, null], 'CHAIR', { 'case-sensitive': false }],
      })
    ).body.data.rows[0][0];
    expect(expected).toBeGreaterThan(0);
    const live = await search('CHAIR', { parameter: PARAM, field_ids: [title] }).expect(200);
    expect(live.body.values).toHaveLength(expected);
    expect(live.body.values.every((v: string[]) => /chair/i.test(v[0]))).toBe(true);
    // LIKE wildcards in the search text match themselves.
    expect((await search('%', { parameter: PARAM, field_ids: [title] }).expect(200)).body.values).toEqual([]);
  });

  it('answers a static list parameter from its own values', async () => {
    const parameter = {
      ...PARAM,
      values_source_type: 'static-list',
      values_source_config: { values: ['Apple', 'Banana', ['Cherry', 'Red cherry']] },
    };
    expect((await values({ parameter }).expect(200)).body).toEqual({
      values: [['Apple'], ['Banana'], ['Cherry', 'Red cherry']],
      has_more_values: false,
    });
    expect((await search('red', { parameter }).expect(200)).body.values).toEqual([['Cherry', 'Red cherry']]);
  });

  it('keeps human-readable remappings and searches them', async () => {
    const category = field('PRODUCTS', 'CATEGORY');
    const plain = [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']];
    await t
      .http()
      .post(`/api/field/${category}/values`)
      .set(auth(admin))
      .send({ values: plain.map(([v]) => [v, `${v} (cat)`]) })
      .expect(200);
    try {
      const res = await values({ parameter: PARAM, field_ids: [category] }).expect(200);
      expect(res.body.values).toEqual(plain.map(([v]) => [v, `${v} (cat)`]));
      expect((await search('(CAT)', { parameter: PARAM, field_ids: [category] }).expect(200)).body.values).toHaveLength(4);
    } finally {
      await t.http().post(`/api/field/${category}/values`).set(auth(admin)).send({ values: plain }).expect(200);
    }
  });

  it('shows sensitive fields to admins only', async () => {
    const email = field('PEOPLE', 'EMAIL');
    await t.http().put(`/api/field/${email}`).set(auth(admin)).send({ visibility_type: 'sensitive' }).expect(200);
    try {
      await values({ parameter: PARAM, field_ids: [email] }, user.session).expect(403);
      await search('gmail', { parameter: PARAM, field_ids: [email] }, user.session).expect(403);
      const res = await search('@', { parameter: PARAM, field_ids: [email] }).expect(200);
      expect(res.body.values.length).toBeGreaterThan(0);
    } finally {
      await t.http().put(`/api/field/${email}`).set(auth(admin)).send({ visibility_type: 'normal' }).expect(200);
    }
  });

  it('validates the parameter, the field ids and the search text', async () => {
    const message = 'value must be a map with the keys `id` and `type`.';
    for (const parameter of [undefined, 'x', [1], { id: 'a' }, { type: 'category' }]) {
      const res = await values({ parameter, field_ids: [field('PRODUCTS', 'CATEGORY')] }).expect(400);
      expect(res.body.errors.parameter).toBe(message);
      expect(res.body['specific-errors'].parameter[0]).toContain(message.replace(/\.$/, ''));
    }
    expect((await search('gi', { parameter: { id: 'a' } }).expect(400)).body.errors.parameter).toBe(message);
    for (const ids of [[0], ['x'], 5, [-1]]) {
      expect((await values({ parameter: PARAM, field_ids: ids }).expect(400)).body.errors.field_ids).toMatch(
        /value must be (an integer greater than zero|an array)\./,
      );
    }
    expect((await values({ parameter: PARAM }).expect(400)).body.message).toBe('Missing field-ids for parameter');
    expect((await search(' ', { parameter: PARAM, field_ids: [field('PRODUCTS', 'CATEGORY')] }).expect(400)).body.errors.query).toBe(
      'value must be a non-blank string.',
    );
    const noQuery = await t
      .http()
      .post('/api/dataset/parameter/search')
      .set(auth(admin))
      .send({ parameter: PARAM, field_ids: [field('PRODUCTS', 'CATEGORY')] })
      .expect(400);
    expect(noQuery.body.errors.query).toBe('value must be a non-blank string.');
  });

  it('answers 404 for an unknown field and 401 without a session', async () => {
    expect((await values({ parameter: PARAM, field_ids: [field('PRODUCTS', 'CATEGORY'), 999999] }).expect(404)).text).toBe('Not found.');
    expect((await search('a', { parameter: PARAM, field_ids: [999999] }).expect(404)).text).toBe('Not found.');
    expect(
      (
        await t
          .http()
          .post('/api/dataset/parameter/values')
          .send({ parameter: PARAM, field_ids: [1] })
          .expect(401)
      ).text,
    ).toBe('Unauthenticated');
    expect(
      (
        await t
          .http()
          .post('/api/dataset/parameter/search/a')
          .send({ parameter: PARAM, field_ids: [1] })
          .expect(401)
      ).text,
    ).toBe('Unauthenticated');
  });

  it('needs data access to the database of every field', async () => {
    const body = { parameter: PARAM, field_ids: [field('PRODUCTS', 'CATEGORY')] };
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
});
