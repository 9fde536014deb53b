import { randomBytes } from 'node:crypto';
import { enableJwtSso, jwtSession } from '../support/jwt-sso';
import { startTestApp, TestApp } from '../support/test-app';
import { auth, makeUser, setupAdmin } from '../support/factories';
import { expect400, expect403, expect404 } from '../support/expect-wire';

const RESERVED = 'login attribute keys must not start with `@`';
const VALUES = 'login attribute values must be strings, numbers, booleans or lists of those.';

describe('user attributes', () => {
  let t: TestApp;
  let admin: string;
  let secret: string;
  const http = () => t.http();
  const email = () => `attr-${randomBytes(4).toString('hex')}@example.com`;
  const signIn = (claims: Record<string, unknown>): Promise<string> => jwtSession(t, secret, claims);
  const me = async (key: string) => (await http().get('/api/user/current').set(auth(key)).expect(200)).body;
  const asAdmin = async (id: number) => (await http().get(`/api/user/${id}`).set(auth(admin)).expect(200)).body;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    secret = await enableJwtSso(t, admin);
  });
  afterAll(() => t.close());

  it('keeps what the admin set across sign-ins, rewrites the claims each time, and the admin value wins', async () => {
    const address = email();
    const first = await signIn({ email: address, first_name: 'Jo', region: 'US', team: 'north', iss: 'idp', jti: 'a1' });
    const { id } = await me(first);
    expect(await asAdmin(id)).toMatchObject({ login_attributes: null, jwt_attributes: { region: 'US', team: 'north' } });

    await http()
      .put(`/api/user/${id}`)
      .set(auth(admin))
      .send({ login_attributes: { region: 'EU', level: 3 } })
      .expect(200);
    // The second token drops `team` and brings `plan`: claims are rewritten whole, the admin's map is untouched.
    const second = await signIn({ email: address, region: 'APAC', plan: 'gold' });
    const view = await asAdmin(id);
    expect(view.login_attributes).toEqual({ region: 'EU', level: 3 });
    expect(view.jwt_attributes).toEqual({ region: 'APAC', plan: 'gold' });
    expect(view.structured_attributes).toEqual({
      region: { source: 'user', frozen: false, value: 'EU', original: 'APAC' },
      level: { source: 'user', frozen: false, value: 3 },
      plan: { source: 'jwt', frozen: false, value: 'gold' },
    });
    // The user sees their own attributes on both of their views.
    const own = await me(second);
    expect(own).toMatchObject({ jwt_attributes: view.jwt_attributes, structured_attributes: view.structured_attributes });
    expect((await http().get(`/api/user/${id}`).set(auth(second)).expect(200)).body.structured_attributes).toEqual(
      view.structured_attributes,
    );
  });

  it('keeps list claims as lists, and drops claims no filter can use or that take a system name', async () => {
    const key = await signIn({ email: email(), regions: ['EU', 'US'], ids: [1, 2], nested: { a: 1 }, '@tenant.slug': 'forged' });
    const view = await me(key);
    expect(view.jwt_attributes).toEqual({ regions: ['EU', 'US'], ids: [1, 2] });
    expect(view.structured_attributes.regions).toEqual({ source: 'jwt', frozen: false, value: ['EU', 'US'] });
  });

  it('lets admins set parameter values when creating and updating a user', async () => {
    const created = await http()
      .post('/api/user')
      .set(auth(admin))
      .send({ email: email(), login_attributes: { region: ['EU', 'US'], level: 2, beta: true } })
      .expect(200);
    expect(created.body.login_attributes).toEqual({ region: ['EU', 'US'], level: 2, beta: true });
    expect(created.body.structured_attributes.region).toEqual({ source: 'user', frozen: false, value: ['EU', 'US'] });
    const cleared = await http().put(`/api/user/${created.body.id}`).set(auth(admin)).send({ login_attributes: null }).expect(200);
    expect(cleared.body).toMatchObject({ login_attributes: null, structured_attributes: {} });
  });

  it('refuses reserved names and values that are not parameter values', async () => {
    const u = await makeUser(t, admin);
    const post = (login_attributes: unknown) => http().post('/api/user').set(auth(admin)).send({ email: email(), login_attributes });
    const put = (login_attributes: unknown) => http().put(`/api/user/${u.id}`).set(auth(admin)).send({ login_attributes });
    const mt = (login_attributes: unknown) => http().put(`/api/mt/user/${u.id}/attributes`).set(auth(admin)).send({ login_attributes });
    for (const send of [post, put, mt]) {
      expect400(await send({ '@tenant.slug': 'acme' }), 'login_attributes', RESERVED);
      expect400(await send({ region: { code: 'EU' } }), 'login_attributes', VALUES);
      expect400(await send({ region: [['EU']] }), 'login_attributes', VALUES);
      expect400(await send({ region: null }), 'login_attributes', VALUES);
      expect400(await send(['region']), 'login_attributes', 'value must be a map.');
    }
    expect((await asAdmin(u.id)).login_attributes).toBeNull();
  });

  it('is for admins: a user can neither set their own attributes nor read anyone else', async () => {
    const u = await makeUser(t, admin);
    const other = await makeUser(t, admin, { login_attributes: { region: 'EU' } });
    expect403(
      await http()
        .put(`/api/user/${u.id}`)
        .set(auth(u.session))
        .send({ login_attributes: { region: 'EU' } }),
    );
    expect403(await http().get(`/api/user/${other.id}`).set(auth(u.session)));
    expect403(await http().get('/api/mt/user/attributes').set(auth(u.session)));
    expect403(
      await http()
        .put(`/api/mt/user/${u.id}/attributes`)
        .set(auth(u.session))
        .send({ login_attributes: { region: 'EU' } }),
    );
    expect((await asAdmin(u.id)).login_attributes).toBeNull();
  });

  it('answers the known keys, from both sources, sorted, and sets the admin map through /api/mt/user', async () => {
    await signIn({ email: email(), zone: 'z1' });
    const u = await makeUser(t, admin);
    const res = await http()
      .put(`/api/mt/user/${u.id}/attributes`)
      .set(auth(admin))
      .send({ login_attributes: { cost_center: 'cc-1', region: 'EU' } })
      .expect(200);
    expect(res.body).toMatchObject({ id: u.id, login_attributes: { cost_center: 'cc-1', region: 'EU' } });
    const keys = (await http().get('/api/mt/user/attributes').set(auth(admin)).expect(200)).body as string[];
    expect(keys).toEqual(expect.arrayContaining(['cost_center', 'region', 'zone']));
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(keys.length);

    await http().put(`/api/mt/user/${u.id}/attributes`).set(auth(admin)).send({ login_attributes: null }).expect(200);
    expect((await asAdmin(u.id)).login_attributes).toBeNull();
    expect404(await http().put('/api/mt/user/99999/attributes').set(auth(admin)).send({ login_attributes: {} }));
  });
});
