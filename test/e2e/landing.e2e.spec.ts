import { versionInfo } from '../../src/common/version';
import { auth, setupAdmin } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

describe('GET / (the landing page)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('before setup: an HTML page naming the server, its version, the next step and the docs', async () => {
    const res = await t.http().get('/').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.vary).toMatch(/Accept/);
    expect(res.text).toContain(`<h1>analytics-server <small>${versionInfo().tag}</small></h1>`);
    expect(res.text).toContain('Setup is not done yet');
    expect(res.text).toContain('<code>POST /api/setup</code>');
    expect(res.text).toContain('GET /api/session/properties');
    expect(res.text).toContain('href="/api/docs"');
    expect(res.text).not.toMatch(/<script/i);
    // The page names where the token is, never the token itself.
    const token = (await t.http().get('/api/session/properties').expect(200)).body['setup-token'];
    expect(res.text).not.toContain(token);
  });

  it('answers HTML to a client that accepts anything, and JSON when Accept asks for it', async () => {
    expect((await t.http().get('/').expect(200)).headers['content-type']).toBe('text/html; charset=utf-8');
    const res = await t.http().get('/').set('Accept', 'application/json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      name: 'analytics-server',
      description: expect.stringContaining('Metabase-compatible'),
      version: versionInfo().tag,
      setup_done: false,
      next_step: { method: 'POST', path: '/api/setup', how: expect.stringContaining('GET /api/session/properties') },
      links: { api_docs: '/api/docs', openapi: '/api/docs/openapi.json', health: '/api/health', session_properties: '/api/session/properties' },
    });
  });

  it('after setup: says setup is done, with or without a session; other paths are still not found', async () => {
    const admin = await setupAdmin(t);
    const html = await t.http().get('/').expect(200);
    expect(html.text).toContain('Setup is done');
    expect(html.text).not.toContain('Setup is not done');
    const json = await t.http().get('/').set('Accept', 'application/json').set(auth(admin)).expect(200);
    expect(json.body).toMatchObject({ setup_done: true, next_step: null });
    await t.http().get('/').set(auth('not-a-session')).expect(200);
    expect((await t.http().get('/no-such-page').expect(404)).text).toBe('Not found.');
  });
});
