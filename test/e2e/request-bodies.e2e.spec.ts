import type { Test } from 'supertest';
import { BODY_NUL, BODY_TOO_DEEP, BODY_TOO_LARGE, MAX_JSON_DEPTH } from '../../src/common/http/request-body';
import { URL_NUL } from '../../src/common/http/request-url';
import { makeCard, tableQuery } from '../support/card-factories';
import { makeDashboard } from '../support/dashboard-factories';
import { auth } from '../support/factories';
import { startSampleApp, type SampleApp } from '../support/sample-app';

type Method = 'get' | 'post' | 'put' | 'delete';

/** Request bodies the parser cannot take, and the literal `null` one client sends with every request. */
describe('request bodies', () => {
  let s: SampleApp;
  let cardId: number;
  let dashboardId: number;
  /** The bytes as given: superagent would otherwise serialize a Buffer by the content type (as `{"type":"Buffer",...}`). */
  const send = (method: Method, path: string, body: string | Buffer, type = 'application/json'): Test =>
    (s.t.http()[method](path) as Test)
      .set(auth(s.admin))
      .set('Content-Type', type)
      .serialize((raw: string) => raw)
      .send(body);

  beforeAll(async () => {
    s = await startSampleApp();
    cardId = (await makeCard(s.t, s.admin, tableQuery(s.db, s.table('ORDERS').id), { name: 'Orders' })).id;
    dashboardId = (await makeDashboard(s.t, s.admin, { name: 'Sales' })).id;
  });
  afterAll(() => s.t.close());

  describe('a JSON `null` body is no body', () => {
    /** Each as a client sends it: `Content-Type: application/json` and the body `null`. */
    const routes = (): Array<[Method, string]> => [
      ['get', `/api/card/${cardId}`],
      ['get', `/api/dashboard/${dashboardId}`],
      ['get', '/api/search?q=orders'],
      ['get', `/api/field/${s.field('ORDERS', 'TOTAL')}`],
      ['get', `/api/table/${s.table('ORDERS').id}`],
      ['get', '/api/segment'],
      ['get', '/api/setting'],
      ['get', '/api/bookmark'],
      ['get', '/api/user/current'],
    ];

    it('answers GETs as it answers them without a body', async () => {
      for (const [method, path] of routes()) {
        const plain = await (s.t.http()[method](path) as Test).set(auth(s.admin));
        const withNull = await send(method, path, 'null');
        expect({ path, status: withNull.status }).toEqual({ path, status: 200 });
        expect({ path, body: steady(withNull.body) }).toEqual({ path, body: steady(plain.body) });
      }
    });

    it('runs a body-less POST and DELETE: database sync, a bookmark removed', async () => {
      const sync = await send('post', `/api/database/${s.db}/sync_schema`, 'null');
      expect([sync.status, sync.body]).toEqual([200, { status: 'ok' }]);
      await s.t.http().post(`/api/bookmark/card/${cardId}`).set(auth(s.admin)).expect(200);
      await send('delete', `/api/bookmark/card/${cardId}`, 'null').expect(204);
      expect((await s.t.http().get('/api/bookmark').set(auth(s.admin)).expect(200)).body).toEqual([]);
    });

    it('leaves an endpoint that needs a body saying what is missing, in the validation shape', async () => {
      const res = await send('post', '/api/card', 'null').expect(400);
      expect(res.body.errors).toMatchObject({ name: 'value must be a non-blank string.' });
    });
  });

  it('answers other top-level values where a map is wanted with 400 in the validation shape', async () => {
    for (const raw of ['5', '"Orders"', 'true', '[1,2]', '[]']) {
      const res = await send('post', '/api/card', raw);
      expect({ raw, status: res.status }).toEqual({ raw, status: 400 });
      expect({ raw, shape: Object.keys(res.body).sort() }).toEqual({ raw, shape: ['errors', 'specific-errors'] });
    }
    const put = await send('put', `/api/card/${cardId}`, '"renamed"').expect(400);
    expect(put.body.errors).toEqual({ body: 'value must be a map.' });
    expect((await s.t.http().get(`/api/card/${cardId}`).set(auth(s.admin)).expect(200)).body.name).toBe('Orders');
    // a list is no `{value}` map: the setting is not reset
    await send('put', '/api/setting/site-name', '{"value":"Shop"}').expect(204);
    for (const raw of ['[]', '["x"]', '7'])
      expect((await send('put', '/api/setting/site-name', raw).expect(400)).body).toHaveProperty('specific-errors');
    expect((await s.t.http().get('/api/setting/site-name').set(auth(s.admin)).expect(200)).body).toBe('Shop');
    for (const [method, path] of [
      ['put', `/api/card/${cardId}`],
      ['put', `/api/dashboard/${dashboardId}`],
      ['put', '/api/setting'],
      ['post', '/api/dataset'],
    ] as Array<[Method, string]>) {
      const res = await send(method, path, '[1,2]');
      expect({ path, status: res.status, shape: Object.keys(res.body).sort() }).toEqual({
        path,
        status: 400,
        shape: ['errors', 'specific-errors'],
      });
    }
  });

  it('answers a body nested a million levels deep with 400 naming the depth limit', async () => {
    const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    for (const path of ['/api/session', '/api/card', '/api/dataset']) {
      const res = await send('post', path, deep);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: { message: BODY_TOO_DEEP } });
    }
    const objects = '{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1);
    expect((await send('put', `/api/card/${cardId}`, objects)).body).toEqual({ message: BODY_TOO_DEEP });
  });

  it('answers a NUL character in a body or the URL with 400: the app database cannot store one', async () => {
    const body = await send('put', `/api/dashboard/${dashboardId}`, JSON.stringify({ name: 'a\u0000b' }));
    expect([body.status, body.body]).toEqual([400, { message: BODY_NUL }]);
    for (const path of ['/api/search?q=a%00b', '/api/user?query=%00']) {
      const res = await s.t.http().get(path).set(auth(s.admin));
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: { message: URL_NUL } });
    }
    expect((await s.t.http().get(`/api/dashboard/${dashboardId}`).set(auth(s.admin)).expect(200)).body.name).toBe('Sales');
  });

  it('answers a body over the size limit with 413 naming the limit', async () => {
    const res = await send('post', '/api/card', JSON.stringify({ name: 'x'.repeat(11 * 1024 * 1024) }));
    expect([res.status, res.body]).toEqual([413, { message: BODY_TOO_LARGE }]);
  });

  it('answers a fuzz run of garbage bodies, deep nesting, huge numbers and wrong content types without a 500', async () => {
    const random = seeded(20261127);
    const routes: Array<[Method, string]> = [
      ['post', '/api/session'],
      ['post', '/api/card'],
      ['put', `/api/card/${cardId}`],
      ['post', '/api/dataset'],
      ['post', '/api/dataset/native'],
      ['post', '/api/dashboard'],
      ['put', `/api/dashboard/${dashboardId}`],
      ['put', '/api/setting'],
      ['put', '/api/setting/site-name'],
      ['post', '/api/collection'],
      ['put', `/api/table/${s.table('ORDERS').id}`],
      ['put', `/api/field/${s.field('ORDERS', 'TOTAL')}`],
      ['post', `/api/card/${cardId}/query`],
      ['get', `/api/card/${cardId}`],
      ['delete', `/api/bookmark/card/${cardId}`],
      ['post', '/api/user'],
    ];
    const fails: string[] = [];
    const seen = new Set<number>();
    for (let i = 0; i < 240; i++) {
      const [method, path] = routes[i % routes.length];
      const { body, type } = fuzzBody(random, s.db, s.table('ORDERS').id);
      const res = await send(method, path, body, type);
      seen.add(res.status);
      if (res.status >= 500)
        fails.push(`${method} ${path} ${type} ${body.toString('utf8', 0, 80)} -> ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(fails).toEqual([]);
    // the run reached the parser's refusals and the endpoints behind it
    expect([200, 400, 415].filter((status) => seen.has(status))).toEqual([200, 400, 415]);
  });
});

/** The body without what each read changes (view counts, last-used times). */
function steady(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(steady);
  if (body === null || typeof body !== 'object') return body;
  return Object.fromEntries(
    Object.entries(body)
      .filter(([k]) => k !== 'view_count' && k !== 'last_used_at' && k !== 'last_viewed_at')
      .map(([k, v]) => [k, steady(v)]),
  );
}

/** A small deterministic generator (mulberry32), so a failing fuzz case can be replayed. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  '',
];

function fuzzBody(random: () => number, db: number, tableId: number): { body: Buffer; type: string } {
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
  const type = random() < 0.6 ? 'application/json' : pick(TYPES);
  const depth = 1 + Math.floor(random() * 400); // around the depth limit
  const scalars: unknown[] = [
    null,
    true,
    0,
    -1,
    1e308,
    -1e308,
    2 ** 53 + 1,
    1.5,
    '',
    'x',
    '\u0000',
    '💥',
    'a'.repeat(5000),
    '9'.repeat(400),
  ];
  const values = (): unknown => {
    const r = random();
    if (r < 0.3) return pick(scalars);
    if (r < 0.45) return [pick(scalars), pick(scalars)];
    if (r < 0.6)
      return {
        database: pick([db, -1, 'x', 1e308]),
        type: pick(['query', 'native', 5]),
        query: { 'source-table': pick([tableId, 1e308, null]), limit: pick(scalars) },
      };
    if (r < 0.75)
      return {
        name: pick(scalars),
        display: pick(scalars),
        dataset_query: pick(scalars),
        visualization_settings: pick(scalars),
        value: pick(scalars),
        username: pick(scalars),
        password: pick(scalars),
      };
    return JSON.parse('['.repeat(depth) + ']'.repeat(depth));
  };
  const r = random();
  let text: string;
  if (r < 0.1) {
    // far past the limit, where code that walks a body recursively would run out of stack
    const far = 5_000 + Math.floor(random() * 200_000);
    text = random() < 0.5 ? '['.repeat(far) + ']'.repeat(far) : '{"a":'.repeat(far) + '1' + '}'.repeat(far);
  } else if (r < 0.55) text = JSON.stringify(values());
  else if (r < 0.65)
    text = '9'.repeat(1 + Math.floor(random() * 2000)); // a huge number
  else if (r < 0.75) text = `{"a":${'9'.repeat(500)}e99999}`;
  else if (r < 0.85)
    text = JSON.stringify(values()).slice(0, Math.floor(random() * 40)); // cut short
  else return { body: Buffer.from(Array.from({ length: Math.floor(random() * 300) }, () => Math.floor(random() * 256))), type }; // bytes
  return { body: Buffer.from(text), type };
}
