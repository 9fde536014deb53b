import { randomBytes } from 'node:crypto';
import { UsersService } from '../../src/modules/users/users.service';
import { auth, makeUser, setupAdmin } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { expect401, expect403, expect404, expect400, expectMessage } from '../support/expect-wire';

const LAST_ADMIN = "You cannot remove the last member of the 'Admin' group!";
const ALL_USERS = "You cannot add or remove users to/from the 'All Users' group.";

interface Membership {
  membership_id: number;
  group_id: number;
  user_id: number;
  is_group_manager: boolean;
}

describe('permissions groups and memberships API', () => {
  let t: TestApp;
  let admin: string;
  let adminId: number;
  const http = () => t.http();
  const uniq = () => randomBytes(3).toString('hex');

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    adminId = (await http().get('/api/user/current').set(auth(admin)).expect(200)).body.id;
  });
  afterAll(() => t.close());

  const newGroup = async (name = `Group ${uniq()}`): Promise<number> =>
    (await http().post('/api/permissions/group').set(auth(admin)).send({ name }).expect(200)).body.id;
  const join = (group_id: number, user_id: number, extra: object = {}) =>
    http()
      .post('/api/permissions/membership')
      .set(auth(admin))
      .send({ group_id, user_id, ...extra });
  const membershipsOf = async (userId: number): Promise<Membership[]> =>
    (await http().get('/api/permissions/membership').set(auth(admin)).expect(200)).body[userId] ?? [];

  describe('groups', () => {
    it('lists every group with its active member count, by name', async () => {
      const solo = await startTestApp();
      try {
        const root = await setupAdmin(solo);
        const post = (name: string) => solo.http().post('/api/permissions/group').set(auth(root)).send({ name }).expect(200);
        const beta = (await post('beta')).body.id;
        const alpha = (await post('Alpha')).body.id;
        const u = await makeUser(solo, root);
        const gone = await makeUser(solo, root);
        for (const id of [u.id, gone.id])
          await solo.http().post('/api/permissions/membership').set(auth(root)).send({ group_id: beta, user_id: id }).expect(200);
        await solo.http().delete(`/api/user/${gone.id}`).set(auth(root)).expect(200);
        const res = await solo.http().get('/api/permissions/group').set(auth(root)).expect(200);
        expect(res.body).toEqual([
          { id: 2, name: 'Administrators', magic_group_type: 'admin', member_count: 1 },
          { id: 1, name: 'All Users', magic_group_type: 'all-internal-users', member_count: 2 },
          { id: alpha, name: 'Alpha', magic_group_type: null, member_count: 0 },
          { id: beta, name: 'beta', magic_group_type: null, member_count: 1 },
        ]);
      } finally {
        await solo.close();
      }
    });

    it('shows group managers only the groups they manage, and refuses other users', async () => {
      const g = await newGroup();
      const manager = await makeUser(t, admin);
      const plain = await makeUser(t, admin);
      await join(g, manager.id, { is_group_manager: true }).expect(200);
      const res = await http().get('/api/permissions/group').set(auth(manager.session)).expect(200);
      expect(res.body.map((x: { id: number }) => x.id)).toEqual([g]);
      expect403(await http().get('/api/permissions/group').set(auth(plain.session)));
      expect401(await http().get('/api/permissions/group'));
    });

    it('creates a group with a unique name', async () => {
      const name = `Sales ${uniq()}`;
      const res = await http().post('/api/permissions/group').set(auth(admin)).send({ name }).expect(200);
      expect(res.body).toEqual({ id: expect.any(Number), name, magic_group_type: null, member_count: 0 });
      expectMessage(
        await http().post('/api/permissions/group').set(auth(admin)).send({ name: name.toUpperCase() }),
        'A group with that name already exists.',
      );
      expectMessage(
        await http().post('/api/permissions/group').set(auth(admin)).send({ name: 'administrators' }),
        'A group with that name already exists.',
      );
    });

    it('validates the group body', async () => {
      const post = (body: object) => http().post('/api/permissions/group').set(auth(admin)).send(body);
      expect400(await post({}), 'name', 'value must be a non-blank string.');
      expect400(await post({ name: '   ' }), 'name', 'value must be a non-blank string.');
      expect400(await post({ name: 12 }), 'name', 'value must be a non-blank string.');
      expect400(await post({ name: 'x'.repeat(256) }), 'name', 'value must be a string of at most 255 characters.');
      const g = await newGroup();
      expect400(
        await http().put(`/api/permissions/group/${g}`).set(auth(admin)).send({ name: '' }),
        'name',
        'value must be a non-blank string.',
      );
    });

    it('shows a group with its active members', async () => {
      const g = await newGroup();
      const u = await makeUser(t, admin, { first_name: 'Zoe', last_name: 'Zed' });
      const v = await makeUser(t, admin, { first_name: 'Abe', last_name: 'Ace' });
      const gone = await makeUser(t, admin);
      await join(g, u.id).expect(200);
      await join(g, v.id, { is_group_manager: true }).expect(200);
      await join(g, gone.id).expect(200);
      await http().delete(`/api/user/${gone.id}`).set(auth(admin)).expect(200);
      const res = await http().get(`/api/permissions/group/${g}`).set(auth(admin)).expect(200);
      expect(res.body).toMatchObject({ id: g, member_count: 2 });
      expect(res.body.members).toEqual([
        {
          user_id: v.id,
          email: v.email,
          first_name: 'Abe',
          last_name: 'Ace',
          common_name: 'Abe Ace',
          membership_id: expect.any(Number),
          group_id: g,
          is_group_manager: true,
          is_superuser: false,
        },
        expect.objectContaining({ user_id: u.id, common_name: 'Zoe Zed', is_group_manager: false }),
      ]);
    });

    it('renames a group', async () => {
      const g = await newGroup();
      const name = `Renamed ${uniq()}`;
      expect((await http().put(`/api/permissions/group/${g}`).set(auth(admin)).send({ name }).expect(200)).body).toMatchObject({
        id: g,
        name,
      });
      // Its own name in another case is not a clash.
      await http().put(`/api/permissions/group/${g}`).set(auth(admin)).send({ name: name.toUpperCase() }).expect(200);
      const other = await newGroup();
      expectMessage(
        await http().put(`/api/permissions/group/${other}`).set(auth(admin)).send({ name }),
        'A group with that name already exists.',
      );
    });

    it('deletes a group and its memberships', async () => {
      const g = await newGroup();
      const u = await makeUser(t, admin);
      await join(g, u.id).expect(200);
      const res = await http().delete(`/api/permissions/group/${g}`).set(auth(admin));
      expect(res.status).toBe(204);
      expect404(await http().get(`/api/permissions/group/${g}`).set(auth(admin)));
      expect((await membershipsOf(u.id)).map((m) => m.group_id)).toEqual([1]);
      expect((await http().get(`/api/user/${u.id}`).set(auth(admin)).expect(200)).body.group_ids).toEqual([1]);
    });

    it('keeps the built-in groups', async () => {
      expectMessage(
        await http().put('/api/permissions/group/1').set(auth(admin)).send({ name: 'Everyone' }),
        "You cannot edit or delete the 'All Users' permissions group.",
      );
      expectMessage(
        await http().delete('/api/permissions/group/2').set(auth(admin)),
        "You cannot edit or delete the 'Administrators' permissions group.",
      );
      expectMessage(
        await http().delete('/api/permissions/group/1').set(auth(admin)),
        "You cannot edit or delete the 'All Users' permissions group.",
      );
    });

    it('answers 404 for unknown groups, 400 for bad ids', async () => {
      expect404(await http().get('/api/permissions/group/99999').set(auth(admin)));
      expect404(await http().get('/api/permissions/group/999999999999').set(auth(admin)));
      expect404(await http().put('/api/permissions/group/99999').set(auth(admin)).send({ name: 'x' }));
      expect404(await http().delete('/api/permissions/group/99999').set(auth(admin)));
      expect400(await http().get('/api/permissions/group/abc').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
      expect400(
        await http().put('/api/permissions/group/0').set(auth(admin)).send({ name: 'x' }),
        'id',
        'value must be an integer greater than zero.',
      );
      expect400(await http().delete('/api/permissions/group/-3').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
    });

    it('is for admins only', async () => {
      const u = await makeUser(t, admin);
      const g = await newGroup();
      expect403(await http().post('/api/permissions/group').set(auth(u.session)).send({ name: 'x' }));
      expect403(await http().get(`/api/permissions/group/${g}`).set(auth(u.session)));
      expect403(await http().put(`/api/permissions/group/${g}`).set(auth(u.session)).send({ name: 'x' }));
      expect403(await http().delete(`/api/permissions/group/${g}`).set(auth(u.session)));
      expect401(await http().post('/api/permissions/group').send({ name: 'x' }));
      expect401(await http().get(`/api/permissions/group/${g}`));
      expect401(await http().put(`/api/permissions/group/${g}`).send({ name: 'x' }));
      expect401(await http().delete(`/api/permissions/group/${g}`));
    });
  });

  describe('memberships', () => {
    it('lists memberships by user', async () => {
      const res = await http().get('/api/permissions/membership').set(auth(admin)).expect(200);
      expect(res.body[adminId]).toEqual([
        { membership_id: expect.any(Number), group_id: 1, user_id: adminId, is_group_manager: false },
        { membership_id: expect.any(Number), group_id: 2, user_id: adminId, is_group_manager: false },
      ]);
    });

    it("adds a user to a group and answers the group's members", async () => {
      const g = await newGroup();
      const u = await makeUser(t, admin);
      const res = await join(g, u.id, { is_group_manager: true }).expect(200);
      expect(res.body).toEqual([
        expect.objectContaining({ user_id: u.id, group_id: g, is_group_manager: true, membership_id: expect.any(Number) }),
      ]);
      expect(await membershipsOf(u.id)).toContainEqual({
        membership_id: res.body[0].membership_id,
        group_id: g,
        user_id: u.id,
        is_group_manager: true,
      });
      expectMessage(await join(g, u.id), 'The user is already a member of that group.');
      expectMessage(await join(1, u.id), ALL_USERS);
    });

    it('makes a superuser of a member of Administrators, and takes it back on removal', async () => {
      const u = await makeUser(t, admin);
      expect403(await http().get('/api/user').set(auth(u.session)));
      await join(2, u.id).expect(200);
      expect((await http().get('/api/user/current').set(auth(u.session)).expect(200)).body.is_superuser).toBe(true);
      await http().get('/api/user').set(auth(u.session)).expect(200);
      const m = (await membershipsOf(u.id)).find((x) => x.group_id === 2)!;
      expect((await http().delete(`/api/permissions/membership/${m.membership_id}`).set(auth(admin))).status).toBe(204);
      expect((await http().get('/api/user/current').set(auth(u.session)).expect(200)).body).toMatchObject({
        is_superuser: false,
        group_ids: [1],
      });
      expect403(await http().get('/api/user').set(auth(u.session)));
    });

    it('removes a membership, but never from All Users nor the last admin', async () => {
      const g = await newGroup();
      const u = await makeUser(t, admin);
      const added = (await join(g, u.id).expect(200)).body[0].membership_id;
      expect((await http().delete(`/api/permissions/membership/${added}`).set(auth(admin))).status).toBe(204);
      expect404(await http().delete(`/api/permissions/membership/${added}`).set(auth(admin)));
      const allUsers = (await membershipsOf(u.id)).find((x) => x.group_id === 1)!;
      expectMessage(await http().delete(`/api/permissions/membership/${allUsers.membership_id}`).set(auth(admin)), ALL_USERS);

      const solo = await startTestApp();
      try {
        const root = await setupAdmin(solo);
        const rootId = (await solo.http().get('/api/user/current').set(auth(root))).body.id;
        const mine = (await solo.http().get('/api/permissions/membership').set(auth(root))).body[rootId].find(
          (x: Membership) => x.group_id === 2,
        );
        expectMessage(await solo.http().delete(`/api/permissions/membership/${mine.membership_id}`).set(auth(root)), LAST_ADMIN);
        const second = await makeUser(solo, root, { user_group_memberships: [{ id: 2 }] });
        expect((await solo.http().delete(`/api/permissions/membership/${mine.membership_id}`).set(auth(root))).status).toBe(204);
        expect403(await solo.http().get('/api/user').set(auth(root)));
        await solo.http().get('/api/user').set(auth(second.session)).expect(200);
      } finally {
        await solo.close();
      }
    });

    it("leaves an API key's user to the API key endpoints", async () => {
      const g = await newGroup();
      const key = await t.app.get(UsersService).create({ email: `k-${uniq()}@api-key.invalid`, type: 'api-key', group_ids: [g] });
      const m = (await membershipsOf(key.id)).find((x) => x.group_id === g)!;
      expectMessage(await join(2, key.id), "An API key's group is changed through /api/api-key.");
      expectMessage(
        await http().delete(`/api/permissions/membership/${m.membership_id}`).set(auth(admin)),
        "An API key's group is changed through /api/api-key.",
      );
    });

    it('validates the membership body', async () => {
      const u = await makeUser(t, admin);
      expect400(await join('x' as unknown as number, u.id), 'group_id', 'value must be an integer greater than zero.');
      expect400(await join(0, u.id), 'group_id', 'value must be an integer greater than zero.');
      expect400(await join(3, 1.5), 'user_id', 'value must be an integer greater than zero.');
      expect400(
        await http().post('/api/permissions/membership').set(auth(admin)).send({ group_id: 2 }),
        'user_id',
        'value must be an integer greater than zero.',
      );
      expect400(await join(2, u.id, { is_group_manager: 'yes' }), 'is_group_manager', 'value must be a boolean.');
      expect400(
        await http().delete('/api/permissions/membership/abc').set(auth(admin)),
        'id',
        'value must be an integer greater than zero.',
      );
    });

    it('answers 404 for unknown groups, users and memberships', async () => {
      const u = await makeUser(t, admin);
      const g = await newGroup();
      expect404(await join(99999, u.id));
      expect404(await join(g, 99999));
      expect404(await http().delete('/api/permissions/membership/99999').set(auth(admin)));
    });

    it('is for admins only', async () => {
      const u = await makeUser(t, admin);
      const g = await newGroup();
      expect403(await http().get('/api/permissions/membership').set(auth(u.session)));
      expect403(await http().post('/api/permissions/membership').set(auth(u.session)).send({ group_id: g, user_id: u.id }));
      expect403(await http().delete('/api/permissions/membership/1').set(auth(u.session)));
      expect401(await http().get('/api/permissions/membership'));
      expect401(await http().post('/api/permissions/membership').send({ group_id: g, user_id: u.id }));
      expect401(await http().delete('/api/permissions/membership/1'));
      expect((await membershipsOf(u.id)).map((m) => m.group_id)).toEqual([1]);
    });
  });
});
