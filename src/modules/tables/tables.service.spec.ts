import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import { EventBus } from '../../common/events/event-bus';
import type { AppLogger } from '../../common/logging/app-logger';
import { ConnectionError } from '../../query-engine/execute/drivers/errors';
import type { WarehouseField } from '../../schema/field.entity';
import type { WarehouseTable } from '../../schema/table.entity';
import type { FieldHydrator, FieldsRepository, FieldValuesService, MetadataAccess } from '../fields';
import type { SyncService } from '../sync';
import type { WarehouseConnections } from '../warehouse';
import type { TablesRepository } from './tables.repository';
import { TablesService } from './tables.service';

/** TablesService's edits, field order, related tables and sync start, with the repositories and metadata access mocked. */
describe('TablesService', () => {
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const table = (id: number, over: Partial<WarehouseTable> = {}) =>
    ({
      id,
      db_id: 1,
      name: `t${id}`,
      schema: 'public',
      active: true,
      visibility_type: null,
      field_order: 'database',
      user_edited: ['description'],
      ...over,
    }) as WarehouseTable;
  const field = (id: number, name: string, over: Partial<WarehouseField> = {}) =>
    ({
      id,
      table_id: 5,
      name,
      semantic_type: null,
      fk_target_field_id: null,
      active: true,
      visibility_type: 'normal',
      ...over,
    }) as WarehouseField;

  function setup(opts: { tables?: WarehouseTable[]; fields?: WarehouseField[] } = {}) {
    const stored = new Map((opts.tables ?? [table(5)]).map((t) => [t.id, t]));
    const repo = {
      tablesByIds: jest.fn(async (ids: number[]) => ids.filter((i) => stored.has(i)).map((i) => stored.get(i)!)),
      transaction: jest.fn(async (work: (tx: unknown) => unknown) => work('tx')),
      updateTable: jest.fn().mockResolvedValue(undefined),
      setPositions: jest.fn().mockResolvedValue(undefined),
      activeTablesOfDb: jest.fn(async () => [...stored.values()]),
    };
    const fieldList = opts.fields ?? [field(50, 'zeta'), field(51, 'Alpha'), field(52, 'id', { semantic_type: 'type/PK' })];
    const fields = {
      activeFields: jest.fn().mockResolvedValue(fieldList),
      fieldsByIds: jest.fn(async (ids: number[]) => ids.map((id) => field(id, `f${id}`, { table_id: id === 90 ? 9 : 8 }))),
      fieldsPointingAt: jest.fn().mockResolvedValue([]),
      allFieldIds: jest.fn().mockResolvedValue([50, 51]),
    };
    const access = {
      check: jest.fn().mockResolvedValue(undefined),
      table: jest.fn(async (_c: AuthUser, id: number) => ({ table: stored.get(id) ?? table(id), db: { id: 1, engine: 'postgres' } })),
    };
    const hydrator = { detailed: jest.fn(async (fs: WarehouseField[]) => fs.map((f) => ({ id: f.id }))) };
    const sync = { inBackground: jest.fn(), discardValues: jest.fn() };
    const driver = { testConnection: jest.fn().mockResolvedValue(undefined) };
    const connections = { driverFor: jest.fn(() => driver) };
    const logger = { warning: jest.fn() };
    const service = new TablesService(
      repo as unknown as TablesRepository,
      fields as unknown as FieldsRepository,
      access as unknown as MetadataAccess,
      hydrator as unknown as FieldHydrator,
      {} as FieldValuesService,
      sync as unknown as SyncService,
      connections as unknown as WarehouseConnections,
      logger as unknown as AppLogger,
      new EventBus(),
    );
    return { service, repo, fields, access, sync, driver, logger };
  }

  it('edits only what was sent (null clears the clearable keys, not the others) and records it in user_edited', async () => {
    const m = setup();
    await m.service.update(admin, 5, { display_name: 'Orders', description: null, entity_type: null } as never);
    expect(m.repo.updateTable).toHaveBeenCalledWith(
      5,
      { display_name: 'Orders', description: null, user_edited: ['description', 'display_name'] },
      'tx',
    );
    m.repo.updateTable.mockClear();
    await m.service.update(admin, 5, { show_in_getting_started: null } as never);
    expect(m.repo.updateTable).toHaveBeenCalledWith(5, {}, 'tx');
  });

  it('refuses unknown, retired or out-of-range ids (404) and tables of a database the caller may not edit, before writing', async () => {
    const m = setup({ tables: [table(5), table(6, { active: false }), table(7, { db_id: 2 })] });
    await expect(m.service.updateMany(admin, [5, 6], { description: 'x' } as never)).rejects.toBeInstanceOf(NotFoundError);
    await expect(m.service.updateMany(admin, [5, 99], { description: 'x' } as never)).rejects.toBeInstanceOf(NotFoundError);
    await expect(m.service.updateMany(admin, [2_147_483_648], { description: 'x' } as never)).rejects.toBeInstanceOf(NotFoundError);
    m.access.check.mockImplementation(async (_c: AuthUser, db: number) => {
      if (db === 2) throw new ForbiddenError();
    });
    await expect(m.service.updateMany(admin, [5, 7], { description: 'x' } as never)).rejects.toBeInstanceOf(ForbiddenError);
    expect(m.repo.transaction).not.toHaveBeenCalled();
  });

  it('re-positions the fields when the field order changes, and answers them then', async () => {
    const m = setup();
    const [view] = await m.service.updateMany(admin, [5], { field_order: 'alphabetical' } as never);
    expect(m.repo.setPositions).toHaveBeenCalledWith(
      [
        { id: 51, position: 0 },
        { id: 52, position: 1 },
        { id: 50, position: 2 },
      ],
      'tx',
    );
    expect((view as { fields?: unknown[] }).fields).toEqual([{ id: 50 }, { id: 51 }, { id: 52 }]);

    const same = setup();
    const [plain] = await same.service.updateMany(admin, [5], { field_order: 'database' } as never);
    expect(same.repo.setPositions).not.toHaveBeenCalled();
    expect(plain).not.toHaveProperty('fields');
  });

  it('takes a custom field order only when it lists each active field exactly once', async () => {
    const m = setup();
    const bad = [
      [50, 51],
      [50, 51, 51],
      [50, 51, 99],
    ];
    for (const order of bad) {
      const e = await m.service.reorderFields(admin, 5, order).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(MessageError);
    }
    expect(m.repo.transaction).not.toHaveBeenCalled();
    await m.service.reorderFields(admin, 5, [52, 50, 51]);
    expect(m.repo.updateTable).toHaveBeenCalledWith(5, { field_order: 'custom' }, 'tx');
    expect(m.repo.setPositions).toHaveBeenCalledWith(
      [
        { id: 52, position: 0, custom_position: 0 },
        { id: 50, position: 1, custom_position: 1 },
        { id: 51, position: 2, custom_position: 2 },
      ],
      'tx',
    );
  });

  it('answers an unreachable warehouse as a 422 before starting a sync; other errors are not hidden', async () => {
    const m = setup();
    m.driver.testConnection.mockRejectedValue(new ConnectionError('connection refused'));
    const e = await m.service.syncSchema(admin, 5).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).status).toBe(422);
    expect(m.sync.inBackground).not.toHaveBeenCalled();

    const bug = setup();
    bug.driver.testConnection.mockRejectedValue(new TypeError('bug'));
    await expect(bug.service.syncSchema(admin, 5)).rejects.toThrow(TypeError);

    const ok = setup();
    await expect(ok.service.syncSchema(admin, 5)).resolves.toEqual({ status: 'ok' });
    expect(ok.sync.inBackground).toHaveBeenCalledWith(1, 'metadata', { schema: 'public', name: 't5' });
  });

  it('relates the tables it links to and from, and other visible tables of its schema', async () => {
    const m = setup({
      tables: [table(5), table(8), table(9, { visibility_type: 'hidden' }), table(10), table(11, { schema: 'other' }), table(12)],
      fields: [field(50, 'a', { fk_target_field_id: 80 }), field(51, 'b', { fk_target_field_id: 90 })],
    });
    m.fields.fieldsPointingAt.mockResolvedValue([field(100, 'x', { table_id: 12 })]);
    const related = await m.service.related(admin, 5);
    expect(related['linking-to'].map((t) => t.id)).toEqual([8]);
    expect(related['linked-from'].map((t) => t.id)).toEqual([12]);
    expect(related.tables.map((t) => t.id)).toEqual([10]);
  });
});
