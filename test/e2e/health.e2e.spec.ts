import { DataSource } from 'typeorm';
import { auth, setupAdmin } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers ok without credentials while the app DB answers, before and after setup', async () => {
    expect((await t.http().get('/api/health').expect(200)).body).toEqual({ status: 'ok' });
    const admin = await setupAdmin(t);
    const res = await t.http().get('/api/health').set(auth(admin)).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: 'ok' });
    // Bad credentials do not matter to a public check.
    await t.http().get('/api/health').set(auth('not-a-session')).expect(200);
  });

  // Last in the file: it closes the app DB for good.
  it('answers 503 once the app DB connection is gone, with or without credentials', async () => {
    await t.app.get(DataSource).destroy();
    const res = await t.http().get('/api/health').expect(503);
    expect(res.body).toEqual({ status: 'Unable to get app-db connection' });
    const withSession = await t.http().get('/api/health').set(auth('some-session-key')).expect(503);
    expect(withSession.body).toEqual({ status: 'Unable to get app-db connection' });
  });
});
