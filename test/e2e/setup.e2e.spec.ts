import { startTestApp, TestApp } from '../support/test-app';
import { ADMIN, auth } from '../support/factories';

describe('setup and sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('shows the setup token only while no user exists, and setup works once', async () => {
    const before = await t.http().get('/api/session/properties').expect(200);
    expect(before.body['setup-token']).toMatch(/^[0-9a-f-]{36}$/);
    expect(before.body['has-user-setup']).toBe(false);
    expect(before.body.version.tag).toMatch(/^v\d/);

    await t.http().post('/api/setup').send({ token: 'wrong', user: ADMIN }).expect(403);
    const res = await t
      .http()
      .post('/api/setup')
      .send({ token: before.body['setup-token'], user: ADMIN, prefs: { site_name: 'Acme' } })
      .expect(200);
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['set-cookie'][0]).toMatch(/^metabase\.SESSION=.+HttpOnly/);

    const after = await t.http().get('/api/session/properties').expect(200);
    expect(after.body['setup-token']).toBeUndefined();
    expect(after.body['has-user-setup']).toBe(true);
    expect(after.body['site-name']).toBe('Acme');
    await t
      .http()
      .post('/api/setup')
      .send({ token: before.body['setup-token'], user: { ...ADMIN, email: 'x@example.com' } })
      .expect(403);
  });

  it('logs in and out', async () => {
    await t.http().post('/api/session').send({ username: ADMIN.email, password: 'nope-nope-1' }).expect(401);
    const login = await t.http().post('/api/session').send({ username: ADMIN.email.toUpperCase(), password: ADMIN.password }).expect(200);
    await t.http().delete('/api/session').set(auth(login.body.id)).expect(204);
    await t.http().delete('/api/session').set(auth(login.body.id)).expect(401);
  });
});
