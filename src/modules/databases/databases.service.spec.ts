import type { AuthUser } from '../../common/auth/current-user';
import { SecretBox } from '../../common/crypto/secret-box';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { EventBus } from '../../common/events/event-bus';
import type { AppLogger } from '../../common/logging/app-logger';
import type { WarehouseDatabase } from '../../schema/database.entity';
import type { WarehouseField } from '../../schema/field.entity';
import type { WarehouseTable } from '../../schema/table.entity';
import type { SyncRepository, SyncService } from '../sync';
import { type DatabaseAccessService, type DatabasePermissionsRepository, SECRET_MASK, type WarehouseConnections } from '../warehouse';
import { DatabaseDeleting } from './database-events';
import type { DatabasesRepository } from './databases.repository';
import { DatabasesService } from './databases.service';

/** DatabasesService with its repository, the warehouse connections and the access checks mocked. */
describe('DatabasesService', () => {
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const user = { id: 2, isSuperuser: false, groupIds: [3] } as unknown as AuthUser;
  const pgDetails = { host: 'db.internal', port: 5432, dbname: 'dw', user: 'reader', password: 'hunter2' };
  const database = (over: Partial<WarehouseDatabase> = {}) =>
    ({ id: 5, name: 'DW', engine: 'postgres', details: { ...pgDetails }, settings: null, is_sample: false, ...over }) as WarehouseDatabase;
  const table = (id: number, over: Partial<WarehouseTable> = {}) =>
    ({ id, db_id: 5, name: `t${id}`, schema: 'public', visibility_type: null, ...over }) as WarehouseTable;
  const field = (id: number, tableId: number, over: Partial<WarehouseField> = {}) =>
    ({ id, table_id: tableId, name: `f${id}`, visibility_type: 'normal', ...over }) as WarehouseField;

  function setup(opts: { db?: WarehouseDatabase | null; roleRow?: unknown[]; testFails?: Error } = {}) {
    const db = opts.db === undefined ? database() : opts.db;
    const order: string[] = [];
    const repo = {
      list: jest.fn().mockResolvedValue([database({ id: 5 }), database({ id: 6, name: 'Other' })]),
      findById: jest.fn().mockResolvedValue(db),
      activeTables: jest.fn().mockResolvedValue([table(10), table(11, { visibility_type: 'hidden' })]),
      activeFields: jest
        .fn()
        .mockResolvedValue([
          field(100, 10),
          field(101, 10, { visibility_type: 'sensitive' }),
          field(102, 11),
          field(103, 10, { visibility_type: 'retired' }),
        ]),
      transaction: jest.fn(async (work: (tx: unknown) => unknown) => work('tx')),
      save: jest.fn(async (row: Partial<WarehouseDatabase>) => ({ ...row, id: row.id ?? 9 })),
      delete: jest.fn(async () => void order.push('delete')),
    };
    const driver = {
      testConnection: opts.testFails ? jest.fn().mockRejectedValue(opts.testFails) : jest.fn().mockResolvedValue(undefined),
      query: jest.fn().mockResolvedValue({ rows: [opts.roleRow ?? [false, false, '']] }),
    };
    const connections = {
      validate: jest.fn((_engine: string, details: unknown) => details),
      withTemporary: jest.fn(async (_e: string, _d: unknown, work: (d: typeof driver) => unknown) => work(driver)),
      evict: jest.fn(async () => void order.push('evict')),
    };
    const access = {
      accessMap: jest.fn(async (c: AuthUser) =>
        c.isSuperuser ? 'all' : new Map([[5, { data: 'unrestricted', native: 'none', download: 'full' }]]),
      ),
      accessTo: jest.fn().mockResolvedValue({ data: 'unrestricted', native: 'none', download: 'full' }),
      assertCanRead: jest.fn().mockResolvedValue(undefined),
      viewableTables: jest.fn(async (_caller: unknown, tables: unknown[]) => tables),
    };
    const perms = { grantDefault: jest.fn().mockResolvedValue(undefined) };
    const sync = { inBackground: jest.fn(), discardValues: jest.fn() };
    const bus = new EventBus();
    bus.on(DatabaseDeleting, (e) => void order.push(`deleting ${e.databaseId}`));
    const logger = { debug: jest.fn(), warning: jest.fn() };
    const secrets = new SecretBox('passphrase of the test');
    const service = new DatabasesService(
      repo as unknown as DatabasesRepository,
      connections as unknown as WarehouseConnections,
      access as unknown as DatabaseAccessService,
      perms as unknown as DatabasePermissionsRepository,
      sync as unknown as SyncService,
      {} as SyncRepository,
      secrets,
      logger as unknown as AppLogger,
      bus,
    );
    return { service, repo, connections, access, perms, sync, logger, order, secrets };
  }

  it('lists only databases the caller may query, with details for admins alone and without hidden tables', async () => {
    const m = setup();
    const listed = await m.service.list(user, true);
    expect(listed.total).toBe(1);
    expect(listed.data[0]).toMatchObject({ id: 5, details: undefined, native_permissions: 'none' });
    expect(listed.data[0].tables!.map((t) => t.id)).toEqual([10]);

    const all = await m.service.list(admin, false);
    expect(all.data.map((d) => d.id)).toEqual([5, 6]);
    expect(all.data[0].details).toMatchObject({ host: 'db.internal', password: SECRET_MASK });
    expect(all.data[0]).not.toHaveProperty('tables');
  });

  it('leaves hidden tables and sensitive or retired fields out of metadata, unless an admin asks for them', async () => {
    const m = setup();
    const shown = await m.service.metadata(user, 5, true);
    expect(shown.tables.map((t) => [t.id, t.fields.map((f) => f.id)])).toEqual([[10, [100]]]);
    const everything = await m.service.metadata(admin, 5, true);
    expect(everything.tables.map((t) => [t.id, t.fields.map((f) => f.id)])).toEqual([
      [10, [100, 101, 103]],
      [11, [102]],
    ]);
    await expect(setup({ db: null }).service.metadata(admin, 5)).rejects.toBeInstanceOf(NotFoundError);
    await expect(m.service.schemaTables(user, 5, 'other')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('creates a database only once its connection works, with sealed secrets, default permissions and a first sync', async () => {
    const failing = setup({ testFails: new Error('connection refused') });
    await expect(failing.service.create(admin, { name: 'DW', engine: 'postgres', details: pgDetails } as never)).rejects.toThrow(
      'connection refused',
    );
    expect(failing.repo.save).not.toHaveBeenCalled();

    const m = setup({ roleRow: [true, false, ''] });
    const created = await m.service.create(admin, { name: '  DW  ', engine: 'postgres', details: pgDetails } as never);
    const saved = m.repo.save.mock.calls[0][0] as { details: { password: string } };
    expect(saved).toMatchObject({ name: 'DW', creator_id: 1, is_full_sync: true, initial_sync_status: 'incomplete' });
    expect(saved.details.password).not.toBe('hunter2');
    expect(m.secrets.open(saved.details.password)).toBe('hunter2');
    expect(m.perms.grantDefault).toHaveBeenCalledWith(9, 'tx');
    expect(m.sync.inBackground).toHaveBeenCalledWith(9, 'metadata');
    expect(created.warnings).toEqual([expect.stringContaining('Postgres superuser')]);
    expect(created.details).toMatchObject({ password: SECRET_MASK });
  });

  it('refuses to point kept credentials at another host until the password is given again', async () => {
    const sealed = setup().secrets;
    const stored = database({ details: { ...pgDetails, password: sealed.seal('hunter2') } });
    const m = setup({ db: stored });
    const e = await m.service
      .update(5, { details: { ...pgDetails, host: 'evil.example', password: SECRET_MASK } } as never)
      .catch((x) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).errors).toEqual({ password: 'the password must be given again when host changes.' });
    expect(m.repo.save).not.toHaveBeenCalled();

    await m.service.update(5, { details: { ...pgDetails, host: 'new.internal', password: 'fresh' } } as never);
    expect(m.secrets.open((m.repo.save.mock.calls[0][0] as { details: { password: string } }).details.password)).toBe('fresh');
    expect(m.order).toEqual(['evict']);
    expect(m.sync.inBackground).toHaveBeenCalledWith(5, 'metadata');
  });

  it('changes plain attributes without testing the connection or dropping the pool', async () => {
    const m = setup();
    await m.service.update(5, { name: 'Renamed', cache_ttl: 10, settings: { 'database-enable-actions': true } } as never);
    expect(m.repo.save).toHaveBeenCalledWith({ id: 5, name: 'Renamed', cache_ttl: 10, settings: { 'database-enable-actions': true } });
    expect(m.connections.withTemporary).not.toHaveBeenCalled();
    expect(m.connections.evict).not.toHaveBeenCalled();
    await expect(m.service.update(5, { settings: { 'not-a-setting': 1 } } as never)).rejects.toBeInstanceOf(ValidationError);
  });

  it('tells listeners before deleting, then drops the pool and the row; an unknown id is a 404 that tells nobody', async () => {
    const m = setup();
    await m.service.delete(5);
    expect(m.order).toEqual(['deleting 5', 'evict', 'delete']);

    const gone = setup({ db: null });
    await expect(gone.service.delete(5)).rejects.toBeInstanceOf(NotFoundError);
    expect(gone.order).toEqual([]);
  });
});
