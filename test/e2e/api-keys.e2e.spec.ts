import { DataSource } from 'typeorm';
import { sha256Hex } from '../../src/common/crypto/hashing';
import { ApiKey } from '../../src/schema/api-key.entity';
import { PermissionsGroupMembership } from '../../src/schema/permissions-group-membership.entity';
import { PermissionsGroup } from '../../src/schema/permissions-group.entity';
import { User } from '../../src/schema/user.entity';
import { ADMIN, auth, makeUserDirect, MadeUser, setupAdmin } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const MSG_POSITIVE_INT = 'value must be an integer greater than zero.';
const MSG_NON_BLANK = 'value must be a non-blank string.';
const NAME_TAKEN = 'An API key with this name already exists.';
const apiKey = (key: string) => ({ 'X-Api-Key': key });

describe('API keys', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: string;
  let adminId: number;
  let user: MadeUser;
  let analysts: PermissionsGroup;
  let seq = 0;
  const uniqueName = (base = 'key') => `${base} ${++seq}`;

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(DataSource);
    admin = await setupAdmin(t);
    adminId = (await db.manager.findOneByOrFail(User, { email: ADMIN.email })).id;
    user = await makeUserDirect(t);
    // The groups API is written elsewhere; a row is all a key needs.
    analysts = await db.manager.save(db.manager.create(PermissionsGroup, { name: 'Analysts', magic_group_type: null }));
  });
  afterAll(() => t.close());

  const create = async (group_id: number, name = uniqueName()) =>
    (await t.http().post('/api/api-key').set(auth(admin)).send({ name, group_id }).expect(200)).body;
  const groupsOf = async (userId: number) =>
    (await db.manager.find(PermissionsGroupMembership, { where: { user_id: userId }, order: { group_id: 'ASC' } })).map((m) => m.group_id);
  const keyRow = (id: number) => db.manager.findOneByOrFail(ApiKey, { id });
  const userRow = (id: number) => db.manager.findOneByOrFail(User, { id });

  describe('POST /api/api-key', () => {
    it('creates a key acting as a new api-key user, and shows the key once', async () => {
      const res = await t.http().post('/api/api-key').set(auth(admin)).send({ name: 'Embedding dev', group_id: 2 }).expect(200);
      const body = res.body;
      expect(body).toEqual({
        id: expect.any(Number),
        name: 'Embedding dev',
        group: { id: 2, name: 'Administrators' },
        creator_id: adminId,
        masked_key: `${body.unmasked_key.slice(0, 7)}****`,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        updated_by: { id: adminId, common_name: 'Ada Admin' },
        unmasked_key: expect.stringMatching(/^mb_[A-Za-z0-9+/]{43}=$/),
      });
      expect(new Date(body.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);

      const row = await db.manager
        .createQueryBuilder(ApiKey, 'k')
        .addSelect('k.key_hash')
        .where('k.id = :id', { id: body.id })
        .getOneOrFail();
      expect(row.key_hash).toBe(sha256Hex(body.unmasked_key));
      expect(row.key_prefix).toBe(body.unmasked_key.slice(0, 7));

      const keyUser = await userRow(row.user_id);
      expect(keyUser).toMatchObject({ type: 'api-key', first_name: 'Embedding dev', last_name: null, is_superuser: true, is_active: true });
      expect(keyUser.email).toMatch(/^api-key-user-[0-9a-f-]{36}@api-key\.invalid$/);
      expect(await groupsOf(keyUser.id)).toEqual([1, 2]);
    });

    it('puts a key in All Users only, or in All Users and a custom group, without superuser rights', async () => {
      const allUsers = await create(1);
      expect(allUsers.group).toEqual({ id: 1, name: 'All Users' });
      const inAnalysts = await create(analysts.id);
      expect(inAnalysts.group).toEqual({ id: analysts.id, name: 'Analysts' });
      const analystUser = await userRow((await keyRow(inAnalysts.id)).user_id);
      expect(analystUser.is_superuser).toBe(false);
      expect(await groupsOf(analystUser.id)).toEqual([1, analysts.id]);
      expect(await groupsOf((await keyRow(allUsers.id)).user_id)).toEqual([1]);
    });

    it('refuses a duplicate name, and creates nothing when refusing', async () => {
      const name = uniqueName('dup');
      await create(1, name);
      const counts = async () => [await db.manager.count(User, { where: { type: 'api-key' } }), await db.manager.count(ApiKey)];
      const before = await counts();
      const res = await t.http().post('/api/api-key').set(auth(admin)).send({ name, group_id: 2 }).expect(400);
      expect(res.body.errors).toEqual({ name: NAME_TAKEN });
      expect(await counts()).toEqual(before);
    });

    it.each([
      [{ group_id: 1 }, 'name', MSG_NON_BLANK],
      [{ name: '   ', group_id: 1 }, 'name', MSG_NON_BLANK],
      [{ name: 42, group_id: 1 }, 'name', MSG_NON_BLANK],
      [{ name: 'n'.repeat(255), group_id: 1 }, 'name', 'value must be a string of at most 254 characters.'],
      [{ name: 'no group' }, 'group_id', MSG_POSITIVE_INT],
      [{ name: 'zero group', group_id: 0 }, 'group_id', MSG_POSITIVE_INT],
      [{ name: 'text group', group_id: 'two' }, 'group_id', MSG_POSITIVE_INT],
      [{ name: 'float group', group_id: 1.5 }, 'group_id', MSG_POSITIVE_INT],
      [{ name: 'missing group', group_id: 9999 }, 'group_id', 'value must be the id of an existing group.'],
    ])('refuses %j', async (body, param, message) => {
      const res = await t.http().post('/api/api-key').set(auth(admin)).send(body).expect(400);
      expect(res.body.errors).toEqual({ [param]: message });
      expect(res.body['specific-errors'][param]).toHaveLength(1);
    });
  });

  describe('GET /api/api-key and /api/api-key/count', () => {
    it('lists every key with its group and editor, never the key itself', async () => {
      const a = await create(analysts.id);
      const res = await t.http().get('/api/api-key').set(auth(admin)).expect(200);
      const count = await t.http().get('/api/api-key/count').set(auth(admin)).expect(200);
      expect(count.headers['content-type']).toMatch(/^application\/json/);
      expect(count.body).toBe(res.body.length);
      expect(res.body.length).toBe(await db.manager.count(ApiKey));
      for (const k of res.body) {
        expect(k.unmasked_key).toBeUndefined();
        expect(k.key_hash).toBeUndefined();
        expect(k.masked_key).toMatch(/^mb_.{4}\*\*\*\*$/);
        expect(k.updated_by).toEqual({ id: adminId, common_name: 'Ada Admin' });
      }
      const listed = res.body.find((k: { id: number }) => k.id === a.id);
      const { unmasked_key: _shownOnce, ...withoutKey } = a;
      expect(listed).toEqual(withoutKey);
      expect(res.body.map((k: { id: number }) => k.id)).toEqual([...res.body.map((k: { id: number }) => k.id)].sort((x, y) => y - x));
    });
  });

  describe('PUT /api/api-key/:id', () => {
    it('renames a key and its user', async () => {
      const k = await create(1);
      const name = uniqueName('renamed');
      const res = await t.http().put(`/api/api-key/${k.id}`).set(auth(admin)).send({ name }).expect(200);
      expect(res.body).toMatchObject({ id: k.id, name, group: { id: 1, name: 'All Users' }, masked_key: k.masked_key });
      expect(res.body.unmasked_key).toBeUndefined();
      expect((await userRow((await keyRow(k.id)).user_id)).first_name).toBe(name);
      // Its own name again is not a clash.
      await t.http().put(`/api/api-key/${k.id}`).set(auth(admin)).send({ name }).expect(200);
    });

    it('moves a key between groups and keeps superuser rights in step', async () => {
      const k = await create(2);
      const userId = (await keyRow(k.id)).user_id;
      let res = await t.http().put(`/api/api-key/${k.id}`).set(auth(admin)).send({ group_id: analysts.id }).expect(200);
      expect(res.body.group).toEqual({ id: analysts.id, name: 'Analysts' });
      expect(await groupsOf(userId)).toEqual([1, analysts.id]);
      expect((await userRow(userId)).is_superuser).toBe(false);

      res = await t.http().put(`/api/api-key/${k.id}`).set(auth(admin)).send({ group_id: 1, name: null }).expect(200);
      expect(res.body.group).toEqual({ id: 1, name: 'All Users' });
      expect(await groupsOf(userId)).toEqual([1]);

      res = await t.http().put(`/api/api-key/${k.id}`).set(auth(admin)).send({ group_id: 2 }).expect(200);
      expect(res.body.group).toEqual({ id: 2, name: 'Administrators' });
      expect(await groupsOf(userId)).toEqual([1, 2]);
      expect((await userRow(userId)).is_superuser).toBe(true);
    });

    it('refuses bad input, unknown ids and taken names', async () => {
      const k = await create(1);
      const other = await create(1);
      const put = (id: string | number, body: object) => t.http().put(`/api/api-key/${id}`).set(auth(admin)).send(body);
      expect((await put(k.id, { name: other.name }).expect(400)).body.errors).toEqual({ name: NAME_TAKEN });
      expect((await put(k.id, { name: ' ' }).expect(400)).body.errors).toEqual({ name: MSG_NON_BLANK });
      expect((await put(k.id, { name: 7 }).expect(400)).body.errors).toEqual({ name: MSG_NON_BLANK });
      expect((await put(k.id, { name: 'n'.repeat(255) }).expect(400)).body.errors.name).toMatch(/at most 254/);
      expect((await put(k.id, { group_id: -1 }).expect(400)).body.errors).toEqual({ group_id: MSG_POSITIVE_INT });
      expect((await put(k.id, { group_id: 9999 }).expect(400)).body.errors).toEqual({
        group_id: 'value must be the id of an existing group.',
      });
      expect((await put('abc', { name: 'x' }).expect(400)).body.errors).toEqual({ id: MSG_POSITIVE_INT });
      expect((await put(0, { name: 'x' }).expect(400)).body.errors).toEqual({ id: MSG_POSITIVE_INT });
      expect((await put(99999, { name: 'x' }).expect(404)).text).toBe('Not found.');
      // Nothing changed by the refusals.
      expect((await keyRow(k.id)).name).toBe(k.name);
      expect(await groupsOf((await keyRow(k.id)).user_id)).toEqual([1]);
    });
  });

  describe('PUT /api/api-key/:id/regenerate', () => {
    it('replaces the key at once: the new one works, the old one no longer does', async () => {
      const k = await create(2);
      await t.http().get('/api/setting').set(apiKey(k.unmasked_key)).expect(200);
      const res = await t.http().put(`/api/api-key/${k.id}/regenerate`).set(auth(admin)).expect(200);
      expect(res.body).toMatchObject({ id: k.id, name: k.name, group: { id: 2, name: 'Administrators' }, updated_by: { id: adminId } });
      expect(res.body.unmasked_key).toMatch(/^mb_[A-Za-z0-9+/]{43}=$/);
      expect(res.body.unmasked_key).not.toBe(k.unmasked_key);
      expect(res.body.masked_key).toBe(`${res.body.unmasked_key.slice(0, 7)}****`);
      expect((await t.http().get('/api/setting').set(apiKey(k.unmasked_key)).expect(401)).text).toBe('Unauthenticated');
      await t.http().get('/api/setting').set(apiKey(res.body.unmasked_key)).expect(200);
    });

    it('answers 404 for an unknown key and 400 for a bad id', async () => {
      expect((await t.http().put('/api/api-key/99999/regenerate').set(auth(admin)).expect(404)).text).toBe('Not found.');
      expect((await t.http().put('/api/api-key/x/regenerate').set(auth(admin)).expect(400)).body.errors).toEqual({ id: MSG_POSITIVE_INT });
    });
  });

  describe('DELETE /api/api-key/:id', () => {
    it('deletes the key, deactivates its user, and the key stops working', async () => {
      const k = await create(2);
      const userId = (await keyRow(k.id)).user_id;
      await t.http().get('/api/setting').set(apiKey(k.unmasked_key)).expect(200);
      await t.http().delete(`/api/api-key/${k.id}`).set(auth(admin)).expect(204);
      expect((await t.http().get('/api/setting').set(apiKey(k.unmasked_key)).expect(401)).text).toBe('Unauthenticated');
      expect(await db.manager.findOneBy(ApiKey, { id: k.id })).toBeNull();
      expect((await userRow(userId)).is_active).toBe(false);
      const list = await t.http().get('/api/api-key').set(auth(admin)).expect(200);
      expect(list.body.map((x: { id: number }) => x.id)).not.toContain(k.id);
      expect((await t.http().delete(`/api/api-key/${k.id}`).set(auth(admin)).expect(404)).text).toBe('Not found.');
    });

    it('answers 400 for a bad id', async () => {
      expect((await t.http().delete('/api/api-key/-3').set(auth(admin)).expect(400)).body.errors).toEqual({ id: MSG_POSITIVE_INT });
    });
  });

  describe('authenticating with X-Api-Key', () => {
    it('acts as the key user: admin rights only through the Administrators group', async () => {
      const adminKey = await create(2);
      const analystKey = await create(analysts.id);
      await t.http().get('/api/setting').set(apiKey(adminKey.unmasked_key)).expect(200);
      // An admin key may manage keys itself, and is recorded as the editor.
      const made = await t
        .http()
        .post('/api/api-key')
        .set(apiKey(adminKey.unmasked_key))
        .send({ name: uniqueName('by key'), group_id: 1 })
        .expect(200);
      expect(made.body.creator_id).toBe((await keyRow(adminKey.id)).user_id);
      expect(made.body.updated_by.common_name).toBe(adminKey.name);

      const refused = await t.http().get('/api/setting').set(apiKey(analystKey.unmasked_key)).expect(403);
      expect(refused.text).toBe("You don't have permissions to do that.");
      await t.http().get('/api/util/random_token').set(apiKey(analystKey.unmasked_key)).expect(200);

      // Moving the key to Administrators grants the rights at once, and moving it back takes them away.
      await t.http().put(`/api/api-key/${analystKey.id}`).set(auth(admin)).send({ group_id: 2 }).expect(200);
      await t.http().get('/api/setting').set(apiKey(analystKey.unmasked_key)).expect(200);
      await t.http().put(`/api/api-key/${analystKey.id}`).set(auth(admin)).send({ group_id: analysts.id }).expect(200);
      await t.http().get('/api/setting').set(apiKey(analystKey.unmasked_key)).expect(403);
    });

    it('refuses an unknown key', async () => {
      const res = await t
        .http()
        .get('/api/util/random_token')
        .set(apiKey(`mb_${'A'.repeat(43)}=`))
        .expect(401);
      expect(res.text).toBe('Unauthenticated');
    });
  });

  describe('access', () => {
    // Every row has all three values: jest would take a missing one for a `done` callback.
    const routes: Array<[string, string, object | null]> = [
      ['post', '/api/api-key', { name: 'nope', group_id: 1 }],
      ['get', '/api/api-key', null],
      ['get', '/api/api-key/count', null],
      ['put', '/api/api-key/:id', { name: 'nope' }],
      ['put', '/api/api-key/:id/regenerate', null],
      ['delete', '/api/api-key/:id', null],
    ];

    it.each(routes)('%s %s needs a signed-in admin', async (method, path, body) => {
      const k = await create(1);
      const call = () => {
        const req = (t.http() as unknown as Record<string, (p: string) => import('supertest').Test>)[method](
          path.replace(':id', String(k.id)),
        );
        return body ? req.send(body) : req;
      };
      const anonymous = await call().expect(401);
      expect(anonymous.text).toBe('Unauthenticated');
      const forbidden = await call().set(auth(user.session)).expect(403);
      expect(forbidden.text).toBe("You don't have permissions to do that.");
      // The key survived both refusals unchanged.
      expect(await keyRow(k.id)).toMatchObject({ name: k.name, key_prefix: k.unmasked_key.slice(0, 7) });
    });
  });
});
