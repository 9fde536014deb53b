import { randomBytes } from 'node:crypto';
import { enableJwtSso, jwtSession, jwtSignIn } from '../support/jwt-sso';
import { startTestApp, TestApp } from '../support/test-app';
import { auth, makeUser, setupAdmin } from '../support/factories';
import { expect400, expect401, expect403, expect404, expectMessage } from '../support/expect-wire';

const TAKEN = 'This tenant name or slug is already taken.';
const TURN_OFF = 'Tenants cannot be turned off while active tenant users exist: deactivate their tenants first.';

/** Tenants (COMPAT "Tenants"): the switch, /api/ee/tenant, JWT sign-in into tenants, and how tenant users are kept apart. */
describe('tenants', () => {
  let t: TestApp;
  let admin: string;
  let secret: string;
  const http = () => t.http();
  const email = () => `tenant-${randomBytes(4).toString('hex')}@example.com`;
  const sso = (claims: Record<string, unknown>) => jwtSignIn(t, secret, claims);
  const signIn = (claims: Record<string, unknown>): Promise<string> => jwtSession(t, secret, claims);
  const me = async (key: string) => (await http().get('/api/user/current').set(auth(key)).expect(200)).body;
  const setTenants = (value: boolean, key = admin) => http().put('/api/setting/use-tenants').set(auth(key)).send({ value });
  const tenants = async (query = '') => (await http().get(`/api/ee/tenant${query}`).set(auth(admin)).expect(200)).body.data;
  const bySlug = async (slug: string) => (await tenants()).find((x: { slug: string }) => x.slug === slug);
  const groups = async () => (await http().get('/api/permissions/group').set(auth(admin)).expect(200)).body;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    secret = await enableJwtSso(t, admin);
  });
  afterAll(() => t.close());

  describe('while tenants are off', () => {
    it('refuses a tenant claim, and lets internal users sign in as before', async () => {
      expect((await http().get('/api/setting/use-tenants').set(auth(admin)).expect(200)).body).toBe(false);
      const refused = await sso({ email: email(), '@tenant': 'acme' });
      expect([refused.status, refused.body]).toEqual([403, { message: 'Tenants and tenant users are disabled.' }]);
      const internal = await me(await signIn({ email: email() }));
      expect(internal.tenant_id).toBeNull();
      expect(internal.structured_attributes['@tenant.slug']).toBeUndefined();
    });

    it('has no All tenant users group yet; only admins turn tenants on', async () => {
      expect((await groups()).map((g: { name: string }) => g.name)).not.toContain('All tenant users');
      const user = await makeUser(t, admin);
      expect403(await setTenants(true, user.session));
    });
  });

  describe('once on', () => {
    let internal: { id: number; session: string; email: string };
    let acmeKey: string;
    let globexKey: string;
    let acmeEmail: string;

    beforeAll(async () => {
      internal = await makeUser(t, admin);
      await setTenants(true).expect(204);
      acmeEmail = email();
      acmeKey = await signIn({ email: acmeEmail, first_name: 'Ann', '@tenant': 'acme', region: 'EU' });
      globexKey = await signIn({ email: email(), '@tenant': 'globex' });
    });

    it('made the group All tenant users and shows All Users as All internal users', async () => {
      const all = await groups();
      expect(all.find((g: { magic_group_type: string }) => g.magic_group_type === 'all-external-users')).toMatchObject({
        name: 'All tenant users',
        member_count: 2,
      });
      expect(all.find((g: { id: number }) => g.id === 1).name).toBe('All internal users');
    });

    it('creates a tenant (name = slug) at the first sign-in of each, with its collection and one member', async () => {
      expect(await bySlug('acme')).toEqual({
        id: expect.any(Number),
        name: 'acme',
        slug: 'acme',
        is_active: true,
        member_count: 1,
        attributes: {},
        tenant_collection_id: expect.any(Number),
      });
      expect(await bySlug('globex')).toMatchObject({ name: 'globex', member_count: 1 });
      // A second user of acme joins the tenant that exists.
      await signIn({ email: email(), '@tenant': 'acme' });
      expect((await bySlug('acme')).member_count).toBe(2);
    });

    it('gives tenant users the system attribute @tenant.slug and keeps the claim out of jwt_attributes', async () => {
      const view = await me(acmeKey);
      const acme = await bySlug('acme');
      expect(view.tenant_id).toBe(acme.id);
      expect(view.jwt_attributes).toEqual({ region: 'EU' });
      expect(view.structured_attributes).toEqual({
        region: { source: 'jwt', frozen: false, value: 'EU' },
        '@tenant.slug': { source: 'system', frozen: true, value: 'acme' },
      });
      expect((await http().get(`/api/user/${view.id}`).set(auth(admin)).expect(200)).body.structured_attributes['@tenant.slug']).toEqual({
        source: 'system',
        frozen: true,
        value: 'acme',
      });
      // Tenant users are not in All Users: what is granted to internal users does not reach them.
      expect(view.group_ids).not.toContain(1);
    });

    it('refuses the sign-ins COMPAT lists', async () => {
      const refusal = async (claims: Record<string, unknown>, status: number, message: string) => {
        const res = await sso(claims);
        expect([res.status, res.body]).toEqual([status, { message }]);
      };
      await refusal({ email: internal.email, '@tenant': 'acme' }, 403, 'Cannot add tenant claim to internal user');
      await refusal({ email: acmeEmail }, 403, 'Tenant claim required for external user');
      await refusal({ email: acmeEmail, '@tenant': 'globex' }, 403, 'Tenant ID mismatch with existing user');
      await refusal({ email: email(), '@tenant': { slug: 'x' } }, 400, 'Value of `@tenant` must be a string');
      // An integer names a tenant too.
      await signIn({ email: email(), '@tenant': 42 });
      expect(await bySlug('42')).toMatchObject({ name: '42', member_count: 1 });
    });

    it('reads the tenant from the claim jwt-attribute-tenant names, and keeps that claim out of the attributes', async () => {
      await http().put('/api/setting/jwt-attribute-tenant').set(auth(admin)).send({ value: 'org' }).expect(204);
      try {
        const view = await me(await signIn({ email: email(), org: 'hooli', team: 'core', '@tenant': 'ignored' }));
        expect(view.jwt_attributes).toEqual({ team: 'core' });
        expect(view.structured_attributes['@tenant.slug'].value).toBe('hooli');
        expect(view.tenant_id).toBe((await bySlug('hooli')).id);
        expect(await bySlug('ignored')).toBeUndefined();
      } finally {
        await http().put('/api/setting/jwt-attribute-tenant').set(auth(admin)).send({ value: null }).expect(204);
      }
    });

    it('never makes a tenant user an administrator', async () => {
      const { id } = await me(globexKey);
      const message = { message: 'Tenant users cannot be administrators.' };
      const put = await http().put(`/api/user/${id}`).set(auth(admin)).send({ is_superuser: true });
      expect([put.status, put.body]).toEqual([400, message]);
      const add = await http().post('/api/permissions/membership').set(auth(admin)).send({ group_id: 2, user_id: id });
      expect([add.status, add.body]).toEqual([400, message]);
      expect((await me(globexKey)).is_superuser).toBe(false);
    });

    it('cannot be turned off while tenant users are active', async () => {
      expectMessage(await setTenants(false), TURN_OFF);
      expect((await http().get('/api/setting/use-tenants').set(auth(admin)).expect(200)).body).toBe(true);
    });

    it('keeps tenant users to their own user and their own tenant collection', async () => {
      const acme = await bySlug('acme');
      const globex = await bySlug('globex');
      const globexUser = await me(globexKey);
      expect403(await http().get('/api/user').set(auth(acmeKey)));
      expect403(await http().get(`/api/user/${globexUser.id}`).set(auth(acmeKey)));
      expect403(await http().get(`/api/user/${internal.id}`).set(auth(acmeKey)));
      expect403(await http().get('/api/ee/tenant').set(auth(acmeKey)));

      // Their tenant's collection is theirs to read and curate; another tenant's is closed to them, as to internal users.
      await http().get(`/api/collection/${acme.tenant_collection_id}`).set(auth(acmeKey)).expect(200);
      const child = await http()
        .post('/api/collection')
        .set(auth(acmeKey))
        .send({ name: 'Acme reports', parent_id: acme.tenant_collection_id })
        .expect(200);
      expect403(await http().get(`/api/collection/${acme.tenant_collection_id}`).set(auth(globexKey)));
      expect403(await http().get(`/api/collection/${child.body.id}`).set(auth(globexKey)));
      expect403(await http().get(`/api/collection/${acme.tenant_collection_id}`).set(auth(internal.session)));

      const tree = (await http().get('/api/collection/tree').set(auth(globexKey)).expect(200)).body;
      const ids = JSON.stringify(tree);
      expect(tree.map((c: { id: number }) => c.id)).toContain(globex.tenant_collection_id);
      expect(ids).not.toContain(`"name":"Acme reports"`);
      expect(tree.map((c: { id: number }) => c.id)).not.toContain(acme.tenant_collection_id);
      // Nor do they see the Root's content that All Users may read.
      const internalTree = (await http().get('/api/collection/tree').set(auth(internal.session)).expect(200)).body;
      expect(internalTree.map((c: { id: number }) => c.id)).not.toContain(acme.tenant_collection_id);
    });

    it("never shows a tenant user another's personal collection: not by id, its items, the tree or the list", async () => {
      const acmeView = await me(acmeKey);
      const globexView = await me(globexKey);
      const theirs = globexView.personal_collection_id as number;
      expect(typeof theirs).toBe('number');
      // Their own is theirs; something in the other's makes a leak visible.
      await http().get(`/api/collection/${acmeView.personal_collection_id}`).set(auth(acmeKey)).expect(200);
      const secretName = `Globex private ${randomBytes(3).toString('hex')}`;
      await http().post('/api/collection').set(auth(globexKey)).send({ name: secretName, parent_id: theirs }).expect(200);
      expect((await http().get(`/api/collection/${theirs}/items`).set(auth(globexKey)).expect(200)).body.data).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: secretName })]),
      );

      expect403(await http().get(`/api/collection/${theirs}`).set(auth(acmeKey)));
      expect403(await http().get(`/api/collection/${theirs}/items`).set(auth(acmeKey)));
      for (const path of ['/api/collection/tree', '/api/collection']) {
        const text = JSON.stringify((await http().get(path).set(auth(acmeKey)).expect(200)).body);
        expect(text).not.toContain(secretName);
        expect(text).not.toMatch(new RegExp(`"id":${theirs}[,}]`));
      }
      // Nor an internal user's, nor does an internal user see the tenant user's.
      const internalOwn = (await me(internal.session)).personal_collection_id as number;
      expect403(await http().get(`/api/collection/${internalOwn}`).set(auth(acmeKey)));
      expect403(await http().get(`/api/collection/${theirs}`).set(auth(internal.session)));
    });

    it('deactivating a tenant deactivates its users and archives its collection; its users are refused', async () => {
      const wayne = await signIn({ email: email(), '@tenant': 'wayne' });
      const before = await bySlug('wayne');
      const { body } = await http().put(`/api/ee/tenant/${before.id}`).set(auth(admin)).send({ is_active: false }).expect(200);
      expect(body).toMatchObject({ id: before.id, is_active: false, member_count: 0 });
      expect401(await http().get('/api/user/current').set(auth(wayne)));
      const collection = await http().get(`/api/collection/${before.tenant_collection_id}`).set(auth(admin)).expect(200);
      expect(collection.body.archived).toBe(true);
      const res = await sso({ email: email(), '@tenant': 'wayne' });
      expect([res.status, res.body]).toEqual([403, { message: 'Tenant is not active' }]);
      expect((await tenants('?status=deactivated')).map((x: { slug: string }) => x.slug)).toEqual(['wayne']);
      expect((await tenants('?status=active')).map((x: { slug: string }) => x.slug)).not.toContain('wayne');
    });

    it('reactivating a tenant brings its users and its collection back', async () => {
      const address = email();
      await signIn({ email: address, '@tenant': 'stark' });
      const stark = await bySlug('stark');
      await http().put(`/api/ee/tenant/${stark.id}`).set(auth(admin)).send({ is_active: false }).expect(200);
      const { body } = await http().put(`/api/ee/tenant/${stark.id}`).set(auth(admin)).send({ is_active: true }).expect(200);
      expect(body).toMatchObject({ is_active: true, member_count: 1 });
      expect((await http().get(`/api/collection/${stark.tenant_collection_id}`).set(auth(admin)).expect(200)).body.archived).toBe(false);
      const again = await me(await signIn({ email: address, '@tenant': 'stark' }));
      expect(again).toMatchObject({ is_active: true, tenant_id: stark.id });
    });
  });

  describe('/api/ee/tenant', () => {
    it('creates, reads and renames tenants', async () => {
      const created = await http()
        .post('/api/ee/tenant')
        .set(auth(admin))
        .send({ name: 'Initech', slug: 'initech', attributes: { plan: 'gold', seats: 5 } })
        .expect(200);
      expect(created.body).toMatchObject({
        name: 'Initech',
        slug: 'initech',
        is_active: true,
        member_count: 0,
        attributes: { plan: 'gold', seats: 5 },
      });
      const { id, tenant_collection_id: collectionId } = created.body;
      expect((await http().get(`/api/ee/tenant/${id}`).set(auth(admin)).expect(200)).body).toEqual(created.body);
      expect(await tenants()).toContainEqual(created.body);

      const renamed = await http()
        .put(`/api/ee/tenant/${id}`)
        .set(auth(admin))
        .send({ name: 'Initech Corp', attributes: { plan: 'silver' } })
        .expect(200);
      expect(renamed.body).toMatchObject({ name: 'Initech Corp', slug: 'initech', attributes: { plan: 'silver' } });
      // The collection follows the tenant's name.
      expect((await http().get(`/api/collection/${collectionId}`).set(auth(admin)).expect(200)).body.name).toBe('Initech Corp');
    });

    it('validates what it is sent', async () => {
      const post = (body: Record<string, unknown>) => http().post('/api/ee/tenant').set(auth(admin)).send(body);
      expect400(
        await post({ name: 'Bad', slug: 'Has Spaces' }),
        'slug',
        'value must be a string of 1 to 255 lower-case letters, digits, `-` or `_`.',
      );
      expect400(await post({ name: ' ', slug: 'blank' }), 'name', 'value must be a non-blank string.');
      await post({ name: 'Umbrella', slug: 'umbrella' }).expect(200);
      expectMessage(await post({ name: 'Umbrella', slug: 'umbrella-2' }), TAKEN);
      expectMessage(await post({ name: 'Umbrella 2', slug: 'umbrella' }), TAKEN);
      const reserved = await post({ name: 'Reserved', slug: 'reserved', attributes: { '@tenant.slug': 'x' } });
      expect([reserved.status, reserved.body.errors]).toEqual([400, { attributes: 'attribute keys must not start with `@`' }]);
      expect400(
        await http().get('/api/ee/tenant?status=gone').set(auth(admin)),
        'status',
        'value must be one of: `all`, `active`, `deactivated`.',
      );
      expect404(await http().get('/api/ee/tenant/99999').set(auth(admin)));
      const other = (await tenants()).find((x: { slug: string }) => x.slug === 'umbrella');
      const initech = (await tenants()).find((x: { slug: string }) => x.slug === 'initech');
      expectMessage(await http().put(`/api/ee/tenant/${initech.id}`).set(auth(admin)).send({ name: other.name }), TAKEN);
    });

    it('is for admins only', async () => {
      const user = await makeUser(t, admin);
      expect403(await http().get('/api/ee/tenant').set(auth(user.session)));
      expect403(await http().post('/api/ee/tenant').set(auth(user.session)).send({ name: 'X', slug: 'x' }));
    });
  });
});
