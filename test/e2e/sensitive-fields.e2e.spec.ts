import { DataSource } from 'typeorm';
import { DatabasesRepository } from '../../src/modules/databases/databases.repository';
import { FieldValues } from '../../src/schema/field-values.entity';
import { SyncService } from '../../src/modules/sync/sync.service';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

/**
 * A field marked sensitive (PRODUCTS.CATEGORY here, a list field with scanned values) is never read by a structured
 * query, is left out of every metadata answer a non-admin gets, and has no stored values.
 */
describe('sensitive fields', () => {
  let s: SampleApp;
  let category: number;
  let products: number;
  const http = () => s.t.http();
  const storedValues = async (fieldId: number) =>
    Number((await s.t.app.get(DataSource).query(`SELECT COUNT(*) AS n FROM metabase_fieldvalues WHERE field_id = ${fieldId}`))[0].n);
  const run = (query: Record<string, unknown>, session: string) =>
    http().post('/api/dataset').set(auth(session)).send({ database: s.db, type: 'query', query });
  const expectUnavailable = (res: { status: number; body: Record<string, unknown> }) => {
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'failed', error_type: 'invalid-query', row_count: 0, data: { rows: [], cols: [] } });
    expect(res.body.error).toMatch(new RegExp(`^Field ${category} \\("CATEGORY"\\) is not available: it is marked sensitive`));
  };

  beforeAll(async () => {
    s = await startSampleApp();
    category = s.field('PRODUCTS', 'CATEGORY');
    products = s.table('PRODUCTS').id;
    // Scanned values exist before it is marked.
    const values = await http().get(`/api/field/${category}/values`).set(auth(s.admin)).expect(200);
    expect(values.body.values.length).toBeGreaterThan(0);
    expect(await storedValues(category)).toBeGreaterThan(0);
    const marked = await http().put(`/api/field/${category}`).set(auth(s.admin)).send({ visibility_type: 'sensitive' }).expect(200);
    expect(marked.body.visibility_type).toBe('sensitive');
  });
  afterAll(() => s.t.close());

  it('marking a field sensitive deletes its stored values, and no rescan or sync stores them again', async () => {
    expect(await storedValues(category)).toBe(0);
    await http().post(`/api/field/${category}/rescan_values`).set(auth(s.admin)).expect(200);
    expect(await storedValues(category)).toBe(0);
    const db = (await s.t.app.get(DatabasesRepository).findById(s.db))!;
    await s.t.app.get(SyncService).refreshValues(db);
    expect(await storedValues(category)).toBe(0);
    // Values stored behind its back (before this release, say) are dropped by the next scan.
    await s.t.app
      .get(DataSource)
      .getRepository(FieldValues)
      .insert({ field_id: category, values: ['Gizmo'], human_readable_values: null, has_more_values: false });
    expect(await storedValues(category)).toBe(1);
    await s.t.app.get(SyncService).refreshValues(db, [category]);
    expect(await storedValues(category)).toBe(0);
    const admin = await http().get(`/api/table/${products}/query_metadata?include_sensitive_fields=true`).set(auth(s.admin)).expect(200);
    expect(admin.body.fields.find((f: { id: number }) => f.id === category)).toMatchObject({ visibility_type: 'sensitive', values: [] });
  });

  it.each([
    ['fields', (c: unknown[]) => ({ fields: [c] })],
    ['a filter', (c: unknown[]) => ({ filter: ['=', c, 'Gizmo'] })],
    ['a breakout', (c: unknown[]) => ({ breakout: [c], aggregation: [['count']] })],
    ['an aggregation', (c: unknown[]) => ({ aggregation: [['distinct', c]] })],
    ['an order-by', (c: unknown[]) => ({ fields: [['field', s.field('PRODUCTS', 'ID'), null]], 'order-by': [['asc', c]] })],
    ['an expression', (c: unknown[]) => ({ expressions: { upper: ['upper', c] }, fields: [['expression', 'upper']] })],
    ['its name', () => ({ fields: [['field', 'CATEGORY', { 'base-type': 'type/Text' }]] })],
  ])('a structured query naming it in %s is an invalid query, for users and admins', async (_where, clause) => {
    const ref = ['field', category, null];
    for (const session of [s.user.session, s.admin]) expectUnavailable(await run({ 'source-table': products, ...clause(ref) }, session));
  });

  it('is refused through joins, explicit and implicit', async () => {
    const orders = s.table('ORDERS').id;
    const productId = s.field('ORDERS', 'PRODUCT_ID');
    const implicit = await run(
      { 'source-table': orders, breakout: [['field', category, { 'source-field': productId }]], aggregation: [['count']] },
      s.user.session,
    );
    expectUnavailable(implicit);
    const join = {
      'source-table': orders,
      joins: [
        {
          alias: 'P',
          'source-table': products,
          condition: ['=', ['field', productId, null], ['field', s.field('PRODUCTS', 'ID'), { 'join-alias': 'P' }]],
          fields: [['field', category, { 'join-alias': 'P' }]],
        },
      ],
      limit: 1,
    };
    expectUnavailable(await run(join, s.user.session));
    // `fields: "all"` of a join leaves it out, as a table's default columns do.
    const all = await run({ ...join, joins: [{ ...join.joins[0], fields: 'all' }] }, s.user.session);
    expect(all.body.status).toBe('completed');
    expect(all.body.data.cols.map((c: { name: string }) => c.name)).not.toContain('P__CATEGORY');
    // SQL of such a query is not shown either: a 400 saying why.
    const native = await http()
      .post('/api/dataset/native')
      .set(auth(s.user.session))
      .send({ database: s.db, query: { 'source-table': products, fields: [['field', category, null]] } });
    expect(native.status).toBe(400);
    expect(JSON.stringify(native.body)).toMatch(/is not available: it is marked sensitive/);
  });

  it('is left out of the default columns of a table, for everybody', async () => {
    for (const session of [s.user.session, s.admin]) {
      const res = await run({ 'source-table': products, limit: 2 }, session).expect(202);
      expect(res.body.status).toBe('completed');
      const names = res.body.data.cols.map((c: { name: string }) => c.name);
      expect(names).toContain('TITLE');
      expect(names).not.toContain('CATEGORY');
    }
  });

  it('is not in any metadata a non-admin gets, whatever the flags', async () => {
    const user = s.user.session;
    const ids = (fields: Array<{ id: unknown }>) => fields.map((f) => f.id);
    const tableMeta = await http()
      .get(`/api/table/${products}/query_metadata?include_sensitive_fields=true&include_hidden_fields=true`)
      .set(auth(user))
      .expect(200);
    expect(ids(tableMeta.body.fields)).not.toContain(category);
    expect(ids(tableMeta.body.fields)).toContain(s.field('PRODUCTS', 'TITLE'));
    // Admins get it when they ask, and only then.
    expect(
      ids(
        (await http().get(`/api/table/${products}/query_metadata?include_sensitive_fields=true`).set(auth(s.admin)).expect(200)).body
          .fields,
      ),
    ).toContain(category);
    expect(ids((await http().get(`/api/table/${products}/query_metadata`).set(auth(s.admin)).expect(200)).body.fields)).not.toContain(
      category,
    );

    expect((await http().get(`/api/field/${category}`).set(auth(user)).expect(403)).text).toBe("You don't have permissions to do that.");
    await http().get(`/api/field/${category}`).set(auth(s.admin)).expect(200);
    await http().get(`/api/field/${category}/summary`).set(auth(user)).expect(403);
    await http().get(`/api/field/${category}/values`).set(auth(user)).expect(403);
    await http().get(`/api/field/${category}/search/${category}?value=G`).set(auth(user)).expect(403);
    await http().get(`/api/field/${category}/remapping/${category}?value=Gizmo`).set(auth(user)).expect(403);

    const dbMeta = await http().get(`/api/database/${s.db}/metadata?include_hidden=true`).set(auth(user)).expect(200);
    expect(dbMeta.body.tables.flatMap((x: { fields: Array<{ id: number }> }) => ids(x.fields))).not.toContain(category);
    const dbFields = await http().get(`/api/database/${s.db}/fields`).set(auth(user)).expect(200);
    expect(ids(dbFields.body)).not.toContain(category);
    const datasetMeta = await http()
      .post('/api/dataset/query_metadata')
      .set(auth(user))
      .send({ database: s.db, type: 'query', query: { 'source-table': products } })
      .expect(200);
    expect(datasetMeta.body.tables.flatMap((x: { fields: Array<{ id: number }> }) => ids(x.fields))).not.toContain(category);
    const related = await http()
      .get(`/api/field/${s.field('PRODUCTS', 'TITLE')}/related`)
      .set(auth(user))
      .expect(200);
    expect(ids(related.body.fields)).not.toContain(category);
  });
});
