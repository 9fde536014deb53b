import { FORM_REFUSED } from '../../src/common/http/accepts-form';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * With `session-cookie-samesite=none` a page on another site can make the browser post a form here, with the
 * session cookie. Forms are taken only where a form is the interface (the downloads); elsewhere they are refused.
 */
describe('form posts', () => {
  let t: TestApp;
  let admin: string;
  let cookie: string;
  let wh: E2eWarehouse;
  let dbId: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    // SameSite=None needs an https site (the cookie is Secure then): the weakest cookie a cross-site embed can ask for.
    await t
      .http()
      .put('/api/setting')
      .set(auth(admin))
      .send({ 'site-url': 'https://analytics.example.com', 'session-cookie-samesite': 'none' })
      .expect(204);
    const login = await t.http().post('/api/session').send({ username: ADMIN.email, password: ADMIN.password }).expect(200);
    expect(login.headers['set-cookie'][0]).toMatch(/SameSite=None/);
    cookie = (login.headers['set-cookie'][0] as string).split(';')[0];
    wh = await e2eWarehouse('sqlite', t.config.dataDir, { statements: ['CREATE TABLE t (n INTEGER)', 'INSERT INTO t VALUES (7)'] });
    dbId = (
      await t.http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Forms', details: wh.details }).expect(200)
    ).body.id;
  });
  afterAll(async () => {
    await t?.close();
    await wh?.drop();
  });

  const siteName = async () => (await t.http().get('/api/setting/site-name').set(auth(admin)).expect(200)).body;
  const userCount = async () => (await t.http().get('/api/user').set(auth(admin)).expect(200)).body.total;

  function expectRefused(res: { status: number; body: { message?: string } }) {
    expect([res.status, res.body]).toEqual([400, { message: FORM_REFUSED }]);
  }

  it('refuses a URL-encoded form that changes a setting with the session cookie, and changes nothing', async () => {
    expectRefused(await t.http().put('/api/setting/site-name').set('Cookie', cookie).type('form').send({ value: 'Hacked' }));
    expect(await siteName()).toBe('Test Co');
    // the same change as JSON goes through
    await t.http().put('/api/setting/site-name').set('Cookie', cookie).send({ value: 'Renamed Co' }).expect(204);
    expect(await siteName()).toBe('Renamed Co');
  });

  it('refuses multipart and text/plain posts, the other types a form can send', async () => {
    const before = await userCount();
    expectRefused(await t.http().post('/api/user').set('Cookie', cookie).field('email', 'evil@example.com').field('first_name', 'E'));
    expectRefused(
      await t
        .http()
        .post('/api/user')
        .set('Cookie', cookie)
        .set('Content-Type', 'text/plain')
        .send('{"email":"evil@example.com","password":"Xx-1234567-zz"}'),
    );
    expectRefused(
      await t.http().post('/api/user').set('Cookie', cookie).type('form').send({ email: 'evil@example.com', password: 'Xx-1234567-zz' }),
    );
    expect(await userCount()).toBe(before);
  });

  it('refuses an empty form post to an endpoint without a body', async () => {
    expectRefused(await t.http().delete('/api/session').set('Cookie', cookie).type('form').send(''));
    await t.http().get('/api/user/current').set('Cookie', cookie).expect(200);
  });

  it('refuses forms from header-authenticated callers too, and a form login', async () => {
    expectRefused(await t.http().put('/api/setting/site-name').set(auth(admin)).type('form').send({ value: 'Hacked' }));
    expectRefused(await t.http().post('/api/session').type('form').send({ username: ADMIN.email, password: ADMIN.password }));
    expect(await siteName()).not.toBe('Hacked');
  });

  it('still takes a form where a form is the interface: the download endpoint', async () => {
    const query = JSON.stringify({ database: dbId, type: 'native', native: { query: 'SELECT n FROM t' } });
    const res = await t.http().post('/api/dataset/csv').set('Cookie', cookie).type('form').send({ query }).expect(200);
    expect(res.text.trim().split(/\r?\n/)).toEqual(['n', '7']);
  });
});
