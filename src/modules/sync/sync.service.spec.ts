import type { AppLogger } from '../../common/logging/app-logger';
import { ConnectionError, QueryError } from '../../query-engine/execute/drivers/errors';
import type { WarehouseField } from '../../schema/field.entity';
import type { WarehouseTable } from '../../schema/table.entity';
import type { WarehouseConnections } from '../warehouse';
import { fingerprintTable, readFieldValues } from './analyze';
import { applyDescribed } from './metadata-sync';
import type { SyncRepository } from './sync.repository';
import { SyncService } from './sync.service';

jest.mock('./analyze', () => ({ fingerprintTable: jest.fn(), readFieldValues: jest.fn() }));
jest.mock('./metadata-sync', () => ({ applyDescribed: jest.fn() }));

const fingerprint = fingerprintTable as jest.MockedFunction<typeof fingerprintTable>;
const readValues = readFieldValues as jest.MockedFunction<typeof readFieldValues>;

/** SyncService's leases, run bookkeeping and what it skips, with the warehouse reads and the repository mocked. */
describe('SyncService', () => {
  const table = (id: number, over: Partial<WarehouseTable> = {}) => ({
    id,
    db_id: 1,
    schema: 'public',
    name: `t${id}`,
    active: true,
    ...over,
  });
  const field = (id: number, tableId: number, over: Partial<WarehouseField> = {}) =>
    ({ id, table_id: tableId, active: true, visibility_type: 'normal', has_field_values: 'list', ...over }) as WarehouseField;

  beforeEach(() => {
    jest.clearAllMocks();
    (applyDescribed as jest.Mock).mockResolvedValue({ tables_added: 0 });
    fingerprint.mockImplementation(
      async (_d, t, fs) =>
        ({
          rowCount: 10,
          fields: fs.map((f) => ({ fieldId: f.id, fingerprint: {}, hasFieldValues: 'list', semanticType: null })),
        }) as never,
    );
    readValues.mockResolvedValue({ values: ['a', 'b'], hasMore: false });
  });

  function setup(opts: { lease?: boolean; tables?: unknown[]; fields?: WarehouseField[]; existingValues?: unknown[] } = {}) {
    const writes: Array<[string, unknown, unknown]> = [];
    const tx = {
      update: jest.fn(async (entity: { name: string }, where: unknown, values: unknown) => void writes.push([entity.name, where, values])),
      upsert: jest.fn(async (entity: { name: string }, values: unknown) => void writes.push([entity.name, 'upsert', values])),
      delete: jest.fn(async (entity: { name: string }, where: unknown) => void writes.push([entity.name, 'delete', where])),
    };
    const repo = {
      claimLease: jest.fn().mockResolvedValue(opts.lease ?? true),
      releaseLease: jest.fn().mockResolvedValue(undefined),
      startRun: jest.fn().mockResolvedValue('run-1'),
      endRun: jest.fn().mockResolvedValue(undefined),
      findDatabase: jest.fn().mockResolvedValue({ id: 1, engine: 'postgres' }),
      transaction: jest.fn(async (work: (t: typeof tx) => unknown) => work(tx)),
      tables: jest.fn().mockResolvedValue(opts.tables ?? [table(10), table(11), table(12, { active: false })]),
      fields: jest.fn(async (ids: number[]) => (opts.fields ?? [field(100, 10), field(110, 11)]).filter((f) => ids.includes(f.table_id))),
      fieldValues: jest.fn().mockResolvedValue(opts.existingValues ?? []),
    };
    const driver = { describe: jest.fn().mockResolvedValue({ tables: [] }) };
    const logger = { info: jest.fn(), warning: jest.fn(), error: jest.fn() };
    const service = new SyncService(
      repo as unknown as SyncRepository,
      { driverFor: jest.fn(() => driver) } as unknown as WarehouseConnections,
      logger as unknown as AppLogger,
    );
    return { service, repo, driver, writes, logger };
  }

  it('does nothing without the database lease, and releases the lease after a run', async () => {
    const busy = setup({ lease: false });
    await expect(busy.service.run(1, 'metadata')).resolves.toBe(false);
    expect(busy.repo.startRun).not.toHaveBeenCalled();

    const m = setup();
    await expect(m.service.run(1, 'metadata')).resolves.toBe(true);
    expect(m.repo.endRun).toHaveBeenCalledWith('run-1', null, expect.objectContaining({ fields_analyzed: 2, field_values_scanned: 2 }));
    expect(m.repo.releaseLease).toHaveBeenCalledWith(1, m.service.instanceId);
    expect(m.writes).toContainEqual(['WarehouseDatabase', { id: 1 }, expect.objectContaining({ initial_sync_status: 'complete' })]);
  });

  it('runs one sync per database at a time: a value scan joins a metadata sync, a metadata sync during a scan is refused', async () => {
    const m = setup();
    let finish!: () => void;
    m.driver.describe.mockReturnValue(new Promise((resolve) => (finish = () => resolve({ tables: [] }))));
    const first = m.service.run(1, 'metadata');
    const joined = m.service.run(1, 'field-values');
    expect(joined).toBe(first);
    finish();
    await expect(first).resolves.toBe(true);
    expect(m.repo.claimLease).toHaveBeenCalledTimes(1);

    const s = setup();
    const scan = s.service.run(1, 'field-values');
    await expect(s.service.run(1, 'metadata')).resolves.toBe(false);
    await expect(scan).resolves.toBe(true);
  });

  it('records a failed sync with its message, marks a first sync aborted, and still releases the lease', async () => {
    const m = setup();
    m.driver.describe.mockRejectedValue(new ConnectionError('connection refused'));
    await expect(m.service.run(1, 'metadata')).resolves.toBe(false);
    expect(m.repo.endRun).toHaveBeenCalledWith('run-1', 'connection refused', null);
    expect(m.writes).toContainEqual([
      'WarehouseDatabase',
      { id: 1, initial_sync_status: 'incomplete' },
      { initial_sync_status: 'aborted' },
    ]);
    expect(m.repo.releaseLease).toHaveBeenCalled();
  });

  it('skips a table whose statements fail and analyzes the others; a lost connection ends the sync', async () => {
    const m = setup();
    fingerprint.mockRejectedValueOnce(new QueryError('permission denied for view t10'));
    await m.service.run(1, 'metadata');
    expect(m.repo.endRun).toHaveBeenCalledWith('run-1', null, expect.objectContaining({ fields_analyzed: 1, tables_not_analyzed: 1 }));
    expect(m.writes).toContainEqual(['WarehouseTable', { id: 11 }, { estimated_row_count: 10 }]);
    expect(m.writes).not.toContainEqual(['WarehouseTable', { id: 10 }, expect.anything()]);

    const lost = setup();
    fingerprint.mockRejectedValueOnce(new ConnectionError('terminated'));
    await expect(lost.service.run(1, 'metadata')).resolves.toBe(false);
  });

  it('syncs one new table only: its fields alone are analyzed and scanned', async () => {
    const m = setup();
    await m.service.run(1, 'metadata', { schema: 'public', name: 't11' });
    expect(fingerprint).toHaveBeenCalledTimes(1);
    expect(fingerprint.mock.calls[0][1]).toMatchObject({ id: 11 });
    expect(readValues.mock.calls.map((c) => c[2].id)).toEqual([110]);
  });

  it('reads list fields only, drops the values of sensitive ones, and keeps the display names of values that remain', async () => {
    const m = setup({
      fields: [
        field(100, 10, { visibility_type: 'sensitive' }),
        field(101, 10, { has_field_values: 'none' }),
        field(102, 10),
        field(103, 10, { active: false }),
      ],
      existingValues: [{ field_id: 102, values: ['a', 'gone'], human_readable_values: ['Alpha', 'Gone'] }],
    });
    await m.service.refreshValues({ id: 1 } as never);
    expect(readValues.mock.calls.map((c) => c[2].id)).toEqual([102]);
    expect(m.writes).toContainEqual(['FieldValues', 'delete', { field_id: expect.objectContaining({ _value: [100] }) }]);
    expect(m.writes).toContainEqual([
      'FieldValues',
      'upsert',
      { field_id: 102, values: ['a', 'b'], human_readable_values: ['Alpha', 'b'], has_more_values: false },
    ]);
  });
});
