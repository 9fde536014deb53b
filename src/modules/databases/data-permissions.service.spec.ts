import type { ClusterEvents } from '../../common/cluster/cluster-events';
import { MessageError, ValidationError } from '../../common/errors/api-errors';
import type { DatabasePermission } from '../../schema/database-permission.entity';
import { ADMIN_GROUP_ID } from '../../schema/permissions-group.entity';
import type { Access, DatabasePermissionsRepository } from '../warehouse';
import { DataPermissionsService } from './data-permissions.service';
import type { DatabasesRepository } from './databases.repository';

/** DataPermissionsService: the graph as shown, and how an edit is checked and stored; grants kept in memory. */
describe('DataPermissionsService', () => {
  const ALL_USERS = 1;
  const ANALYSTS = 5;
  const grant = (group_id: number, db_id: number, over: Partial<DatabasePermission> = {}) =>
    ({ group_id, db_id, data: 'unrestricted', native: 'write', download: 'limited', upload: 'no', ...over }) as DatabasePermission;

  function setup(grants: DatabasePermission[] = [], revision = 4) {
    const stored = new Map(grants.map((g) => [`${g.group_id}:${g.db_id}`, { ...g }]));
    let current = revision;
    const uploads: unknown[] = [];
    const tx = { update: jest.fn(async (_e: unknown, where: unknown, values: unknown) => void uploads.push([where, values])) };
    const perms = {
      all: jest.fn(async () => [...stored.values()]),
      groupIds: jest.fn().mockResolvedValue([ADMIN_GROUP_ID, ALL_USERS, ANALYSTS]),
      revision: jest.fn(async () => current),
      // A failed transaction leaves the revision as it was.
      transaction: jest.fn(async (work: (t: typeof tx) => unknown) => {
        const before = current;
        try {
          return await work(tx);
        } catch (e) {
          current = before;
          throw e;
        }
      }),
      bumpRevision: jest.fn(async (seen: number) => (seen === current ? (current++, true) : false)),
      grant: jest.fn(async (g: number, db: number) => stored.get(`${g}:${db}`) ?? null),
      set: jest.fn(async (g: number, db: number, access: Access) => void stored.set(`${g}:${db}`, { ...grant(g, db), ...access })),
    };
    const databases = { list: jest.fn().mockResolvedValue([{ id: 1 }, { id: 2 }]) };
    const events = { publish: jest.fn().mockResolvedValue(undefined) };
    const service = new DataPermissionsService(
      perms as unknown as DatabasePermissionsRepository,
      databases as unknown as DatabasesRepository,
      events as unknown as ClusterEvents,
    );
    return { service, perms, stored, uploads, events };
  }
  const edit = (groups: Record<string, unknown>, revision = 4) => ({ revision, groups });

  it('shows Administrators with full access, a missing or revoked grant as none, and upload only when granted', async () => {
    const m = setup([grant(ALL_USERS, 1, { upload: 'yes' }), grant(ANALYSTS, 1, { data: 'no', native: 'write', download: 'full' })]);
    const graph = await m.service.graph();
    expect(graph.revision).toBe(4);
    expect(graph.groups[ADMIN_GROUP_ID][2]).toEqual({ data: 'unrestricted', native: 'write', download: { schemas: 'full' } });
    expect(graph.groups[ALL_USERS][1]).toEqual({ data: 'unrestricted', native: 'write', download: { schemas: 'limited' }, upload: 'yes' });
    expect(graph.groups[ALL_USERS][2]).toEqual({ data: 'no', native: 'none', download: { schemas: 'none' } });
    expect(graph.groups[ANALYSTS][1]).toEqual({ data: 'no', native: 'none', download: { schemas: 'none' } });
  });

  it('refuses an edit made from an older revision with a 409, and moves the revision on', async () => {
    const m = setup();
    const e = await m.service.update(edit({ [ALL_USERS]: { 1: { data: 'no', native: 'none' } } }, 3)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).status).toBe(409);
    expect(m.perms.set).not.toHaveBeenCalled();
    const graph = await m.service.update(edit({ [ALL_USERS]: { 1: { data: 'no', native: 'none' } } }));
    expect(graph.revision).toBe(5);
    expect(m.events.publish).toHaveBeenCalledWith({ topic: 'permissions' });
  });

  it('stores native SQL and downloads only with data access, and keeps the download level when an edit leaves it out', async () => {
    const m = setup([grant(ANALYSTS, 1, { download: 'limited' })]);
    await m.service.update(
      edit({ [ANALYSTS]: { 1: { data: 'unrestricted', native: 'none' }, 2: { data: 'unrestricted', native: 'write' } } }),
    );
    expect(m.stored.get(`${ANALYSTS}:1`)).toMatchObject({ data: 'unrestricted', native: 'none', download: 'limited' });
    expect(m.stored.get(`${ANALYSTS}:2`)).toMatchObject({ data: 'unrestricted', native: 'write', download: 'full' });

    await m.service.update(edit({ [ANALYSTS]: { 1: { data: 'no', native: 'write', download: { schemas: 'full' } } } }, 5));
    expect(m.stored.get(`${ANALYSTS}:1`)).toMatchObject({ data: 'no', native: 'none', download: 'none' });
    // Revoking data access revokes uploads too.
    expect(m.uploads).toEqual([[{ group_id: ANALYSTS, db_id: 1 }, { upload: 'no' }]]);
  });

  it("takes the Administrators' unchanged access sent back, and refuses any change to it", async () => {
    const m = setup();
    await m.service.update(edit({ [ADMIN_GROUP_ID]: { 1: { data: 'unrestricted', native: 'write', download: { schemas: 'full' } } } }));
    expect(m.perms.set).not.toHaveBeenCalled();
    const e = await m.service
      .update(edit({ [ADMIN_GROUP_ID]: { 1: { data: 'unrestricted', native: 'none' } } }, 5))
      .catch((x: unknown) => x);
    expect((e as MessageError).message).toBe('You cannot change the permissions of the Administrators group.');
  });

  it('validates the body, groups and databases with the message of what is wrong', async () => {
    const m = setup();
    const errors = async (body: unknown) => {
      const e = await m.service.update(body).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ValidationError);
      return (e as ValidationError).errors;
    };
    expect(await errors({ groups: {} })).toEqual({ revision: 'value must be an integer.' });
    expect(await errors(edit({ [ALL_USERS]: { 1: { data: 'some', native: 'none' } } }))).toEqual({
      groups: 'each database must map to {data: `unrestricted` | `no`, native: `write` | `none`}.',
    });
    expect(
      await errors(edit({ [ALL_USERS]: { 1: { data: 'unrestricted', native: 'none', download: { schemas: { public: 'full' } } } } })),
    ).toEqual({
      groups: "each database's download must be {schemas: `full` | `limited` | `none`}.",
    });
    expect(await errors(edit({ 77: { 1: { data: 'no', native: 'none' } } }))).toEqual({ groups: 'group 77 does not exist.' });
    expect(await errors(edit({ [ALL_USERS]: { 9: { data: 'no', native: 'none' } } }))).toEqual({ groups: 'database 9 does not exist.' });
  });
});
