import type { ClusterEvents } from '../../common/cluster/cluster-events';
import { MessageError, ValidationError } from '../../common/errors/api-errors';
import type { DatabasePermission } from '../../schema/database-permission.entity';
import { ADMIN_GROUP_ID } from '../../schema/permissions-group.entity';
import type { DatabasePermissionsRepository, PermissionTable, TableGrant } from '../warehouse';
import { ENTRY_MESSAGE, DOWNLOAD_MESSAGE } from './data-permissions-parse';
import { DataPermissionsService } from './data-permissions.service';
import type { DatabasesRepository } from './databases.repository';

/** DataPermissionsService: the graph as shown, and how an edit is checked and stored; grants kept in memory. */
describe('DataPermissionsService', () => {
  const ALL_USERS = 1;
  const ANALYSTS = 5;
  const FULL_NEW = { 'view-data': 'unrestricted', 'create-queries': 'query-builder-and-native' };
  const grant = (group_id: number, db_id: number, over: Partial<DatabasePermission> = {}) =>
    ({
      group_id,
      db_id,
      data: 'unrestricted',
      native: 'write',
      download: 'limited',
      upload: 'no',
      create_queries: null,
      ...over,
    }) as DatabasePermission;
  const TABLES: PermissionTable[] = [
    { id: 10, db_id: 1, schema: 'PUBLIC', name: 'ORDERS' },
    { id: 11, db_id: 1, schema: 'PUBLIC', name: 'PEOPLE' },
  ];

  function setup(grants: DatabasePermission[] = [], revision = 4) {
    const stored = new Map(grants.map((g) => [`${g.group_id}:${g.db_id}`, { ...g }]));
    const tableRows = new Map<string, TableGrant[]>();
    let current = revision;
    const uploads: unknown[] = [];
    const tx = {};
    const perms = {
      all: jest.fn(async () => [...stored.values()]),
      allTableGrants: jest.fn(async () =>
        [...tableRows.entries()].flatMap(([k, rows]) =>
          rows.map((r) => ({ ...r, group_id: Number(k.split(':')[0]), db_id: Number(k.split(':')[1]) })),
        ),
      ),
      tables: jest.fn(async () => TABLES),
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
      tableGrants: jest.fn(async (g: number, db: number) => tableRows.get(`${g}:${db}`) ?? []),
      setLevels: jest.fn(async (g: number, db: number, access: Partial<DatabasePermission>, rows: TableGrant[], upload?: string) => {
        const up = access.data === 'no' ? 'no' : upload;
        if (up) uploads.push([g, db, up]);
        stored.set(`${g}:${db}`, {
          ...(stored.get(`${g}:${db}`) ?? grant(g, db)),
          ...access,
          ...(up ? { upload: up } : {}),
        } as DatabasePermission);
        tableRows.set(`${g}:${db}`, rows);
      }),
    };
    const databases = { list: jest.fn().mockResolvedValue([{ id: 1 }, { id: 2 }]) };
    const events = { publish: jest.fn().mockResolvedValue(undefined) };
    const service = new DataPermissionsService(
      perms as unknown as DatabasePermissionsRepository,
      databases as unknown as DatabasesRepository,
      events as unknown as ClusterEvents,
    );
    return { service, perms, stored, tableRows, uploads, events };
  }
  const edit = (groups: Record<string, unknown>, revision = 4) => ({ revision, groups });

  it('shows both formats: Administrators full, a missing or revoked grant as none, upload only when granted', async () => {
    const m = setup([grant(ALL_USERS, 1, { upload: 'yes' }), grant(ANALYSTS, 1, { data: 'no', native: 'write', download: 'full' })]);
    const graph = await m.service.graph();
    expect(graph.revision).toBe(4);
    expect(graph.groups[ADMIN_GROUP_ID][2]).toEqual({
      ...FULL_NEW,
      'data-model': { schemas: 'all' },
      details: 'yes',
      data: 'unrestricted',
      native: 'write',
      download: { schemas: 'full' },
    });
    expect(graph.groups[ALL_USERS][1]).toEqual({
      ...FULL_NEW,
      data: 'unrestricted',
      native: 'write',
      download: { schemas: 'limited' },
      upload: 'yes',
    });
    expect(graph.groups[ALL_USERS][2]).toEqual({ data: 'no', native: 'none', download: { schemas: 'none' } });
    expect(graph.groups[ANALYSTS][1]).toEqual({ data: 'no', native: 'none', download: { schemas: 'none' } });
  });

  it('refuses an edit made from an older revision with a 409 unless forced, and moves the revision on', async () => {
    const m = setup();
    const e = await m.service.update(edit({ [ALL_USERS]: { 1: { data: 'no', native: 'none' } } }, 3)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).status).toBe(409);
    expect(m.perms.setLevels).not.toHaveBeenCalled();
    const graph = await m.service.update(edit({ [ALL_USERS]: { 1: { data: 'no', native: 'none' } } }));
    expect(graph.revision).toBe(5);
    expect(m.events.publish).toHaveBeenCalledWith({ topic: 'permissions' });
    expect(await m.service.update(edit({ [ALL_USERS]: { 1: { 'view-data': 'blocked' } } }, 1), { force: true, skipGraph: true })).toEqual({
      revision: 6,
    });
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
    expect(m.uploads).toEqual([[ANALYSTS, 1, 'no']]);
    // Data access granted again with the download level as sent, though it is the one shown while blocked.
    await m.service.update(edit({ [ANALYSTS]: { 1: { data: 'unrestricted', native: 'none', download: { schemas: 'none' } } } }, 6));
    expect(m.stored.get(`${ANALYSTS}:1`)).toMatchObject({ data: 'unrestricted', native: 'none', download: 'none' });
  });

  it('stores per-table levels and shows them per schema, answering only the groups sent in the current format', async () => {
    const m = setup([grant(ANALYSTS, 1)]);
    const answer = await m.service.update(
      edit({
        [ANALYSTS]: {
          1: {
            'view-data': { PUBLIC: { 10: 'unrestricted', 11: 'blocked' } },
            'create-queries': 'query-builder',
            download: { schemas: 'full' },
          },
        },
      }),
    );
    expect(Object.keys(answer.groups!)).toEqual([String(ANALYSTS)]);
    expect(answer.groups![ANALYSTS][1]).toEqual({
      'view-data': { PUBLIC: { 10: 'unrestricted' } },
      'create-queries': { PUBLIC: { 10: 'query-builder' } },
      download: { schemas: { PUBLIC: { 10: 'full' } } },
      data: 'unrestricted',
      native: 'none',
    });
    expect(m.tableRows.get(`${ANALYSTS}:1`)).toEqual([
      { table_id: 10, view_data: 'unrestricted', create_queries: 'query-builder', download: 'full' },
      { table_id: 11, view_data: 'blocked', create_queries: 'no', download: 'none' },
    ]);
    // Viewable again, PEOPLE still takes no new queries nor downloads until those are given.
    await m.service.update(edit({ [ANALYSTS]: { 1: { 'view-data': { PUBLIC: 'unrestricted' } } } }, 5));
    expect(m.tableRows.get(`${ANALYSTS}:1`)).toEqual([
      { table_id: 10, view_data: null, create_queries: 'query-builder', download: 'full' },
      { table_id: 11, view_data: null, create_queries: 'no', download: 'none' },
    ]);
    // Every table alike again: database-wide, no table rows.
    await m.service.update(edit({ [ANALYSTS]: { 1: { 'create-queries': 'query-builder', download: { schemas: 'limited' } } } }, 6));
    expect(m.tableRows.get(`${ANALYSTS}:1`)).toEqual([]);
    expect(m.stored.get(`${ANALYSTS}:1`)).toMatchObject({
      data: 'unrestricted',
      native: 'none',
      download: 'limited',
      create_queries: 'query-builder',
    });
  });

  it("takes the Administrators' unchanged access sent back, and refuses any change to it", async () => {
    const m = setup();
    await m.service.update(edit({ [ADMIN_GROUP_ID]: { 1: { data: 'unrestricted', native: 'write', download: { schemas: 'full' } } } }));
    await m.service.update(edit({ [ADMIN_GROUP_ID]: { 1: { ...FULL_NEW, details: 'yes' } } }, 5));
    expect(m.perms.setLevels).not.toHaveBeenCalled();
    for (const entry of [{ data: 'unrestricted', native: 'none' }, { 'create-queries': 'query-builder' }]) {
      const e = await m.service.update(edit({ [ADMIN_GROUP_ID]: { 1: entry } }, 6)).catch((x: unknown) => x);
      expect((e as MessageError).message).toBe('You cannot change the permissions of the Administrators group.');
    }
  });

  it('validates the body, groups, databases, schemas and tables with the message of what is wrong', async () => {
    const m = setup();
    const errors = async (body: unknown) => {
      const e = await m.service.update(body).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ValidationError);
      return (e as ValidationError).errors;
    };
    expect(await errors({ groups: {} })).toEqual({ revision: 'value must be an integer.' });
    expect(await errors(edit({ [ALL_USERS]: { 1: { data: 'some', native: 'none' } } }))).toEqual({ groups: ENTRY_MESSAGE });
    expect(await errors(edit({ [ALL_USERS]: { 1: { download: { schemas: { PUBLIC: 'some' } } } } }))).toEqual({ groups: DOWNLOAD_MESSAGE });
    expect(await errors(edit({ 77: { 1: { data: 'no', native: 'none' } } }))).toEqual({ groups: 'group 77 does not exist.' });
    expect(await errors(edit({ [ALL_USERS]: { 9: { data: 'no', native: 'none' } } }))).toEqual({ groups: 'database 9 does not exist.' });
    expect(await errors(edit({ [ALL_USERS]: { 1: { 'view-data': { OTHER: 'blocked' } } } }))).toEqual({
      groups: 'schema "OTHER" does not exist in database 1.',
    });
    expect(await errors(edit({ [ALL_USERS]: { 1: { 'view-data': { PUBLIC: { 99: 'blocked' } } } } }))).toEqual({
      groups: 'table 99 does not exist in schema "PUBLIC" of database 1.',
    });
    expect(await errors(edit({ [ALL_USERS]: { 1: { details: 'yes' } } }))).toEqual({
      groups: 'details permissions are not supported: only administrators see database details.',
    });
    expect(await errors(edit({ [ALL_USERS]: { 1: { 'view-data': 'blocked', 'create-queries': 'query-builder-and-native' } } }))).toEqual({
      groups: 'Invalid DB permissions: If you have write access for native queries, you must have data access to all schemas.',
    });
  });
});
