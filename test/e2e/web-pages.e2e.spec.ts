import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeCard, tableQuery } from '../support/card-factories';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(180_000);

/**
 * The page routes of the web app, over HTTP, against a stand-in web/dist (WEB_DIST_DIR): the page, its headers, the
 * assets, the download links, and the 503 page when the app is not built. The pages in a browser: test/web/.
 */
describe('web pages routes', () => {
  let s: SampleApp;
  let dist: string;
  const http = () => s.t.http();
  const before = process.env.WEB_DIST_DIR;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><div id="root"></div><script type="module" src="/app/assets/index-abc123.js"></script>',
    );
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    process.env.WEB_DIST_DIR = dist;
    s = await startSampleApp();
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.WEB_DIST_DIR;
    else process.env.WEB_DIST_DIR = before;
    await s?.t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it.each(['/public/question/x', '/public/dashboard/x', '/embed/question/a.b.c', '/embed/dashboard/a.b.c'])(
    '%s answers the app page, frameable anywhere, no referrer, not cached',
    async (url) => {
      const res = await http().get(url).expect(200);
      expect(res.text).toContain('<div id="root">');
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['content-security-policy']).toBe('frame-ancestors *');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
    },
  );

  it('serves the hashed assets with a long cache, and nothing outside assets/', async () => {
    const res = await http().get('/app/assets/index-abc123.js').expect(200);
    expect(res.headers['content-type']).toContain('text/javascript');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    await http().get('/app/assets/missing.js').expect(404);
    await http().get('/app/assets/..%2Findex.html').expect(404);
    await http().get('/app/assets/.hidden').expect(404);
  });

  it('/public/question/<uuid>.csv|.json|.xlsx redirect to the public export, the query string kept', async () => {
    await http().put('/api/setting/enable-public-sharing').set(auth(s.admin)).send({ value: true }).expect(204);
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id, { aggregation: [['count']] }));
    const { uuid } = (await http().post(`/api/card/${card.id}/public_link`).set(auth(s.admin)).expect(200)).body;
    for (const format of ['csv', 'json', 'xlsx']) {
      const res = await http().get(`/public/question/${uuid}.${format}?format_rows=true`).expect(302);
      expect(res.headers.location).toBe(`/api/public/card/${uuid}/query/${format}?format_rows=true`);
    }
    const json = await http().get(`/api/public/card/${uuid}/query/json`).expect(200);
    expect(json.body).toEqual([{ Count: 200 }]);
  });

  it('answers a 503 page naming the build command when web/dist is missing', async () => {
    process.env.WEB_DIST_DIR = path.join(dist, 'nowhere');
    try {
      const res = await http().get('/public/dashboard/x').expect(503);
      expect(res.text).toContain('npm run build:web');
      expect(res.headers['content-type']).toContain('text/html');
      await http().get('/app/assets/index-abc123.js').expect(404);
    } finally {
      process.env.WEB_DIST_DIR = dist;
    }
  });
});
