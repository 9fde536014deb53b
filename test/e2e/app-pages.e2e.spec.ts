import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { auth, setupAdmin } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The application's page routes over HTTP, against a stand-in web/dist (WEB_DIST_DIR): app.html at Metabase's
 * application URLs with the pages' headers, the API and /auth/sso left alone, the 503 page when it is not built.
 * The application in a browser: test/web/app-*.spec.ts.
 */
describe('application page routes', () => {
  let t: TestApp;
  let dist: string;
  const before = process.env.WEB_DIST_DIR;
  const APP = '<!doctype html><title>app</title><div id="root"></div><script type="module" src="/app/assets/app-abc.js"></script>';
  const VIEWER = '<!doctype html><title>viewer</title><div id="root"></div>';

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'app.html'), APP);
    fs.writeFileSync(path.join(dist, 'index.html'), VIEWER);
    process.env.WEB_DIST_DIR = dist;
    t = await startTestApp();
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.WEB_DIST_DIR;
    else process.env.WEB_DIST_DIR = before;
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it.each([
    '/',
    '/auth/login',
    '/auth/login?redirect=%2Fadmin',
    '/setup',
    '/admin',
    '/admin/',
    '/admin/people/groups',
    '/admin/settings/authentication/jwt',
    '/account/profile',
    '/collection/root',
    '/collection/5-marketing',
    '/question/12-orders',
    '/question/notebook',
    '/question',
    '/model/3',
    '/metric/4-revenue',
    '/dashboard/7-sales?category=Widget',
    '/auto/dashboard/table/1',
    '/search?q=orders',
    '/browse/databases',
    '/trash',
  ])('%s answers the application page: not framed, no referrer, not cached, nosniff', async (url) => {
    const res = await t.http().get(url).set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8').expect(200);
    expect(res.text).toBe(APP);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("frame-ancestors 'none'");
  });

  it('interactive embedding lets its origins frame the application', async () => {
    const admin = await setupAdmin(t);
    const origins = 'https://app.example.com';
    await t
      .http()
      .put('/api/setting')
      .set(auth(admin))
      .send({ 'enable-embedding-interactive': true, 'embedding-app-origins-interactive': origins })
      .expect(204);
    try {
      const res = await t.http().get('/dashboard/1').expect(200);
      expect(res.headers['content-security-policy']).toBe(`frame-ancestors ${origins}`);
    } finally {
      await t.http().put('/api/setting/enable-embedding-interactive').set(auth(admin)).send({ value: false }).expect(204);
    }
  });

  it('the public and embed pages keep their own entry; the API, /auth/sso and other paths are not the application', async () => {
    expect((await t.http().get('/public/dashboard/x').expect(200)).text).toBe(VIEWER);
    expect((await t.http().get('/api/session/properties').expect(200)).headers['content-type']).toMatch(/^application\/json/);
    expect((await t.http().get('/api/admin').expect(404)).text).toBe('API endpoint does not exist.');
    const sso = await t.http().get('/auth/sso');
    expect(sso.status).toBe(400);
    expect(sso.text).not.toBe(APP);
    expect((await t.http().get('/auth/other').expect(404)).text).toBe('Not found.');
    expect((await t.http().get('/administrator').expect(404)).text).toBe('Not found.');
    expect((await t.http().get('/searching').expect(404)).text).toBe('Not found.');
  });

  it('answers the 503 page naming the build command when app.html is missing', async () => {
    fs.renameSync(path.join(dist, 'app.html'), path.join(dist, 'app.html.off'));
    try {
      for (const url of ['/', '/auth/login', '/admin/people']) {
        const res = await t.http().get(url).expect(503);
        expect(res.text).toContain('npm run build:web');
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers['cache-control']).toBe('no-store');
      }
    } finally {
      fs.renameSync(path.join(dist, 'app.html.off'), path.join(dist, 'app.html'));
    }
  });
});
