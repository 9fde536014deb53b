import { auth } from '../support/factories';
import { startSampleApp } from '../support/sample-app';

/** Malformed bodies at the query endpoints (and a few others) get 4xx or the failed shape: never a 500. */
it('answers malformed input without a server error', async () => {
  const { t, admin, db, table } = await startSampleApp();
  const p = table('PRODUCTS').id;
  const bodies: unknown[] = [
    'x',
    5,
    null,
    [],
    {},
    { database: db },
    { database: db, type: 'query' },
    { database: db, type: 'query', query: 'x' },
    { database: db, type: 'query', query: [] },
    { database: db, type: 'native', native: 5 },
    { database: db, type: 'native', native: { query: 5 } },
    { database: db, type: 'native', native: { query: 'SELECT 1', 'template-tags': 'x' } },
    { database: db, type: 'native', native: { query: 'SELECT {{x}}', 'template-tags': { x: 5 } } },
    { database: db, type: 'native', native: { query: 'SELECT {{x}}', 'template-tags': { x: { name: 'x', type: 'bogus' } } } },
    { database: db, type: 'query', query: { 'source-table': p }, parameters: 'x' },
    { database: db, type: 'query', query: { 'source-table': p }, parameters: [5] },
    {
      database: db,
      type: 'query',
      query: { 'source-table': p },
      parameters: [{ type: 'date/single', target: ['dimension', ['field', 999999, null]], value: 'x' }],
    },
    { database: db, type: 'query', query: { 'source-table': p, fields: 'x' } },
    { database: db, type: 'query', query: { 'source-table': p, fields: [['field', 999999, null]] } },
    { database: db, type: 'query', query: { 'source-table': p, filter: ['=', ['field', 999999, null], 1] } },
    { database: db, type: 'query', query: { 'source-table': p, expressions: 'x' } },
    { database: db, type: 'query', query: { 'source-table': p, expressions: { a: ['+', 'x', { y: 1 }] } } },
    { database: db, type: 'query', query: { 'source-table': p, breakout: [['field', 1, { binning: 'x' }]] } },
    {
      database: db,
      type: 'query',
      query: { 'source-table': p, breakout: [['field', 1, { binning: { strategy: 'num-bins', 'num-bins': -5 } }]] },
    },
    { database: db, type: 'query', query: { 'source-table': p, 'order-by': 'x' } },
    { database: db, type: 'query', query: { 'source-table': p, joins: 'x' } },
    { database: db, type: 'query', query: { 'source-table': p, joins: [{ alias: 'a', 'source-table': 999999, condition: ['=', 1, 1] }] } },
    { database: db, type: 'query', query: { 'source-table': 999999 } },
    { database: db, type: 'query', query: { 'source-table': p, aggregation: [['sum']] } },
    { database: db, type: 'query', query: { 'source-table': p, aggregation: [['count'], 'x'] } },
    { database: db, type: 'query', query: { 'source-table': p, page: 'x' } },
    { database: db, type: 'query', query: { 'source-table': p }, constraints: 'x' },
    { database: db, type: 'query', query: { 'source-table': p }, constraints: { 'max-results': -1 } },
    { database: db, type: 'query', query: { 'source-query': { native: 'SELECT 1' } } },
    { database: db, type: 'query', query: { 'source-table': p, filter: ['time-interval', ['field', 1, null], 10 ** 12, 'day'] } },
  ];
  const bad: string[] = [];
  for (const route of [
    '/api/dataset',
    '/api/dataset/native',
    '/api/dataset/pivot',
    '/api/dataset/query_metadata',
    '/api/dataset/duration',
    '/api/dataset/parameter/values',
    '/api/dataset/parameter/search/ab',
  ]) {
    for (const body of bodies) {
      const res = await t.http().post(route).set(auth(admin)).set('Content-Type', 'application/json').send(JSON.stringify(body));
      if (res.status >= 500) bad.push(`${route} ${JSON.stringify(body)} -> ${res.status} ${res.text.slice(0, 100)}`);
    }
  }
  for (const [method, route, body] of [
    ['put', `/api/table/${p}`, { display_name: { x: 1 } }],
    ['put', `/api/field/1`, { settings: 'x' }],
    ['put', '/api/setting/site-name', 'x'],
    ['post', '/api/database', { engine: 'sqlite', name: 'x', details: { db: 5 } }],
    ['put', '/api/permissions/graph', { revision: 0, groups: { 1: 'x' } }],
    ['post', '/api/user', { email: 'a@b.c', password: { a: 1 } }],
    ['post', '/api/api-key', { name: ['x'], group_id: 1 }],
    ['post', '/api/native-query-snippet', { name: 'x', content: { a: 1 } }],
    ['get', `/api/field/1/search/2?value[a]=1`, undefined],
    ['get', `/api/table/${p}/query_metadata?include_hidden_fields[]=true`, undefined],
  ] as Array<[string, string, unknown]>) {
    const req = (t.http() as unknown as Record<string, (r: string) => import('supertest').Test>)[method](route).set(auth(admin));
    const res = body === undefined ? await req : await req.set('Content-Type', 'application/json').send(JSON.stringify(body));
    if (res.status >= 500) bad.push(`${method} ${route} ${JSON.stringify(body)} -> ${res.status} ${res.text.slice(0, 100)}`);
  }
  await t.close();
  expect(bad).toEqual([]);
});
