import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { versionInfo } from '../../src/common/version';
import { auth, setupAdmin } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * `GET /`: a browser gets the application (its home page, or setup while no user exists: the old page of text is
 * gone); a script that asks for JSON gets what the server is and whether setup is done.
 */
describe('GET / (the landing answer)', () => {
  let t: TestApp;
  let dist: string;
  const before = process.env.WEB_DIST_DIR;
  const APP = '<!doctype html><title>app</title><div id="root"></div>';

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.writeFileSync(path.join(dist, 'app.html'), APP);
    process.env.WEB_DIST_DIR = dist;
    t = await startTestApp();
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.WEB_DIST_DIR;
    else process.env.WEB_DIST_DIR = before;
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('a browser gets the application, which holds no setup token', async () => {
    const res = await t.http().get('/').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8').expect(200);
    expect(res.text).toBe(APP);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.vary).toMatch(/Accept/);
    const token = (await t.http().get('/api/session/properties').expect(200)).body['setup-token'];
    expect(token).toEqual(expect.any(String));
    expect(res.text).not.toContain(token);
  });

  it('answers HTML to a client that accepts anything, and JSON when Accept asks for it', async () => {
    expect((await t.http().get('/').expect(200)).headers['content-type']).toBe('text/html; charset=utf-8');
    const res = await t.http().get('/').set('Accept', 'application/json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.vary).toMatch(/Accept/);
    expect(res.body).toEqual({
      name: 'analytics-server',
      description: expect.stringContaining('Metabase-compatible'),
      version: versionInfo().tag,
      setup_done: false,
      next_step: { method: 'POST', path: '/api/setup', how: expect.stringContaining('GET /api/session/properties') },
      links: {
        api_docs: '/api/docs',
        openapi: '/api/docs/openapi.json',
        health: '/api/health',
        session_properties: '/api/session/properties',
      },
    });
  });

  it('after setup: JSON says setup is done, with or without a session; other paths are still not found', async () => {
    const admin = await setupAdmin(t);
    expect((await t.http().get('/').expect(200)).text).toBe(APP);
    const json = await t.http().get('/').set('Accept', 'application/json').set(auth(admin)).expect(200);
    expect(json.body).toMatchObject({ setup_done: true, next_step: null });
    await t.http().get('/').set(auth('not-a-session')).expect(200);
    expect((await t.http().get('/no-such-page').expect(404)).text).toBe('Not found.');
  });
});
