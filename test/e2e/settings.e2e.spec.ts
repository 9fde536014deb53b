import { startTestApp, TestApp } from '../support/test-app';
import { auth, makeUserDirect, setupAdmin } from '../support/factories';
import { until } from '../support/until';
import { SettingsService } from '../../src/modules/settings/settings.service';
import { NOT_AT_HAND } from '../../src/common/settings/settings-reader';

describe('settings', () => {
  let t: TestApp;
  let admin: string;
  let user: string;
  beforeAll(async () => {
    t = await startTestApp({ SETTINGS_REFRESH_SECONDS: '1' });
    admin = await setupAdmin(t);
    user = (await makeUserDirect(t)).session;
  });
  afterAll(() => t.close());

  it('lists every API-visible setting for admins only', async () => {
    const res = await t.http().get('/api/setting').set(auth(admin)).expect(200);
    const keys = res.body.map((s: { key: string }) => s.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'site-name',
        'enable-public-sharing',
        'embedding-secret-key',
        'jwt-shared-secret',
        'saml-enabled',
        'session-cookie-samesite',
      ]),
    );
    expect(keys).not.toContain('setup-token');
    const siteName = res.body.find((s: { key: string }) => s.key === 'site-name');
    expect(siteName).toMatchObject({ value: 'Test Co', default: 'Analytics', is_env_setting: false, env_name: 'MB_SITE_NAME' });
    await t.http().get('/api/setting').set(auth(user)).expect(403);
    await t.http().get('/api/setting').expect(401);
  });

  it('peeks at a setting without waiting only while the cached settings are fresh, and answers what get answers', async () => {
    const settings = t.app.get(SettingsService);
    await t.http().put('/api/setting/site-name').set(auth(admin)).send({ value: 'Peeked Co' }).expect(204);
    settings.markStale();
    expect(settings.peek('site-name')).toBe(NOT_AT_HAND);
    expect(await settings.get('site-name')).toBe('Peeked Co');
    expect(settings.peek('site-name')).toBe('Peeked Co');
    expect(settings.peek('enable-embedding-sdk')).toBe(await settings.get('enable-embedding-sdk'));
    await t.http().put('/api/setting/site-name').set(auth(admin)).send({ value: 'Test Co' }).expect(204);
  });

  it('reads one setting as JSON, by visibility', async () => {
    const res = await t.http().get('/api/setting/site-name').set(auth(user)).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toBe('Test Co');
    await t.http().get('/api/setting/jwt-shared-secret').set(auth(user)).expect(403);
    await t.http().get('/api/setting/setup-token').set(auth(admin)).expect(404);
    await t.http().get('/api/setting/no-such-setting').set(auth(admin)).expect(404);
  });

  it('writes one setting as an admin, refusing bad values with what is allowed', async () => {
    await t.http().put('/api/setting/session-cookie-samesite').set(auth(user)).send({ value: 'none' }).expect(403);
    // `none` needs https
    await t.http().put('/api/setting/site-url').set(auth(admin)).send({ value: 'https://analytics.example.com' }).expect(204);
    await t.http().put('/api/setting/session-cookie-samesite').set(auth(admin)).send({ value: 'none' }).expect(204);
    expect((await t.http().get('/api/setting/session-cookie-samesite').set(auth(admin))).body).toBe('none');
    const bad = await t.http().put('/api/setting/session-cookie-samesite').set(auth(admin)).send({ value: 'sometimes' }).expect(400);
    expect(bad.body.errors['session-cookie-samesite']).toBe('value must be one of: `lax`, `none`, `strict`.');
    const notBool = await t.http().put('/api/setting/enable-public-sharing').set(auth(admin)).send({ value: 'yes' }).expect(400);
    expect(notBool.body.errors['enable-public-sharing']).toBe('value must be a boolean.');
    const badKey = await t.http().put('/api/setting/embedding-secret-key').set(auth(admin)).send({ value: 'abc' }).expect(400);
    expect(badKey.body.errors['embedding-secret-key']).toBe('value must be 64 hexadecimal characters.');
    const badUrl = await t.http().put('/api/setting/site-url').set(auth(admin)).send({ value: 'javascript:alert(1)' }).expect(400);
    expect(badUrl.body.errors['site-url']).toMatch(/http/);
    const badZone = await t
      .http()
      .put('/api/setting/report-timezone')
      .set(auth(admin))
      .send({ value: "UTC'; DROP TABLE x; --" })
      .expect(400);
    expect(badZone.body.errors['report-timezone']).toBe('value must be a time zone name such as Europe/Berlin.');
    await t.http().put('/api/setting/report-timezone').set(auth(admin)).send({ value: 'Mars/Olympus' }).expect(400);
    await t.http().put('/api/setting/setup-token').set(auth(admin)).send({ value: 'x' }).expect(404);
    // null resets to the default
    await t.http().put('/api/setting/session-cookie-samesite').set(auth(admin)).send({ value: null }).expect(204);
    expect((await t.http().get('/api/setting/session-cookie-samesite').set(auth(admin))).body).toBe('lax');
  });

  it('writes several settings at once, all or nothing', async () => {
    const bad = await t
      .http()
      .put('/api/setting')
      .set(auth(admin))
      .send({ 'site-name': 'Never', 'jwt-group-mappings': { admins: ['x'] } });
    expect(bad.status).toBe(400);
    expect((await t.http().get('/api/setting/site-name').set(auth(admin))).body).toBe('Test Co');
    await t
      .http()
      .put('/api/setting')
      .set(auth(admin))
      .send({ 'site-name': 'Both', 'jwt-group-mappings': { admins: [2] } })
      .expect(204);
    expect((await t.http().get('/api/setting/jwt-group-mappings').set(auth(admin))).body).toEqual({ admins: [2] });
    await t.http().put('/api/setting').set(auth(admin)).send([1, 2]).expect(400);
    await t.http().put('/api/setting').set(auth(user)).send({ 'site-name': 'x' }).expect(403);
  });

  it('generates the embedding secret key when an embedding toggle is first turned on, and masks it', async () => {
    const before = await t.http().get('/api/setting/embedding-secret-key').set(auth(admin)).expect(200);
    expect(before.body).toBeNull();
    await t.http().put('/api/setting/enable-embedding-static').set(auth(admin)).send({ value: true }).expect(204);
    const masked = (await t.http().get('/api/setting/embedding-secret-key').set(auth(admin))).body;
    expect(masked).toMatch(/^\*{10}[0-9a-f]{2}$/);
    // sending the masked value back keeps the secret
    await t.http().put('/api/setting').set(auth(admin)).send({ 'embedding-secret-key': masked, 'site-name': 'Masked' }).expect(204);
    expect((await t.http().get('/api/setting/embedding-secret-key').set(auth(admin))).body).toBe(masked);
    const props = await t.http().get('/api/session/properties').set(auth(user)).expect(200);
    expect(props.body['embedding-secret-key']).toBeUndefined();
    expect(props.body['enable-embedding-static']).toBe(true);
  });

  it('shows public settings to anyone and more to signed-in users', async () => {
    const anon = await t.http().get('/api/session/properties').expect(200);
    expect(anon.body['site-name']).toBeDefined();
    expect(anon.body['enable-public-sharing']).toBeUndefined();
    const signedIn = await t.http().get('/api/session/properties').set(auth(user)).expect(200);
    expect(signedIn.body['enable-public-sharing']).toBe(false);
    expect(signedIn.body['jwt-shared-secret']).toBeUndefined();
  });

  it('tells anyone whether JWT or SAML sign-in is on and configured (other-sso-enabled?, read-only)', async () => {
    const sso = async () => (await t.http().get('/api/session/properties').expect(200)).body['other-sso-enabled?'];
    expect(await sso()).toBe(false);
    const jwt = { 'jwt-identity-provider-uri': 'https://idp.example.com/sso', 'jwt-shared-secret': 'b'.repeat(64) };
    await t
      .http()
      .put('/api/setting')
      .set(auth(admin))
      .send({ ...jwt, 'jwt-enabled': true })
      .expect(204);
    expect(await sso()).toBe(true);
    // Still on, but its identity provider cleared: /auth/sso could not start, and the sign-in page must not offer it.
    await t.http().put('/api/setting/jwt-identity-provider-uri').set(auth(admin)).send({ value: null }).expect(204);
    expect(await sso()).toBe(false);
    await t.http().put('/api/setting').set(auth(admin)).send(jwt).expect(204);
    expect(await sso()).toBe(true);
    await t.http().put('/api/setting/other-sso-enabled%3F').set(auth(admin)).send({ value: false }).expect(404);
    await t.http().put('/api/setting/jwt-enabled').set(auth(admin)).send({ value: false }).expect(204);
    expect(await sso()).toBe(false);
  });

  it('refuses to turn JWT or SAML sign-in on before the settings a login needs are set, naming them', async () => {
    const cleared = { 'jwt-enabled': false, 'jwt-identity-provider-uri': null, 'jwt-shared-secret': null, 'saml-enabled': false };
    await t.http().put('/api/setting').set(auth(admin)).send(cleared).expect(204);
    const refused = await t.http().put('/api/setting/jwt-enabled').set(auth(admin)).send({ value: true }).expect(400);
    expect(refused.body.errors).toEqual({
      'jwt-enabled': 'JWT sign-in cannot be turned on before `jwt-identity-provider-uri` and `jwt-shared-secret` are set.',
    });
    // What the same call sends counts: with the secret alone, only the identity provider is missing.
    const half = await t
      .http()
      .put('/api/setting')
      .set(auth(admin))
      .send({ 'jwt-enabled': true, 'jwt-shared-secret': 'c'.repeat(64) })
      .expect(400);
    expect(half.body.errors).toEqual({ 'jwt-enabled': 'JWT sign-in cannot be turned on before `jwt-identity-provider-uri` is set.' });
    const saml = await t.http().put('/api/setting').set(auth(admin)).send({ 'saml-enabled': 'true' }).expect(400);
    expect(saml.body.errors['saml-enabled']).toBe(
      'SAML sign-in cannot be turned on before `saml-identity-provider-uri` and `saml-identity-provider-certificate` are set.',
    );
    // Nothing of a refused call is written; turning either off needs nothing.
    expect((await t.http().get('/api/setting/jwt-shared-secret').set(auth(admin)).expect(200)).body).toBeNull();
    await t.http().put('/api/setting').set(auth(admin)).send({ 'jwt-enabled': false, 'saml-enabled': false }).expect(204);
    expect((await t.http().get('/api/setting/jwt-enabled').set(auth(admin)).expect(200)).body).toBe(false);
  });

  it('lets an environment variable fix a setting', async () => {
    process.env.MB_SITE_LOCALE = 'de';
    try {
      expect((await t.http().get('/api/setting/site-locale').set(auth(admin))).body).toBe('de');
      const res = await t.http().put('/api/setting/site-locale').set(auth(admin)).send({ value: 'fr' }).expect(400);
      expect(res.body.message).toMatch(/MB_SITE_LOCALE/);
    } finally {
      delete process.env.MB_SITE_LOCALE;
    }
  });

  it('puts a change made on one instance in force on another sharing the app DB', async () => {
    const other = await startTestApp({ SETTINGS_REFRESH_SECONDS: '1' }, t);
    try {
      expect((await other.http().get('/api/setting/site-name').set(auth(admin)).expect(200)).body).toBe('Masked');
      await t.http().put('/api/setting/site-name').set(auth(admin)).send({ value: 'Changed elsewhere' }).expect(204);
      await until(async () => (await other.http().get('/api/setting/site-name').set(auth(admin))).body === 'Changed elsewhere', 30_000);
    } finally {
      await other.close();
    }
  });
});
