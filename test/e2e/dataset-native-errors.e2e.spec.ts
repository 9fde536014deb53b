import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { TestApp } from '../support/test-app';

/**
 * POST /api/dataset/native answers a query that cannot become SQL with the caller's 400: the query engine's errors
 * reach the wire through the one exception filter, each kind with its exact shape.
 */
describe('POST /api/dataset/native with a query that cannot become SQL', () => {
  let t: TestApp;
  let admin: string;
  let db: number;
  let table: SampleApp['table'];
  let field: SampleApp['field'];
  const native = (body: object) => t.http().post('/api/dataset/native').set(auth(admin)).send(body);
  const products = () => table('PRODUCTS').id;
  const category = () => ['field', field('PRODUCTS', 'CATEGORY'), null];

  beforeAll(async () => {
    ({ t, admin, db, table, field } = await startSampleApp());
  });
  afterAll(() => t.close());

  /** 400 `{message}` as JSON, nothing else in the body. */
  const expectJsonMessage = (res: { status: number; body: unknown; headers: Record<string, string> }, message: string) => {
    expect([res.status, res.body]).toEqual([400, { message }]);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  };

  it('answers a query the compiler refuses (an order the aggregated rows do not have) with its message', async () => {
    const res = await native({
      database: db,
      query: {
        'source-table': products(),
        aggregation: [['count']],
        breakout: [category()],
        'order-by': [['asc', ['field', field('PRODUCTS', 'TITLE'), null]]],
      },
    });
    expectJsonMessage(res, 'Can only order by a breakout or an aggregation in an aggregated query in "order-by".');
  });

  it('answers an order by an aggregation the query does not have, found while compiling, with its message', async () => {
    const res = await native({
      database: db,
      query: { 'source-table': products(), aggregation: [['count']], 'order-by': [['desc', ['aggregation', 3]]] },
    });
    expectJsonMessage(res, 'Unknown aggregation 3 in "order-by".');
  });

  it('answers a source card that does not exist (a preprocessing error) with its message', async () => {
    const res = await native({ database: db, query: { 'source-table': 'card__999999' } });
    expectJsonMessage(res, 'Card 999999 does not exist.');
  });

  it('answers a parameter aimed at no column with its message', async () => {
    const res = await native({
      database: db,
      type: 'query',
      query: { 'source-table': products() },
      parameters: [{ type: 'category', value: 'Gizmo', target: ['dimension', ['expression', 'nope']] }],
    });
    expectJsonMessage(res, 'Invalid parameter target: no expression named "nope"');
  });

  it('answers a query that does not validate as its bad `query` parameter, naming what was sent', async () => {
    const res = await native({ database: db, query: { 'source-table': products(), aggregation: 'count' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: { query: 'Invalid query: query.aggregation: must be a list.' },
      'specific-errors': { query: [expect.stringMatching(/^Invalid query: query\.aggregation: must be a list, received: \{/)] },
    });
  });
});
