import { DataSource } from 'typeorm';
import { auth, MadeUser } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { TestApp } from '../support/test-app';
import { grantsChanged } from '../support/grants';

interface TableView {
  id: number;
  name: string;
  db_id: number;
  db: { id: number };
  fields: Array<{ id: number; name: string; table_id: number; dimension_options: string[]; values?: unknown[] }>;
}

describe('POST /api/dataset/query_metadata on the Sample Database', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  let db: number;
  let table: SampleApp['table'];
  let field: SampleApp['field'];
  const post = (body: unknown, session = admin) =>
    t
      .http()
      .post('/api/dataset/query_metadata')
      .set(auth(session))
      .send(body as object);
  const names = (tables: TableView[]) => tables.map((x) => x.name).sort();

  beforeAll(async () => {
    ({ t, admin, user, db, table, field } = await startSampleApp());
  });
  afterAll(() => t.close());

  it('answers the database and the source table with the tables its foreign keys reach', async () => {
    const res = await post({ database: db, type: 'query', query: { 'source-table': table('ORDERS').id, aggregation: [['count']] } }).expect(
      200,
    );
    expect(Object.keys(res.body).sort()).toEqual(['databases', 'fields', 'tables']);
    expect(res.body.databases).toHaveLength(1);
    expect(res.body.databases[0]).toMatchObject({ id: db, name: 'Sample Database' });
    const tables: TableView[] = res.body.tables;
    expect(names(tables)).toEqual(['ORDERS', 'PEOPLE', 'PRODUCTS']);
    const orders = tables.find((x) => x.name === 'ORDERS')!;
    expect(orders).toMatchObject({ id: table('ORDERS').id, db_id: db, db: { id: db } });
    expect(orders.fields.map((f) => f.id).sort((a, b) => a - b)).toEqual(
      table('ORDERS')
        .fields.map((f) => f.id)
        .sort((a, b) => a - b),
    );
    expect(orders.fields.every((f) => f.table_id === orders.id && Array.isArray(f.dimension_options))).toBe(true);
    expect(tables.map((x) => x.id)).toEqual([...tables.map((x) => x.id)].sort((a, b) => a - b));
    const productId = orders.fields.find((f) => f.name === 'PRODUCT_ID')! as unknown as { target: { id: number } };
    expect(productId.target.id).toBe(field('PRODUCTS', 'ID'));
    expect(res.body.fields).toEqual([]);
  });

  it('follows joins, nested queries and the `{database, query}` form', async () => {
    const joined = {
      'source-query': { 'source-table': table('REVIEWS').id },
      joins: [
        {
          alias: 'A',
          'source-table': table('PEOPLE').id,
          condition: ['=', ['field', 'ID', { 'base-type': 'type/Integer' }], ['field', field('PEOPLE', 'ID'), { 'join-alias': 'A' }]],
        },
      ],
    };
    const res = await post({ database: db, query: joined }).expect(200);
    expect(names(res.body.tables)).toEqual(['PEOPLE', 'PRODUCTS', 'REVIEWS']);
    expect(names(res.body.tables)).not.toContain('ORDERS');
    const whole = await post({
      database: db,
      query: { database: db, type: 'query', query: { 'source-table': table('PRODUCTS').id } },
    }).expect(200);
    expect(names(whole.body.tables)).toEqual(['PRODUCTS']);
  });

  it('lists the fields of native field filters', async () => {
    const res = await post({
      database: db,
      type: 'native',
      native: {
        query: 'SELECT * FROM PRODUCTS WHERE {{cat}}',
        'template-tags': {
          cat: {
            name: 'cat',
            'display-name': 'Cat',
            type: 'dimension',
            dimension: ['field', field('PRODUCTS', 'CATEGORY'), null],
            'widget-type': 'category',
          },
        },
      },
    }).expect(200);
    expect(res.body.tables).toEqual([]);
    expect(res.body.fields.map((f: { id: number }) => f.id)).toEqual([field('PRODUCTS', 'CATEGORY')]);
    expect(res.body.databases[0].id).toBe(db);
  });

  it('leaves out tables of other or unknown ids', async () => {
    const res = await post({ database: db, type: 'query', query: { 'source-table': 999999 } }).expect(200);
    expect(res.body.tables).toEqual([]);
    expect(res.body.databases).toHaveLength(1);
  });

  it('validates the body', async () => {
    const positive = 'value must be an integer greater than zero.';
    expect((await post({ query: { 'source-table': 1 } }).expect(400)).body.errors.database).toBe(positive);
    expect((await post({ database: 'x', query: {} }).expect(400)).body.errors.database).toBe(positive);
    expect((await post({ database: 0, query: {} }).expect(400)).body.errors.database).toBe(positive);
    expect((await post({ database: db, query: 'x' }).expect(400)).body.errors.query).toBe('value must be a map.');
    expect((await post({ database: db }).expect(400)).body.errors.query).toBe('value must be a map.');
    expect((await post({ database: db, type: 'native' }).expect(400)).body.errors.native).toBe('value must be a map.');
    expect((await post({ database: 99999, query: {} }).expect(404)).text).toBe('Not found.');
    expect((await t.http().post('/api/dataset/query_metadata').send({ database: db, query: {} }).expect(401)).text).toBe('Unauthenticated');
  });

  it('omits what the caller may not read', async () => {
    const body = { database: db, type: 'query', query: { 'source-table': table('ORDERS').id } };
    expect((await post(body, user.session).expect(200)).body.tables).toHaveLength(3);
    const ds = t.app.get(DataSource);
    await ds.query("UPDATE database_permission SET data = 'no', native = 'none'");
    await grantsChanged(t.app);
    try {
      expect((await post(body, user.session).expect(200)).body).toEqual({ databases: [], tables: [], fields: [] });
      expect((await post(body, admin).expect(200)).body.tables).toHaveLength(3);
    } finally {
      await ds.query("UPDATE database_permission SET data = 'unrestricted', native = 'write'");
      await grantsChanged(t.app);
    }
  });
});
