import { DataSource } from 'typeorm';
import { LoginFailure } from '../../src/schema/login-attempt.entity';
import { THROTTLE } from '../../src/modules/sessions/sessions.service';
import { loadConfig } from '../../src/config/app-config';
import { startTestApp, TestApp } from '../support/test-app';
import { ADMIN, auth, makeUserDirect, setupAdmin } from '../support/factories';
import { until } from '../support/until';

const THROTTLED = /^Too many attempts! You must wait \d+ seconds before trying again\.$/;

describe('sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    // supertest connects from 127.0.0.1, so X-Forwarded-For (from a trusted loopback hop) sets the client address.
    t = await startTestApp({ MAX_SESSION_AGE: '60', TRUST_PROXY: 'loopback' });
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

    // `none` needs an https site URL (cors-cookies.e2e.spec.ts has the refusal)
    await t
      .http()
      .put('/api/setting')
      .set(auth(login.body.id))
      .send({ 'site-url': 'https://analytics.example.com', 'session-cookie-samesite': 'none' })
      .expect(204);
    const again = await t.http().post('/api/session').send({ username: ADMIN.email, password: ADMIN.password }).expect(200);
    expect(again.headers['set-cookie'][0]).toMatch(/; Secure; SameSite=None$/);
    await t.http().put('/api/setting').set(auth(login.body.id)).send({ 'site-url': null, 'session-cookie-samesite': 'lax' }).expect(204);
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
      ds.options.type === 'postgres'
        ? 'UPDATE core_session SET created_at = $1 WHERE user_id = $2'
        : 'UPDATE core_session SET created_at = ? WHERE user_id = ?',
      [ds.options.type === 'postgres' ? old : old.toISOString().replace('T', ' ').replace('Z', ''), u.id],
    );
    await t.http().delete('/api/session').set(auth(fresh.body.id)).expect(401);
  });

  it('throttles repeated failures per username with a message saying when to retry', async () => {
    const u = await makeUserDirect(t);
    for (let i = 0; i < THROTTLE.perUser; i++) {
      await t
        .http()
        .post('/api/session')
        .send({ username: u.email, password: `bad-guess-${i}` })
        .expect(401);
    }
    const res = await t.http().post('/api/session').send({ username: u.email, password: u.password }).expect(400);
    expect(res.body).toEqual({ errors: { username: expect.stringMatching(THROTTLED) } });
    // another user from the same address is not locked out by it
    await t.http().post('/api/session').send({ username: ADMIN.email, password: ADMIN.password }).expect(200);
  });

  // Fifty failed logins, each a memory-hard password check (a dummy one for unknown users): sent ten at a time, and
  // given more than the default time, since on a loaded 2-core machine each check alone can take a second.
  it('throttles per client address across usernames', async () => {
    const ip = '203.0.113.7';
    const spray = (i: number) =>
      t
        .http()
        .post('/api/session')
        .set('X-Forwarded-For', ip)
        .send({ username: `spray-${i}@example.com`, password: 'bad-guess-1' })
        .expect(401);
    for (let i = 0; i < THROTTLE.perIp; i += 10) {
      await Promise.all(Array.from({ length: Math.min(10, THROTTLE.perIp - i) }, (_, k) => spray(i + k)));
    }
    await t.http().post('/api/session').set('X-Forwarded-For', ip).send({ username: ADMIN.email, password: ADMIN.password }).expect(400);
    await t
      .http()
      .post('/api/session')
      .set('X-Forwarded-For', '203.0.113.8')
      .send({ username: ADMIN.email, password: ADMIN.password })
      .expect(200);
  }, 180_000);

  const login = (username: string, password: string, ip: string) =>
    t.http().post('/api/session').set('X-Forwarded-For', ip).send({ username, password });
  const attemptRows = () => t.app.get(DataSource).manager.count(LoginFailure);

  it('refuses a username or password longer than allowed before anything is hashed or recorded', async () => {
    const before = await attemptRows();
    const longUser = await login(`${'x'.repeat(300)}@example.com`, 'whatever-password-1', '192.0.2.10').expect(400);
    expect(longUser.body.errors).toEqual({ username: 'value must be a string of at most 254 characters.' });
    const longPassword = await login(ADMIN.email, 'p'.repeat(1025), '192.0.2.10').expect(400);
    expect(longPassword.body.errors).toEqual({ password: 'value must be a string of at most 1024 characters.' });
    expect(longPassword.body['specific-errors'].password).toHaveLength(1);
    expect(await attemptRows()).toBe(before);
    // the longest username allowed is recorded as a failure like any other (it fits the column on every app DB)
    await login(`${'y'.repeat(242)}@example.com`, 'whatever-password-1', '192.0.2.10').expect(401);
    expect(await attemptRows()).toBe(before + 1);
  });

  it('counts every attempt of a parallel burst: only the allowed number reach the password check', async () => {
    const u = await makeUserDirect(t);
    const ip = '198.51.100.1';
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => login(u.email, `burst-guess-${i}`, ip)));
    const statuses = burst.map((r) => r.status);
    expect(statuses.every((s) => s === 401 || s === 400)).toBe(true);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(THROTTLE.perPair);
    for (const r of burst.filter((x) => x.status === 400)) expect(r.body.errors.username).toMatch(THROTTLED);
    const next = await login(u.email, u.password, ip).expect(400);
    expect(next.body.errors.username).toMatch(THROTTLED);
  });

  it('throttles a username from one address without keeping the user out from another', async () => {
    const u = await makeUserDirect(t);
    for (let i = 0; i < THROTTLE.perPair; i++) await login(u.email, `pair-guess-${i}`, '198.51.100.2').expect(401);
    const throttled = await login(u.email, u.password, '198.51.100.2').expect(400);
    expect(throttled.body.errors.username).toMatch(THROTTLED);
    // From another address the user gets in, after at most a short wait (the per-username back-off).
    let status = 0;
    await until(async () => (status = (await login(u.email, u.password, '198.51.100.3')).status) !== 400, 30_000);
    expect(status).toBe(200);
    // ... and the throttled address stays throttled
    await login(u.email, u.password, '198.51.100.2').expect(400);
  });

  it('slows guesses at one username from many addresses with a growing wait, never a lock-out', async () => {
    const u = await makeUserDirect(t);
    // The waits are seconds long: the clock stands still between steps, so a slow machine cannot outlast them.
    jest.useFakeTimers({ doNotFake: [...ONLY_DATE], now: Date.now() });
    try {
      for (let i = 0; i < THROTTLE.perUser; i++) await login(u.email, `spread-guess-${i}`, `198.51.101.${i + 1}`).expect(401);
      const first = await login(u.email, 'spread-guess-x', '198.51.101.100').expect(400);
      expect(first.body.errors.username).toBe('Too many attempts! You must wait 1 seconds before trying again.');
      // Once the wait is over, one more guess goes through; the wait after it is longer.
      jest.setSystemTime(Date.now() + 1001);
      await login(u.email, 'spread-guess-y', '198.51.101.101').expect(401);
      const second = await login(u.email, 'spread-guess-z', '198.51.101.102').expect(400);
      expect(second.body.errors.username).toBe('Too many attempts! You must wait 2 seconds before trying again.');
      // The right user, from a fresh address, is let in once the short wait is over.
      jest.setSystemTime(Date.now() + 2001);
      await login(u.email, u.password, '198.51.101.103').expect(200);
    } finally {
      jest.useRealTimers();
    }
  });

  it('trusts X-Forwarded-For only from loopback by default', () => {
    const defaults = startTestAppDefaultsTrustProxy();
    expect(defaults).toBe('loopback');
    const trusts = t.app.getHttpAdapter().getInstance().get('trust proxy fn') as (addr: string, i: number) => boolean;
    expect([trusts('127.0.0.1', 0), trusts('10.0.0.5', 0), trusts('192.168.1.20', 0), trusts('fd00::1', 0)]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});

/** Fake timers that fake only Date: the server's timers, I/O and promises run as usual. */
const ONLY_DATE = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

function startTestAppDefaultsTrustProxy(): string {
  return loadConfig({ LOG_TARGET: 'memory' }).trustProxy;
}
