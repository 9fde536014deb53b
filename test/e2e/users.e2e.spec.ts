import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SSO_PASSWORD, UsersService } from '../../src/modules/users/users.service';
import { ADMIN, auth, makeUser, MadeUser, setupAdmin } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { expect401, expect403, expect404, expect400 } from '../support/expect-wire';

const LAST_ADMIN = "You cannot remove the last member of the 'Admin' group!";

describe('users API', () => {
  let t: TestApp;
  let admin: string;
  let adminId: number;
  const http = () => t.http();

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    adminId = (await http().get('/api/user/current').set(auth(admin)).expect(200)).body.id;
  });
  afterAll(() => t.close());

  /** An API key acting as an `api-key` user, written straight to the app DB (its endpoints are another module's). */
  async function makeApiKey(groupIds: number[] = []): Promise<{ userId: number; key: string }> {
    const user = await t.app.get(UsersService).create({
      email: `key-${randomBytes(4).toString('hex')}@api-key.invalid`,
      first_name: 'Key',
      type: 'api-key',
      group_ids: groupIds,
      is_superuser: groupIds.includes(2),
    });
    const key = `mb_${randomBytes(32).toString('base64')}`;
    await t.app
      .get(DataSource)
      .createQueryBuilder()
      .insert()
      .into('api_key', ['user_id', 'name', 'key_hash', 'key_prefix', 'creator_id', 'updated_by_id'])
      .values({
        user_id: user.id,
        name: `key ${user.id}`,
        key_hash: createHash('sha256').update(key).digest('hex'),
        key_prefix: key.slice(0, 7),
        creator_id: adminId,
        updated_by_id: adminId,
      })
      .execute();
    return { userId: user.id, key };
  }

  async function newGroup(name = `G ${randomBytes(3).toString('hex')}`): Promise<number> {
    return (await http().post('/api/permissions/group').set(auth(admin)).send({ name }).expect(200)).body.id;
  }

  describe('GET /api/user/current', () => {
    it('answers the caller', async () => {
      const res = await http().get('/api/user/current').set(auth(admin)).expect(200);
      expect(res.body).toMatchObject({
        email: ADMIN.email,
        first_name: 'Ada',
        last_name: 'Admin',
        common_name: 'Ada Admin',
        is_superuser: true,
        is_active: true,
        locale: null,
        personal_collection_id: expect.any(Number),
        user_group_memberships: [{ id: 1 }, { id: 2 }],
      });
      expect(typeof res.body.date_joined).toBe('string');
      const u = await makeUser(t, admin);
      const mine = await http().get('/api/user/current').set(auth(u.session)).expect(200);
      expect(mine.body).toMatchObject({ id: u.id, is_superuser: false, user_group_memberships: [{ id: 1, is_group_manager: false }] });
    });

    it('answers exactly as GET /api/user/:id (one statement against the entities), groups, managers and attributes included', async () => {
      const u = await makeUser(t, admin);
      const [g1, g2] = [await newGroup(), await newGroup()];
      await http()
        .put(`/api/user/${u.id}`)
        .set(auth(admin))
        .send({
          first_name: 'Zoë',
          last_name: null,
          locale: 'de',
          login_attributes: { region: 'north', level: 3 },
          user_group_memberships: [{ id: 1 }, { id: g2, is_group_manager: true }, { id: g1, is_group_manager: false }],
        })
        .expect(200);
      await http().post('/api/session').send({ username: u.email, password: u.password }).expect(200); // sets last_login
      for (const [session, id] of [
        [u.session, u.id],
        [admin, adminId],
      ] as const) {
        const current = (await http().get('/api/user/current').set(auth(session)).expect(200)).body;
        const byId = (await http().get(`/api/user/${id}`).set(auth(admin)).expect(200)).body;
        expect(current).toEqual(byId);
      }
      const current = (await http().get('/api/user/current').set(auth(u.session)).expect(200)).body;
      expect(current).toMatchObject({
        first_name: 'Zoë',
        last_name: null,
        common_name: 'Zoë',
        locale: 'de',
        login_attributes: { region: 'north', level: 3 },
        last_login: expect.any(String),
        user_group_memberships: [
          { id: 1, is_group_manager: false },
          { id: Math.min(g1, g2), is_group_manager: Math.min(g1, g2) === g2 },
          { id: Math.max(g1, g2), is_group_manager: Math.max(g1, g2) === g2 },
        ],
        group_ids: [1, Math.min(g1, g2), Math.max(g1, g2)],
      });
    });

    it('shows every change at once, though the answer is kept between requests', async () => {
      const u = await makeUser(t, admin);
      const current = async () => (await http().get('/api/user/current').set(auth(u.session)).expect(200)).body;
      const first = await current();
      expect(await current()).toEqual(first);
      await http().put(`/api/user/${u.id}`).set(auth(admin)).send({ first_name: 'Changed', locale: 'fr' }).expect(200);
      expect(await current()).toMatchObject({ first_name: 'Changed', common_name: 'Changed User', locale: 'fr' });
      const group = await newGroup();
      await http().post('/api/permissions/membership').set(auth(admin)).send({ group_id: group, user_id: u.id }).expect(200);
      expect((await current()).group_ids).toEqual([1, group]);
      await http().post('/api/session').send({ username: u.email, password: u.password }).expect(200);
      expect((await current()).last_login).not.toBe(first.last_login);
      await http().put(`/api/user/${u.id}`).set(auth(admin)).send({ is_superuser: true }).expect(200);
      expect(await current()).toMatchObject({ is_superuser: true });
    });

    it("answers an API key's user", async () => {
      const { userId, key } = await makeApiKey();
      const res = await http().get('/api/user/current').set('X-Api-Key', key).expect(200);
      expect(res.body).toMatchObject({ id: userId, is_superuser: false });
    });

    it('needs credentials', async () => {
      expect401(await http().get('/api/user/current'));
      expect401(await http().get('/api/user/current').set(auth('not-a-session')));
    });
  });

  describe('POST /api/user', () => {
    it('creates a user who can log in', async () => {
      const res = await http()
        .post('/api/user')
        .set(auth(admin))
        .send({
          email: 'Carol@Example.com',
          first_name: 'Carol',
          last_name: 'Cole',
          password: 'Pw-carol-12',
          login_attributes: { region: 'EU' },
        })
        .expect(200);
      expect(res.body).toMatchObject({
        email: 'carol@example.com',
        common_name: 'Carol Cole',
        is_superuser: false,
        is_active: true,
        login_attributes: { region: 'EU' },
        user_group_memberships: [{ id: 1, is_group_manager: false }],
      });
      await http().post('/api/session').send({ username: 'carol@example.com', password: 'Pw-carol-12' }).expect(200);
    });

    it('adds the given groups; Administrators makes a superuser', async () => {
      const g = await newGroup();
      const res = await http()
        .post('/api/user')
        .set(auth(admin))
        .send({ email: 'dan@example.com', user_group_memberships: [{ id: 2 }, { id: g, is_group_manager: true }] })
        .expect(200);
      expect(res.body.is_superuser).toBe(true);
      expect(res.body.user_group_memberships).toEqual([
        { id: 1, is_group_manager: false },
        { id: 2, is_group_manager: false },
        { id: g, is_group_manager: true },
      ]);
      expect(res.body.first_name).toBeNull();
      expect(res.body.common_name).toBe('dan@example.com');
    });

    it('refuses an email already in use, whatever its case', async () => {
      const res = await http().post('/api/user').set(auth(admin)).send({ email: ADMIN.email.toUpperCase() });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ email: 'Email address already in use.' });
    });

    it('validates the body', async () => {
      const post = (body: object) => http().post('/api/user').set(auth(admin)).send(body);
      const ok = { email: `v-${randomBytes(3).toString('hex')}@example.com` };
      expect400(await post({}), 'email', 'value must be a valid email address.');
      expect400(await post({ email: 'not-an-email' }), 'email', 'value must be a valid email address.');
      expect400(await post({ email: 42 }), 'email', 'value must be a valid email address.');
      expect400(await post({ ...ok, first_name: '  ' }), 'first_name', 'value must be a non-blank string.');
      expect400(await post({ ...ok, last_name: 7 }), 'last_name', 'value must be a non-blank string.');
      expect400(await post({ ...ok, first_name: 'x'.repeat(255) }), 'first_name', 'value must be a string of at most 254 characters.');
      expect400(await post({ ...ok, password: 'short' }), 'password', 'password must be at least 6 characters long and include 1 number.');
      expect400(await post({ ...ok, password: 'password1' }), 'password', 'password is too common.');
      expect400(await post({ ...ok, user_group_memberships: 3 }), 'user_group_memberships', 'value must be an array.');
      expect400(
        await post({ ...ok, user_group_memberships: [5] }),
        'user_group_memberships',
        'value must be a sequence of maps with an `id` key.',
      );
      expect400(
        await post({ ...ok, user_group_memberships: [{}] }),
        'user_group_memberships',
        'value must be an integer greater than zero.',
      );
      expect400(
        await post({ ...ok, user_group_memberships: [{ id: 0 }] }),
        'user_group_memberships',
        'value must be an integer greater than zero.',
      );
      expect400(
        await post({ ...ok, user_group_memberships: [{ id: 1e12 }] }),
        'user_group_memberships',
        'value must be an integer greater than zero.',
      );
      expect400(
        await post({ ...ok, user_group_memberships: [{ id: 1, is_group_manager: 'yes' }] }),
        'user_group_memberships',
        'value must be a boolean.',
      );
      expect400(
        await post({ ...ok, user_group_memberships: [{ id: 9999 }] }),
        'user_group_memberships',
        'every group id must be an existing group.',
      );
      expect400(await post({ ...ok, login_attributes: ['a'] }), 'login_attributes', 'value must be a map.');
      // Nothing was created by the refused requests.
      const list = await http().get('/api/user').query({ query: ok.email }).set(auth(admin)).expect(200);
      expect(list.body.total).toBe(0);
    });

    it('is for admins only', async () => {
      const u = await makeUser(t, admin);
      expect403(await http().post('/api/user').set(auth(u.session)).send({ email: 'x@example.com' }));
      expect401(await http().post('/api/user').send({ email: 'x@example.com' }));
    });
  });

  describe('GET /api/user', () => {
    let ann: MadeUser;
    let bob: MadeUser;
    let gone: MadeUser;
    let t2: TestApp;
    let root: string;

    beforeAll(async () => {
      // A separate app, so the list holds exactly the users made here.
      t2 = await startTestApp();
      root = await setupAdmin(t2);
      ann = await makeUser(t2, root, { first_name: 'ann', last_name: 'Zed' });
      bob = await makeUser(t2, root, { first_name: 'Bob', last_name: 'Young_Q' });
      gone = await makeUser(t2, root, { first_name: 'Cyd', last_name: 'Gone' });
      await t2.http().delete(`/api/user/${gone.id}`).set(auth(root)).expect(200);
      await t2.app.get(UsersService).create({ email: 'key@api-key.invalid', first_name: 'Aaron', type: 'api-key' });
    });
    afterAll(() => t2.close());

    const list = (query: Record<string, string> = {}) => t2.http().get('/api/user').query(query).set(auth(root));

    it('lists active personal users by name', async () => {
      const res = await list().expect(200);
      expect(res.body).toMatchObject({ total: 3, limit: null, offset: null });
      expect(res.body.data.map((u: { first_name: string }) => u.first_name)).toEqual(['Ada', 'ann', 'Bob']);
      expect(res.body.data[1]).toMatchObject({ id: ann.id, email: ann.email, is_active: true, user_group_memberships: [{ id: 1 }] });
    });

    it('includes deactivated users when asked', async () => {
      const all = await list({ include_deactivated: 'true' }).expect(200);
      expect(all.body.total).toBe(4);
      expect(all.body.data.find((u: { id: number }) => u.id === gone.id).is_active).toBe(false);
      expect((await list({ include_deactivated: 'false' }).expect(200)).body.total).toBe(3);
      const onlyGone = await list({ status: 'deactivated' }).expect(200);
      expect(onlyGone.body.data.map((u: { id: number }) => u.id)).toEqual([gone.id]);
      expect((await list({ status: 'all' }).expect(200)).body.total).toBe(4);
    });

    it('filters by name or email, regardless of case, and by group', async () => {
      expect((await list({ query: 'ZED' }).expect(200)).body.data.map((u: { id: number }) => u.id)).toEqual([ann.id]);
      expect((await list({ query: bob.email.slice(0, 9).toUpperCase() }).expect(200)).body.data.map((u: { id: number }) => u.id)).toEqual([
        bob.id,
      ]);
      // LIKE wildcards in the query are literal characters.
      expect((await list({ query: 'g_q' }).expect(200)).body.data.map((u: { id: number }) => u.id)).toEqual([bob.id]);
      expect((await list({ query: '%' }).expect(200)).body.total).toBe(0);
      expect((await list({ query: 'gone', include_deactivated: 'true' }).expect(200)).body.total).toBe(1);
      const admins = await list({ group_id: '2' }).expect(200);
      expect(admins.body.data.map((u: { email: string }) => u.email)).toEqual([ADMIN.email]);
    });

    it('pages with limit and offset; total counts every match', async () => {
      const page = await list({ limit: '2', offset: '1' }).expect(200);
      expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 1 });
      expect(page.body.data.map((u: { id: number }) => u.id)).toEqual([ann.id, bob.id]);
      const rest = await list({ offset: '2' }).expect(200);
      expect(rest.body.data.map((u: { id: number }) => u.id)).toEqual([bob.id]);
      expect((await list({ limit: '1' }).expect(200)).body.data).toHaveLength(1);
    });

    it('validates the query string', async () => {
      expect400(await list({ include_deactivated: 'yes' }), 'include_deactivated', 'value must be a valid boolean string.');
      expect400(await list({ status: 'gone' }), 'status', 'value must be one of: `active`, `deactivated`, `all`.');
      expect400(await list({ limit: '0' }), 'limit', 'value must be an integer greater than zero.');
      expect400(await list({ limit: 'ten' }), 'limit', 'value must be an integer greater than zero.');
      expect400(await list({ limit: '99999999999999999999' }), 'limit', 'value must be an integer greater than zero.');
      expect400(await list({ offset: '-1' }), 'offset', 'value must be an integer greater than or equal to zero.');
      expect400(await list({ group_id: 'x' }), 'group_id', 'value must be an integer greater than zero.');
      expect400(await t2.http().get('/api/user?query=a&query=b').set(auth(root)), 'query', 'value must be a string.');
    });

    it('is for admins only', async () => {
      expect403(await t2.http().get('/api/user').set(auth(ann.session)));
      expect401(await t2.http().get('/api/user'));
    });
  });

  describe('GET /api/user/:id', () => {
    it('shows yourself, or anyone to an admin', async () => {
      const u = await makeUser(t, admin);
      expect((await http().get(`/api/user/${u.id}`).set(auth(u.session)).expect(200)).body).toMatchObject({ id: u.id, email: u.email });
      expect((await http().get(`/api/user/${u.id}`).set(auth(admin)).expect(200)).body.id).toBe(u.id);
      expect403(await http().get(`/api/user/${adminId}`).set(auth(u.session)));
      expect401(await http().get(`/api/user/${u.id}`));
    });

    it('answers 404 for unknown, deactivated and API-key users, and 400 for a bad id', async () => {
      expect404(await http().get('/api/user/99999').set(auth(admin)));
      expect404(await http().get('/api/user/999999999999999').set(auth(admin)));
      const u = await makeUser(t, admin);
      await http().delete(`/api/user/${u.id}`).set(auth(admin)).expect(200);
      expect404(await http().get(`/api/user/${u.id}`).set(auth(admin)));
      const { userId } = await makeApiKey();
      expect404(await http().get(`/api/user/${userId}`).set(auth(admin)));
      expect400(await http().get('/api/user/abc').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
      expect400(await http().get('/api/user/0').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
    });
  });

  describe('PUT /api/user/:id', () => {
    it('lets users edit their own profile', async () => {
      const u = await makeUser(t, admin);
      const email = `New-${u.email}`.toUpperCase();
      const res = await http()
        .put(`/api/user/${u.id}`)
        .set(auth(u.session))
        .send({ first_name: 'Una', last_name: null, email, locale: 'pt-br' })
        .expect(200);
      expect(res.body).toMatchObject({
        first_name: 'Una',
        last_name: null,
        common_name: 'Una',
        email: email.toLowerCase(),
        locale: 'pt_BR',
      });
      const again = await http().put(`/api/user/${u.id}`).set(auth(u.session)).send({ locale: null }).expect(200);
      expect(again.body).toMatchObject({ first_name: 'Una', locale: null });
      await http().post('/api/session').send({ username: email, password: u.password }).expect(200);
    });

    it('refuses an email that belongs to someone else', async () => {
      const u = await makeUser(t, admin);
      const res = await http().put(`/api/user/${u.id}`).set(auth(u.session)).send({ email: ADMIN.email.toUpperCase() });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ email: 'Email address already associated to another user.' });
      await http().put(`/api/user/${u.id}`).set(auth(u.session)).send({ email: u.email.toUpperCase() }).expect(200);
    });

    it('keeps is_superuser, groups and login attributes for admins', async () => {
      const u = await makeUser(t, admin);
      const g = await newGroup();
      for (const body of [
        { is_superuser: true },
        { user_group_memberships: [{ id: 1 }, { id: g }] },
        { login_attributes: { region: 'x' } },
      ]) {
        expect403(await http().put(`/api/user/${u.id}`).set(auth(u.session)).send(body));
      }
      const other = await makeUser(t, admin);
      expect403(await http().put(`/api/user/${other.id}`).set(auth(u.session)).send({ first_name: 'X' }));
      expect((await http().get(`/api/user/${u.id}`).set(auth(admin)).expect(200)).body).toMatchObject({
        is_superuser: false,
        login_attributes: null,
      });
    });

    it('lets admins set groups, admin status and login attributes', async () => {
      const u = await makeUser(t, admin);
      const [g1, g2] = [await newGroup(), await newGroup()];
      const put = (body: object) => http().put(`/api/user/${u.id}`).set(auth(admin)).send(body);
      let res = await put({
        user_group_memberships: [{ id: g1 }, { id: g2, is_group_manager: true }],
        login_attributes: { region: 'EU' },
      }).expect(200);
      // All Users is kept even when the list leaves it out.
      expect(res.body.user_group_memberships).toEqual([
        { id: 1, is_group_manager: false },
        { id: g1, is_group_manager: false },
        { id: g2, is_group_manager: true },
      ]);
      expect(res.body.login_attributes).toEqual({ region: 'EU' });
      res = await put({ user_group_memberships: [{ id: 1 }, { id: g2 }] }).expect(200);
      expect(res.body.user_group_memberships).toEqual([
        { id: 1, is_group_manager: false },
        { id: g2, is_group_manager: false },
      ]);

      res = await put({ is_superuser: true }).expect(200);
      expect(res.body.is_superuser).toBe(true);
      expect(res.body.group_ids).toEqual([1, 2, g2]);
      await http().get('/api/user').set(auth(u.session)).expect(200);
      res = await put({ user_group_memberships: [{ id: 1 }] }).expect(200);
      expect(res.body).toMatchObject({ is_superuser: false, group_ids: [1] });
      expect403(await http().get('/api/user').set(auth(u.session)));
      res = await put({ is_superuser: true, user_group_memberships: [{ id: 2 }] }).expect(200);
      expect(res.body).toMatchObject({ is_superuser: true, group_ids: [1, 2] });
      res = await put({ is_superuser: false }).expect(200);
      expect(res.body).toMatchObject({ is_superuser: false, group_ids: [1] });
      expect400(
        await put({ is_superuser: true, user_group_memberships: [{ id: 1 }] }),
        'is_superuser',
        'Value of is_superuser must correspond to presence of Admin group ID in group_ids.',
      );
    });

    it('validates the body', async () => {
      const u = await makeUser(t, admin);
      const put = (body: object) => http().put(`/api/user/${u.id}`).set(auth(admin)).send(body);
      expect400(await put({ email: 'nope' }), 'email', 'value must be a valid email address.');
      expect400(await put({ first_name: '' }), 'first_name', 'value must be a non-blank string.');
      expect400(
        await put({ locale: 'english' }),
        'locale',
        "String must be a valid two-letter ISO language or language-country code e.g. 'en' or 'en_US'.",
      );
      expect400(await put({ is_superuser: 'yes' }), 'is_superuser', 'value must be a boolean.');
      expect400(await put({ user_group_memberships: { id: 2 } }), 'user_group_memberships', 'value must be an array.');
      expect400(
        await put({ user_group_memberships: [{ id: 12345 }] }),
        'user_group_memberships',
        'every group id must be an existing group.',
      );
      expect400(await put({ login_attributes: 'x' }), 'login_attributes', 'value must be a map.');
      expect400(await http().put('/api/user/x').set(auth(admin)).send({}), 'id', 'value must be an integer greater than zero.');
    });

    it('answers 404 for unknown or deactivated users and 401 without credentials', async () => {
      expect404(await http().put('/api/user/99999').set(auth(admin)).send({ first_name: 'X' }));
      const u = await makeUser(t, admin);
      await http().delete(`/api/user/${u.id}`).set(auth(admin)).expect(200);
      expect404(await http().put(`/api/user/${u.id}`).set(auth(admin)).send({ first_name: 'X' }));
      expect401(await http().put(`/api/user/${adminId}`).send({ first_name: 'X' }));
    });
  });

  describe('PUT /api/user/:id/password', () => {
    it('changes your own password with the old one, ending your other sessions', async () => {
      const u = await makeUser(t, admin);
      const other = (await http().post('/api/session').send({ username: u.email, password: u.password }).expect(200)).body.id;
      const res = await http()
        .put(`/api/user/${u.id}/password`)
        .set(auth(u.session))
        .send({ password: 'New-pass-42', old_password: u.password })
        .expect(200);
      expect(res.body).toEqual({ success: true, session_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      await http().get('/api/user/current').set(auth(res.body.session_id)).expect(200);
      await http().get('/api/user/current').set(auth(u.session)).expect(200);
      expect401(await http().get('/api/user/current').set(auth(other)));
      await http().post('/api/session').send({ username: u.email, password: u.password }).expect(401);
      await http().post('/api/session').send({ username: u.email, password: 'New-pass-42' }).expect(200);
    });

    it('needs the right old password to change your own', async () => {
      const u = await makeUser(t, admin);
      for (const old of [{ old_password: 'wrong-pass-1' }, {}]) {
        const res = await http()
          .put(`/api/user/${u.id}/password`)
          .set(auth(u.session))
          .send({ password: 'New-pass-42', ...old });
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual({ old_password: 'Invalid password' });
      }
      await http().post('/api/session').send({ username: u.email, password: u.password }).expect(200);
    });

    it('sets no password for a user who signs in through SSO, not even by an admin', async () => {
      const u = await makeUser(t, admin);
      await t.app.get(DataSource).query(`UPDATE core_user SET sso_source = 'jwt' WHERE id = ${u.id}`);
      for (const [session, body] of [
        [admin, { password: 'Reset-pass-7' }],
        [u.session, { password: 'New-pass-42', old_password: u.password }],
      ] as const) {
        const res = await http().put(`/api/user/${u.id}/password`).set(auth(session)).send(body);
        expect([res.status, res.body]).toEqual([400, { message: SSO_PASSWORD }]);
      }
    });

    it("lets an admin set someone's password, which ends all their sessions", async () => {
      const u = await makeUser(t, admin);
      const res = await http().put(`/api/user/${u.id}/password`).set(auth(admin)).send({ password: 'Reset-pass-7' });
      expect(res.status).toBe(204);
      expect401(await http().get('/api/user/current').set(auth(u.session)));
      await http().post('/api/session').send({ username: u.email, password: 'Reset-pass-7' }).expect(200);
    });

    it('applies the password policy and validates the body', async () => {
      const u = await makeUser(t, admin);
      const put = (body: object) => http().put(`/api/user/${u.id}/password`).set(auth(u.session)).send(body);
      expect400(
        await put({ password: 'abc', old_password: u.password }),
        'password',
        'password must be at least 6 characters long and include 1 number.',
      );
      expect400(await put({ password: 'qwerty123', old_password: u.password }), 'password', 'password is too common.');
      expect400(await put({ old_password: u.password }), 'password', 'value must be a non-blank string.');
      expect400(await put({ password: 'New-pass-42', old_password: 5 }), 'old_password', 'value must be a non-blank string.');
    });

    it('refuses others, unknown users and missing credentials', async () => {
      const u = await makeUser(t, admin);
      expect403(
        await http().put(`/api/user/${adminId}/password`).set(auth(u.session)).send({ password: 'New-pass-42', old_password: 'x' }),
      );
      expect404(await http().put('/api/user/99999/password').set(auth(admin)).send({ password: 'New-pass-42' }));
      expect401(await http().put(`/api/user/${u.id}/password`).send({ password: 'New-pass-42' }));
    });
  });

  describe('DELETE /api/user/:id and PUT /api/user/:id/reactivate', () => {
    it('deactivates a user, whose sessions stop working at once, and reactivates them', async () => {
      const u = await makeUser(t, admin);
      expect((await http().delete(`/api/user/${u.id}`).set(auth(admin)).expect(200)).body).toEqual({ success: true });
      expect401(await http().get('/api/user/current').set(auth(u.session)));
      await http().post('/api/session').send({ username: u.email, password: u.password }).expect(401);
      // Deactivating again is harmless.
      await http().delete(`/api/user/${u.id}`).set(auth(admin)).expect(200);

      const res = await http().put(`/api/user/${u.id}/reactivate`).set(auth(admin)).expect(200);
      expect(res.body).toMatchObject({ id: u.id, is_active: true });
      await http().post('/api/session').send({ username: u.email, password: u.password }).expect(200);
      const again = await http().put(`/api/user/${u.id}/reactivate`).set(auth(admin));
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ message: 'Not able to reactivate an active user' });
    });

    it('brings a deactivated admin back without admin rights', async () => {
      const u = await makeUser(t, admin, { user_group_memberships: [{ id: 2 }] });
      await http().delete(`/api/user/${u.id}`).set(auth(admin)).expect(200);
      const res = await http().put(`/api/user/${u.id}/reactivate`).set(auth(admin)).expect(200);
      expect(res.body).toMatchObject({ is_superuser: false, group_ids: [1] });
    });

    it('protects yourself and the last admin', async () => {
      const solo = await startTestApp();
      try {
        const root = await setupAdmin(solo);
        const rootId = (await solo.http().get('/api/user/current').set(auth(root))).body.id;
        const put = (body: object) => solo.http().put(`/api/user/${rootId}`).set(auth(root)).send(body);
        // An admin API key does not count as an admin.
        await solo.app.get(UsersService).create({ email: 'k@api-key.invalid', type: 'api-key', is_superuser: true });
        for (const res of [
          await solo.http().delete(`/api/user/${rootId}`).set(auth(root)),
          await put({ is_superuser: false }),
          await put({ user_group_memberships: [{ id: 1 }] }),
        ]) {
          expect(res.status).toBe(400);
          expect(res.body).toEqual({ message: LAST_ADMIN });
        }
        const second = await makeUser(solo, root, { user_group_memberships: [{ id: 2 }] });
        const self = await solo.http().delete(`/api/user/${rootId}`).set(auth(root));
        expect(self.status).toBe(400);
        expect(self.body).toEqual({ message: 'You cannot deactivate yourself.' });
        await solo.http().delete(`/api/user/${second.id}`).set(auth(root)).expect(200);
        expect((await put({ first_name: 'Still' }).expect(200)).body.is_superuser).toBe(true);
      } finally {
        await solo.close();
      }
    });

    it('answers 404, 403, 401 and 400 as it should', async () => {
      const u = await makeUser(t, admin);
      expect404(await http().delete('/api/user/99999').set(auth(admin)));
      expect404(await http().put('/api/user/99999/reactivate').set(auth(admin)));
      const { userId } = await makeApiKey();
      expect404(await http().delete(`/api/user/${userId}`).set(auth(admin)));
      expect403(await http().delete(`/api/user/${adminId}`).set(auth(u.session)));
      expect403(await http().put(`/api/user/${u.id}/reactivate`).set(auth(u.session)));
      expect401(await http().delete(`/api/user/${u.id}`));
      expect401(await http().put(`/api/user/${u.id}/reactivate`));
      expect400(await http().delete('/api/user/-1').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
      expect400(await http().put('/api/user/1.5/reactivate').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
    });
  });
});

describe('concurrent user creation', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
  });
  afterAll(() => t.close());

  it('answers a race for one email with one user and 400s, never a 500', async () => {
    const body = { email: 'race@example.com', first_name: 'R', password: 'Racing-pass-31' };
    const results = await Promise.all([1, 2, 3, 4].map(() => t.http().post('/api/user').set(auth(admin)).send(body)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400]);
    for (const r of results.filter((x) => x.status === 400)) expect(r.body.errors.email).toBe('Email address already in use.');
  });
});
