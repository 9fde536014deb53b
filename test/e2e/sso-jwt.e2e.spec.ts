import { createHmac, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { startTestApp, TestApp } from '../support/test-app';
import { auth, makeUserDirect, setupAdmin } from '../support/factories';
import { until } from '../support/until';

const IDP = 'https://idp.example.com/sso/metabase';
const SDK = { 'X-Metabase-Client': 'embedding-sdk-react' };

describe('JWT SSO', () => {
  let t: TestApp;
  let admin: string;
  let secret: string;
  /** Ten minutes of life unless the claims or `opts` say otherwise (`expiresIn: undefined`: no `exp`). */
  const sign = (claims: Record<string, unknown>, opts: jwt.SignOptions = {}, key = secret) => {
    const o: jwt.SignOptions = { algorithm: 'HS256', ...opts };
    if (!('expiresIn' in opts) && claims.exp === undefined) o.expiresIn = 600;
    if (o.expiresIn === undefined) delete o.expiresIn;
    return jwt.sign(claims, key, o);
  };
  const email = () => `sso-${randomBytes(4).toString('hex')}@Example.com`;
  const settings = (values: Record<string, unknown>) => t.http().put('/api/setting').set(auth(admin)).send(values).expect(204);
  const current = (key: string) => t.http().get('/api/user/current').set(auth(key));
  const group = async (name: string): Promise<number> =>
    (await t.http().post('/api/permissions/group').set(auth(admin)).send({ name }).expect(200)).body.id;
  const groupsOf = async (key: string): Promise<number[]> =>
    (await current(key).expect(200)).body.user_group_memberships.map((m: { id: number }) => m.id).sort((a: number, b: number) => a - b);
  const exchange = async (claims: Record<string, unknown>): Promise<string> => {
    const res = await t
      .http()
      .get('/auth/sso')
      .set(SDK)
      .query({ jwt: sign(claims) })
      .expect(200);
    return res.body.id as string;
  };

  beforeAll(async () => {
    t = await startTestApp({ SETTINGS_REFRESH_SECONDS: '1' });
    admin = await setupAdmin(t);
    // Generated through the API, as the admin screen does.
    secret = (await t.http().get('/api/util/random_token').set(auth(admin)).expect(200)).body.token;
    await settings({ 'jwt-identity-provider-uri': IDP, 'jwt-shared-secret': secret, 'jwt-enabled': true, 'enable-embedding-sdk': true });
  });
  afterAll(() => t.close());

  it('never shows the shared secret to non-admins, and masks it for admins', async () => {
    const user = await makeUserDirect(t);
    await t.http().get('/api/setting/jwt-shared-secret').set(auth(user.session)).expect(403);
    const props = await t.http().get('/api/session/properties').set(auth(user.session)).expect(200);
    expect(JSON.stringify(props.body)).not.toContain(secret);
    const masked = (await t.http().get('/api/setting/jwt-shared-secret').set(auth(admin)).expect(200)).body;
    expect(masked).toMatch(/^\*{10}/);
    expect(masked).not.toContain(secret);
  });

  // Extra claims go to jwt_attributes, not login_attributes (v0.52 did that): a sign-in must not erase the admin's
  // values (COMPAT.md, "User attributes").
  it('signs a new user in from a browser: session cookie, redirect to return_to, names and extra claims kept', async () => {
    const address = email();
    const token = sign({ email: address, first_name: 'Jo', last_name: 'Token', groups: [], tenant: 'acme', region: 7 });
    const res = await t.http().get('/auth/sso').query({ jwt: token, return_to: '/question/1-superb' }).expect(302);
    expect(res.headers.location).toBe('/question/1-superb');
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('metabase.SESSION='))!;
    expect(cookie).toMatch(/HttpOnly/);
    const me = await t.http().get('/api/user/current').set('Cookie', cookie.split(';')[0]).expect(200);
    expect(me.body).toMatchObject({ email: address.toLowerCase(), first_name: 'Jo', last_name: 'Token', is_superuser: false });
    const full = await t.http().get(`/api/user/${me.body.id}`).set(auth(admin)).expect(200);
    expect(full.body.jwt_attributes).toEqual({ tenant: 'acme', region: 7 });
    expect(full.body.login_attributes).toBeNull();
    expect(full.body.sso_source ?? 'jwt').toBe('jwt');
  });

  it('finds an existing user by email regardless of case and updates their names', async () => {
    const user = await makeUserDirect(t);
    const key = await exchange({ email: user.email.toUpperCase(), first_name: 'New', last_name: 'Name' });
    const me = (await current(key).expect(200)).body;
    expect(me).toMatchObject({ id: user.id, first_name: 'New', last_name: 'Name' });
  });

  it('answers embedding clients with JSON: a session key usable in X-Metabase-Session, and the token times', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = sign({ email: email(), iat: now }, { expiresIn: undefined });
    const res = await t.http().get('/auth/sso').set(SDK).query({ jwt: token, token: 'true' }).expect(200);
    expect(res.body).toEqual({ status: 'ok', id: expect.any(String), exp: null, iat: now });
    await current(res.body.id).expect(200);
    const signed = sign({ email: email() });
    const decoded = jwt.decode(signed) as { exp: number; iat: number };
    const posted = await t.http().post('/auth/sso').set(SDK).send({ jwt: signed }).expect(200);
    expect(posted.body).toEqual({ status: 'ok', id: expect.any(String), exp: decoded.exp, iat: decoded.iat });
    await current(posted.body.id).expect(200);
  });

  it('POST /auth/sso with a JSON {jwt} exchanges without the client header too', async () => {
    const res = await t
      .http()
      .post('/auth/sso')
      .send({ jwt: sign({ email: email() }) })
      .expect(200);
    expect(res.body.status).toBe('ok');
    await current(res.body.id).expect(200);
  });

  it('sends callers without a token to the identity provider, with return_to', async () => {
    const res = await t.http().get('/auth/sso').query({ return_to: '/dashboard/3' }).expect(302);
    const url = new URL(res.headers.location);
    expect(`${url.origin}${url.pathname}`).toBe(IDP);
    expect(url.searchParams.get('return_to')).toBe('/dashboard/3');
    const sdk = await t.http().get('/auth/sso').set(SDK).expect(200);
    expect(sdk.body).toEqual({ url: IDP, method: 'jwt' });
  });

  it('refuses bad tokens with 401 and the reason', async () => {
    const address = email();
    const refused = async (token: string, why: RegExp) => {
      const res = await t.http().get('/auth/sso').set(SDK).query({ jwt: token }).expect(401);
      expect(res.body.message).toMatch(why);
    };
    await refused(sign({ email: address }, {}, 'another-secret-of-some-length'), /corrupt or manipulated/);
    await refused(sign({ email: address, exp: Math.floor(Date.now() / 1000) - 3600 }, { expiresIn: undefined }), /expired/);
    await refused(sign({ email: address, iat: Math.floor(Date.now() / 1000) - 600 }, { expiresIn: undefined }), /older than 180 seconds/);
    await refused(sign({ email: address }, { noTimestamp: true, expiresIn: undefined }), /neither `exp` nor `iat`/);
    await refused(sign({ first_name: 'No email' }), /`email` claim/);
    // alg none, and HS512 with the right secret: only HS256 is accepted
    const base64url = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
    const none = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ email: address, exp: 9_999_999_999 })}.`;
    await refused(none, /corrupt or manipulated/);
    await refused(sign({ email: address }, { algorithm: 'HS512' }), /corrupt or manipulated/);
    // a hand-made HS256 token over a tampered payload
    const good = sign({ email: address });
    const [h, , s] = good.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ email: 'admin@example.com', exp: 9_999_999_999 })).toString('base64url')}.${s}`;
    await refused(tampered, /corrupt or manipulated/);
    const forged = createHmac('sha256', 'wrong')
      .update(`${h}.${good.split('.')[1]}`)
      .digest('base64url');
    await refused(`${h}.${good.split('.')[1]}.${forged}`, /corrupt or manipulated/);
    // none of these made the user
    await t
      .http()
      .get(`/api/user`)
      .set(auth(admin))
      .query({ query: address })
      .expect(200)
      .then((r) => expect(r.body.total).toBe(0));
  });

  it('refuses redirects off the site with 400 Invalid redirect URL, before signing anyone in', async () => {
    for (const bad of ['https://evil.example.com/x', '//evil.example.com/x', '/\\evil.example.com', 'javascript:alert(1)']) {
      const res = await t
        .http()
        .get('/auth/sso')
        .query({ jwt: sign({ email: email() }), return_to: bad })
        .expect(400);
      expect(res.body.message).toBe('Invalid redirect URL');
    }
    // an absolute URL only on the site URL's host: the Host header is the caller's to choose
    await t
      .http()
      .get('/auth/sso')
      .set('Host', 'analytics.example.com')
      .query({ jwt: sign({ email: email() }), return_to: 'http://analytics.example.com/collection/root' })
      .expect(400);
    await settings({ 'site-url': 'http://analytics.example.com' });
    try {
      const host = await t
        .http()
        .get('/auth/sso')
        .query({ jwt: sign({ email: email() }), return_to: 'http://analytics.example.com/collection/root' })
        .expect(302);
      expect(host.headers.location).toBe('http://analytics.example.com/collection/root');
    } finally {
      await settings({ 'site-url': null });
    }
  });

  it('refuses deactivated users', async () => {
    const user = await makeUserDirect(t);
    await t.http().delete(`/api/user/${user.id}`).set(auth(admin)).expect(200);
    const res = await t
      .http()
      .get('/auth/sso')
      .set(SDK)
      .query({ jwt: sign({ email: user.email }) })
      .expect(401);
    expect(res.body.message).toMatch(/disabled/);
  });

  it('users made by SSO cannot log in with a password', async () => {
    const address = email();
    await exchange({ email: address });
    const res = await t.http().post('/api/session').send({ username: address, password: 'whatever-Pw-1' }).expect(401);
    expect(res.body.errors.password).toBeDefined();
  });

  it('with provisioning off, refuses unknown users (401) and still signs known ones in', async () => {
    await settings({ 'jwt-user-provisioning-enabled?': false });
    try {
      const res = await t
        .http()
        .get('/auth/sso')
        .set(SDK)
        .query({ jwt: sign({ email: email() }) })
        .expect(401);
      expect(res.body.message).toMatch(/need an account/);
      const user = await makeUserDirect(t);
      await exchange({ email: user.email });
    } finally {
      await settings({ 'jwt-user-provisioning-enabled?': true });
    }
  });

  it('group sync: mapped groups only, joined and left by the token; unmapped groups and admin untouched', async () => {
    const sales = await group(`Sales ${randomBytes(3).toString('hex')}`);
    const ops = await group(`Ops ${randomBytes(3).toString('hex')}`);
    const manual = await group(`Manual ${randomBytes(3).toString('hex')}`);
    const address = email();
    // sync off: groups in the token change nothing
    await settings({ 'jwt-group-sync': false, 'jwt-group-mappings': { sales: [sales], ops: [ops], boss: [2] } });
    let key = await exchange({ email: address, groups: ['sales'] });
    expect(await groupsOf(key)).toEqual([1]);
    // sync on, without mappings: nothing changes either
    await settings({ 'jwt-group-sync': true, 'jwt-group-mappings': {} });
    key = await exchange({ email: address, groups: ['sales', 'Administrators'] });
    expect(await groupsOf(key)).toEqual([1]);
    const me = (await current(key).expect(200)).body;
    await t.http().post('/api/permissions/membership').set(auth(admin)).send({ group_id: manual, user_id: me.id }).expect(200);
    // with mappings: joins the mapped groups of the token
    await settings({ 'jwt-group-mappings': { sales: [sales], ops: [ops], boss: [2] } });
    key = await exchange({ email: address, groups: ['sales', 'ops', 'unmapped', 'Administrators'] });
    expect(await groupsOf(key)).toEqual([1, sales, ops, manual].sort((a, b) => a - b));
    expect((await current(key)).body.is_superuser).toBe(false);
    // leaves the mapped groups the token no longer names; the unmapped one stays
    key = await exchange({ email: address, groups: ['ops'] });
    expect(await groupsOf(key)).toEqual([1, ops, manual].sort((a, b) => a - b));
    // admin only through a mapping, and lost through it
    key = await exchange({ email: address, groups: ['boss'] });
    expect((await current(key)).body.is_superuser).toBe(true);
    key = await exchange({ email: address, groups: [] });
    expect((await current(key)).body.is_superuser).toBe(false);
    expect(await groupsOf(key)).toEqual([1, manual].sort((a, b) => a - b));
    await settings({ 'jwt-group-sync': false, 'jwt-group-mappings': {} });
  });

  it('group sync skips a mapped group deleted since, instead of refusing the login', async () => {
    const kept = await group(`Kept ${randomBytes(3).toString('hex')}`);
    const gone = await group(`Gone ${randomBytes(3).toString('hex')}`);
    await t.http().delete(`/api/permissions/group/${gone}`).set(auth(admin)).expect(204);
    await settings({ 'jwt-group-sync': true, 'jwt-group-mappings': { team: [kept, gone] } });
    try {
      const key = await exchange({ email: email(), groups: ['team'] });
      expect(await groupsOf(key)).toEqual([1, kept]);
    } finally {
      await settings({ 'jwt-group-sync': false, 'jwt-group-mappings': {} });
    }
  });

  it('refuses embedding clients while the SDK is off, saying so', async () => {
    await settings({ 'enable-embedding-sdk': false });
    try {
      const res = await t
        .http()
        .get('/auth/sso')
        .set(SDK)
        .query({ jwt: sign({ email: email() }) })
        .expect(403);
      expect(res.body.message).toMatch(/embedding SDK is not enabled/);
      await t
        .http()
        .get('/auth/sso')
        .query({ jwt: sign({ email: email() }) })
        .expect(302);
    } finally {
      await settings({ 'enable-embedding-sdk': true });
    }
  });

  it('is usable only when enabled with both the secret and the identity provider URI set', async () => {
    await settings({ 'jwt-enabled': false });
    const off = await t
      .http()
      .get('/auth/sso')
      .query({ jwt: sign({ email: email() }) })
      .expect(400);
    expect(off.body.message).toBe('SSO has not been enabled and/or configured');
    // Turned on, then its identity provider cleared (turning on without one is refused: settings.e2e).
    await settings({ 'jwt-enabled': true });
    await settings({ 'jwt-identity-provider-uri': null });
    await t
      .http()
      .get('/auth/sso')
      .query({ jwt: sign({ email: email() }) })
      .expect(400);
    await settings({ 'jwt-identity-provider-uri': IDP });
    await t
      .http()
      .get('/auth/sso')
      .set(SDK)
      .query({ jwt: sign({ email: email() }) })
      .expect(200);
  });

  it('session properties carry token-features and enable-embedding-sdk, logged in or not', async () => {
    const anon = await t.http().get('/api/session/properties').expect(200);
    expect(anon.body['token-features']).toMatchObject({ embedding_sdk: true, sso_jwt: true, sso_saml: true });
    expect(anon.body['enable-embedding-sdk']).toBe(true);
    await t.http().put('/api/setting/token-features').set(auth(admin)).send({ value: {} }).expect(404);
  });

  it('takes a change made on one instance into account on another sharing the app DB', async () => {
    const other = await startTestApp({ SETTINGS_REFRESH_SECONDS: '1' }, t);
    try {
      const token = () => sign({ email: email() });
      await other.http().get('/auth/sso').set(SDK).query({ jwt: token() }).expect(200);
      const newSecret = randomBytes(32).toString('hex');
      await settings({ 'jwt-shared-secret': newSecret });
      const old = secret;
      secret = newSecret;
      await until(async () => (await other.http().get('/auth/sso').set(SDK).query({ jwt: token() })).status === 200);
      await other
        .http()
        .get('/auth/sso')
        .set(SDK)
        .query({ jwt: sign({ email: email() }, {}, old) })
        .expect(401);
      await settings({ 'jwt-user-provisioning-enabled?': false });
      await until(async () => (await other.http().get('/auth/sso').set(SDK).query({ jwt: token() })).status === 401);
      await settings({ 'jwt-user-provisioning-enabled?': true });
    } finally {
      await other.close();
    }
  });
});
