import type { AuthUser } from '../../common/auth/current-user';
import { SecretBox } from '../../common/crypto/secret-box';
import { ForbiddenError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { AppConfig } from '../../config/app-config';
import type { CardAccessService, CardsService } from '../cards';
import type { SettingsService } from '../settings';
import type { SyncService } from '../sync';
import type { WarehouseConnections } from '../warehouse';
import { analyzeCsv } from './csv-analysis';
import { RowRejectedError } from './loaders/bulk-loader';
import { MysqlLoader } from './loaders/mysql-loader';
import { PostgresLoader } from './loaders/postgres-loader';
import type { UploadsRepository, UploadTableRow } from './uploads.repository';
import { UploadsService } from './uploads.service';

jest.mock('./csv-analysis', () => ({
  analyzeCsv: jest.fn(async () => ({
    format: { encoding: 'utf8', skipBytes: 0, delimiter: ',' },
    columns: [{ name: 'name', type: 'text' }],
    seen: ['text'],
    pk: null,
    rows: 1,
    tidy: true,
  })),
  csvRows: jest.fn(),
}));
jest.mock('./append-check', () => ({ checkAppendColumns: jest.fn(() => [{ name: 'name', type: 'text' }]) }));
const mockLoader = { create: jest.fn(), append: jest.fn(), drop: jest.fn() };
jest.mock('./loaders/postgres-loader', () => ({ PostgresLoader: jest.fn(() => mockLoader) }));
jest.mock('./loaders/mysql-loader', () => ({ MysqlLoader: jest.fn(() => mockLoader) }));

/** UploadsService: where an upload may go, what becomes of a failed load, and the model made for it; loaders and CSV reading mocked. */
describe('UploadsService', () => {
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const user = { id: 7, isSuperuser: false, groupIds: [3] } as unknown as AuthUser;
  const file = { path: '/tmp/upload-x', originalname: 'Q3_sales-report.csv' };
  const pgDb = { id: 2, engine: 'postgres', details: { host: 'h' } };
  const uploaded = (over: Partial<UploadTableRow> = {}): UploadTableRow => ({
    id: 40,
    db_id: 2,
    schema: 'uploads',
    name: 'sales',
    is_upload: true,
    active: true,
    ...over,
  });

  beforeEach(() => {
    jest.clearAllMocks();
    mockLoader.create.mockResolvedValue(undefined);
    mockLoader.append.mockResolvedValue(undefined);
    mockLoader.drop.mockResolvedValue(undefined);
  });

  function setup(opts: { settings?: unknown; db?: unknown; mayUpload?: boolean; table?: UploadTableRow | null } = {}) {
    const repo = {
      database: jest.fn().mockResolvedValue(opts.db === undefined ? pgDb : opts.db),
      mayUpload: jest.fn().mockResolvedValue(opts.mayUpload ?? true),
      findTable: jest.fn(async (_db: number, schema: string | null, name: string) => ({ ...uploaded(), schema, name, id: 41 })),
      markUpload: jest.fn().mockResolvedValue(undefined),
      table: jest.fn().mockResolvedValue(opts.table === undefined ? uploaded() : opts.table),
      fields: jest.fn().mockResolvedValue([{ name: 'name' }, { name: '_mb_row_id' }]),
      deactivateTable: jest.fn().mockResolvedValue(undefined),
      modelIds: jest.fn().mockResolvedValue([9]),
      archiveCards: jest.fn().mockResolvedValue(undefined),
    };
    const settings = {
      get: jest.fn(async () => (opts.settings === undefined ? { db_id: 2, schema_name: null, table_prefix: 'up_' } : opts.settings)),
    };
    const connections = { validate: jest.fn((_e: string, d: unknown) => d), evict: jest.fn() };
    const sync = { run: jest.fn().mockResolvedValue(true), inBackground: jest.fn() };
    const cards = { create: jest.fn().mockResolvedValue({ id: 77 }) };
    const cardAccess = { assertWriteCollection: jest.fn().mockResolvedValue(undefined) };
    const service = new UploadsService(
      repo as unknown as UploadsRepository,
      settings as unknown as SettingsService,
      connections as unknown as WarehouseConnections,
      new SecretBox(),
      sync as unknown as SyncService,
      cards as unknown as CardsService,
      cardAccess as unknown as CardAccessService,
      {} as AppConfig,
    );
    return { service, repo, sync, cards, cardAccess };
  }
  const message = async (p: Promise<unknown>) => {
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    return (e as MessageError).message;
  };

  it('needs a configured uploads database of an engine that takes uploads', async () => {
    expect(await message(setup({ settings: { db_id: null } }).service.fromCsv(admin, file, null))).toBe(
      'The uploads database is not configured.',
    );
    expect(await message(setup({ db: null }).service.fromCsv(admin, file, null))).toBe('The uploads database does not exist.');
    expect(await message(setup({ db: { ...pgDb, engine: 'sqlite' } }).service.fromCsv(admin, file, null))).toBe(
      'Uploads are not supported on sqlite databases.',
    );
  });

  it('refuses a user without upload permission on the database before reading the file', async () => {
    const m = setup({ mayUpload: false });
    await expect(m.service.fromCsv(user, file, null)).rejects.toBeInstanceOf(ForbiddenError);
    expect(m.repo.mayUpload).toHaveBeenCalledWith([3], 2);
    expect(analyzeCsv).not.toHaveBeenCalled();
  });

  it('loads into the default schema under a sanitized, prefixed name, and makes a model of it in the collection', async () => {
    const m = setup();
    await expect(m.service.fromCsv(user, file, 5)).resolves.toBe(77);
    const target = mockLoader.create.mock.calls[0][0];
    expect(target.schema).toBe('public');
    expect(target.table).toMatch(/^up_q3_sales_report_\d{14}_[0-9a-f]{4}$/);
    expect(PostgresLoader).toHaveBeenCalledWith({ host: 'h' });
    expect(m.repo.markUpload).toHaveBeenCalledWith(41);
    expect(m.cards.create).toHaveBeenCalledWith(user, {
      name: 'Q3 sales report',
      display: 'table',
      visualization_settings: {},
      dataset_query: { database: 2, type: 'query', query: { 'source-table': 41 } },
      type: 'model',
      collection_id: 5,
    });

    const mysql = setup({ db: { ...pgDb, engine: 'mysql' }, settings: { db_id: 2, schema_name: 'ignored', table_prefix: null } });
    await mysql.service.fromCsv(admin, file, null);
    expect(MysqlLoader).toHaveBeenCalled();
    expect(mockLoader.create.mock.calls[1][0].schema).toBeNull();
  });

  it("answers the warehouse's refusal of a value as the file's 400, and keeps other failures as they are", async () => {
    const m = setup();
    mockLoader.create.mockRejectedValueOnce(
      Object.assign(new Error('invalid input syntax for type integer: "x"\nDETAIL: ...'), { code: '22P02' }),
    );
    expect(await message(m.service.fromCsv(admin, file, null))).toBe(
      'The CSV file could not be loaded: invalid input syntax for type integer: "x"',
    );
    mockLoader.create.mockRejectedValueOnce(new RowRejectedError('row 3 has 4 values'));
    expect(await message(m.service.fromCsv(admin, file, null))).toBe('The CSV file could not be loaded: row 3 has 4 values');
    mockLoader.create.mockRejectedValueOnce(Object.assign(new Error('row is too big'), { code: '54000' }));
    expect(await message(m.service.fromCsv(admin, file, null))).toContain('row is too big');
    const lost = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    mockLoader.create.mockRejectedValueOnce(lost);
    await expect(m.service.fromCsv(admin, file, null)).rejects.toBe(lost);
    expect(m.cards.create).not.toHaveBeenCalled();
  });

  it('drops the new table when its model cannot be made', async () => {
    const m = setup();
    m.cards.create.mockRejectedValue(new ForbiddenError());
    await expect(m.service.fromCsv(user, file, 5)).rejects.toBeInstanceOf(ForbiddenError);
    expect(mockLoader.drop).toHaveBeenCalledWith(mockLoader.create.mock.calls[0][0]);
  });

  it('appends to and deletes only active tables an upload made, then syncs or archives their models', async () => {
    await expect(setup({ table: uploaded({ active: false }) }).service.appendCsv(admin, 40, file, false)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await message(setup({ table: uploaded({ is_upload: false }) }).service.appendCsv(admin, 40, file, false))).toBe(
      'The table must be an uploaded table.',
    );
    await expect(setup({ mayUpload: false }).service.deleteTable(user, 40, true)).rejects.toBeInstanceOf(ForbiddenError);

    const m = setup();
    await m.service.appendCsv(admin, 40, file, true);
    expect(mockLoader.append).toHaveBeenCalledWith(
      { schema: 'uploads', table: 'sales' },
      [{ name: 'name', type: 'text' }],
      undefined,
      true,
      expect.anything(),
    );
    expect(m.sync.inBackground).toHaveBeenCalledWith(2, 'metadata', { schema: 'uploads', name: 'sales' });

    await m.service.deleteTable(admin, 40, false);
    expect(m.repo.deactivateTable).toHaveBeenCalledWith(40);
    expect(m.repo.archiveCards).not.toHaveBeenCalled();
    await m.service.deleteTable(admin, 40, true);
    expect(m.repo.archiveCards).toHaveBeenCalledWith([9]);
  });
});
