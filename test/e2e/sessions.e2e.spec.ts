import { DataSource } from 'typeorm';
import { THROTTLE } from '../../src/modules/sessions/sessions.service';
import { startTestApp, TestApp } from '../support/test-app';
import { ADMIN, auth, makeUserDirect, setupAdmin } from '../support/factories';

describe('sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ MAX_SESSION_AGE: '60' });
    await setupAdmin(t);
  });
  afterAll(() => t.close());

  it('authenticates by cookie and by header, and the cookie follows the SameSite setting', async () => {
    const login = await t.http().post('/api/session').send({ username: ADMIN.email, password: ADMIN.password }).expect(200);
    const cookie = login.headers['set-cookie'][0] as string;
    expect(cookie).toMatch(/^metabase\.SESSION=[0-9a-f-]{36}; Max-Age=3600; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/);
    await t.http().get('/api/setting').set('Cookie', cookie.split(';')[0]).expect(200);
    await t.http().get('/api/setting').set(auth(login.body.id)).expect(200);
    await t.http().get('/api/setting').set(auth('not-a-session')).expect(401);

    await t.http().put('/api/setting/session-cookie-samesite').set(auth(login.body.id)).send({ value: 'none' }).expect(204);
    const again = await t.http().post('/api/session').send({ username: ADMIN.email, password: ADMIN.password }).expect(200);
    expect(again.headers['set-cookie'][0]).toMatch(/; Secure; SameSite=None$/);
    await t.http().put('/api/setting/session-cookie-samesite').set(auth(login.body.id)).send({ value: 'lax' }).expect(204);
  });

  it('validates the login body', async () => {
    const res = await t.http().post('/api/session').send({}).expect(400);
    expect(res.body.errors).toEqual({ username: 'value must be a non-blank string.', password: 'value must be a non-blank string.' });
  });

  it('refuses a wrong password and an unknown user the same way', async () => {
    const wrong = await t.http().post('/api/session').send({ username: ADMIN.email, password: 'wrong-password-1' }).expect(401);
    const unknown = await t.http().post('/api/session').send({ username: 'nobody@example.com', password: 'wrong-password-1' }).expect(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('ends a session once it is older than MAX_SESSION_AGE', async () => {
    const u = await makeUserDirect(t);
    await t.http().get('/api/session/properties').set(auth(u.session)).expect(200);
    await t.http().delete('/api/session').set(auth(u.session)).expect(204);
    const fresh = await t.http().post('/api/session').send({ username: u.email, password: u.password }).expect(200);
    const ds = t.app.get(DataSource);
    const old = new Date(Date.now() - 61 * 60_000);
    await ds.query(
      ds.options.type === 'postgres' ? 'UPDATE core_session SET created_at = $1 WHERE user_id = $2' : 'UPDATE core_session SET created_at = ? WHERE user_id = ?',
      [ds.options.type === 'postgres' ? old : old.toISOString().replace('T', ' ').replace('Z', ''), u.id],
    );
    await t.http().delete('/api/session').set(auth(fresh.body.id)).expect(401);
  });

  it('throttles repeated failures per username with a message saying when to retry', async () => {
    const u = await makeUserDirect(t);
    for (let i = 0; i < THROTTLE.perUser; i++) {
      await t.http().post('/api/session').send({ username: u.email, password: `bad-guess-${i}` }).expect(401);
    }
    const res = await t.http().post('/api/session').send({ username: u.email, password: u.password }).expect(429);
    expect(res.body.errors.username).toMatch(/^Too many attempts! You must wait \d+ seconds before trying again\.$/);
    // another user from the same address is not locked out by it
    await t.http().post('/api/session').send({ username: ADMIN.email, password: ADMIN.password }).expect(200);
  });

  it('throttles per client address across usernames', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < THROTTLE.perIp; i++) {
      await t.http().post('/api/session').set('X-Forwarded-For', ip).send({ username: `spray-${i}@example.com`, password: 'bad-guess-1' }).expect(401);
    }
    await t.http().post('/api/session').set('X-Forwarded-For', ip).send({ username: ADMIN.email, password: ADMIN.password }).expect(429);
    await t.http().post('/api/session').set('X-Forwarded-For', '203.0.113.8').send({ username: ADMIN.email, password: ADMIN.password }).expect(200);
  });
});
