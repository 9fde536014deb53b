import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError } from '../../common/errors/api-errors';
import type { AppLogger } from '../../common/logging/app-logger';
import type { PersistedInfo } from '../../schema/persisted-info.entity';
import type { CardAccessService } from '../cards';
import type { SettingsService } from '../settings';
import { BuildError, type PersistedBuilder } from './persisted-builder';
import { cacheSchemaName } from './persisted-names';
import type { ModelRow, PersistenceRepository } from './persistence.repository';
import { DATABASE_SETTING, PersistenceService, queryHashOf } from './persistence.service';

/** PersistenceService's checks, build bookkeeping and look-up, with the repository, the builder and settings mocked. */
describe('PersistenceService', () => {
  const caller = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const QUERY = '{"database":3,"type":"query","query":{"source-table":1}}';
  const model = (over: Partial<ModelRow> = {}) =>
    ({ id: 12, name: 'Orders, by Month!', type: 'model', archived: false, database_id: 3, dataset_query: QUERY, ...over }) as ModelRow;
  const pgDb = (over: Record<string, unknown> = {}) => ({ id: 3, engine: 'postgres', settings: { [DATABASE_SETTING]: true }, ...over });
  const infoRow = (over: Partial<PersistedInfo> = {}) =>
    ({
      id: 40,
      card_id: 12,
      database_id: 3,
      schema_name: 'cache_s',
      table_name: 'model_12',
      state: 'persisted',
      active: true,
      query_hash: queryHashOf(QUERY),
      definition: JSON.stringify({ 'field-definitions': [{ 'field-name': 'n', 'base-type': 'type/Integer' }] }),
      ...over,
    }) as PersistedInfo;

  function setup(
    opts: { enabled?: boolean; card?: ModelRow | null; db?: unknown; row?: PersistedInfo | null; lease?: boolean; claim?: boolean } = {},
  ) {
    const events: string[] = [];
    const row = opts.row === undefined ? infoRow() : opts.row;
    const repo = {
      card: jest.fn().mockResolvedValue(opts.card === undefined ? model() : opts.card),
      database: jest.fn().mockResolvedValue(opts.db === undefined ? pgDb() : opts.db),
      upsert: jest.fn(async (r: Partial<PersistedInfo>) => ({ ...infoRow({ state: 'off', active: false }), ...r })),
      byCard: jest.fn().mockResolvedValue(row),
      byId: jest.fn().mockResolvedValue(row),
      byDatabase: jest.fn().mockResolvedValue(row ? [row] : []),
      setState: jest.fn(async (_id: number, state: string, _changes?: Record<string, unknown>) => void events.push(`state ${state}`)),
      claimLease: jest.fn().mockResolvedValue(opts.lease ?? true),
      releaseLease: jest.fn(async () => void events.push('release')),
      remove: jest.fn(async () => void events.push('remove')),
      setDatabaseSetting: jest.fn().mockResolvedValue(undefined),
      internalSetting: jest.fn().mockResolvedValue('stored-site-id'),
    };
    const builder = {
      build: jest.fn(async () => {
        events.push('build');
        return { columns: [{ name: 'n', base_type: 'type/Integer', display_name: 'N' }] };
      }),
      drop: jest.fn(async () => void events.push('drop')),
      dropSchema: jest.fn().mockResolvedValue(undefined),
    };
    const settings = {
      get: jest.fn(async () => opts.enabled ?? true),
      claim: jest.fn().mockResolvedValue(opts.claim ?? true),
    };
    const cards = { writable: jest.fn().mockResolvedValue(undefined) };
    const service = new PersistenceService(
      repo as unknown as PersistenceRepository,
      builder as unknown as PersistedBuilder,
      settings as unknown as SettingsService,
      cards as unknown as CardAccessService,
      { warning: jest.fn() } as unknown as AppLogger,
    );
    return { service, repo, builder, settings, cards, events };
  }
  const message = async (p: Promise<unknown>) => {
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    return (e as MessageError).message;
  };

  it('refuses to persist unless persisting is on, the card is a writable live model, and its database can and may hold it', async () => {
    expect(await message(setup({ enabled: false }).service.persist(caller, 12))).toBe('Persisting models is not enabled.');
    expect(await message(setup({ card: model({ type: 'question' }) }).service.persist(caller, 12))).toBe('Card is not a model');
    expect(await message(setup({ card: model({ archived: true }) }).service.persist(caller, 12))).toBe(
      'Archived models cannot be persisted.',
    );
    expect(await message(setup({ db: pgDb({ engine: 'sqlite' }) }).service.persist(caller, 12))).toBe(
      'Persisting models is not supported on SQLite databases.',
    );
    expect(await message(setup({ db: pgDb({ settings: {} }) }).service.persist(caller, 12))).toBe(
      'Persisting models not enabled for database',
    );
    const denied = setup();
    denied.cards.writable.mockRejectedValue(new ForbiddenError());
    await expect(denied.service.persist(caller, 12)).rejects.toBeInstanceOf(ForbiddenError);
    expect(denied.repo.upsert).not.toHaveBeenCalled();
  });

  it('persists into the site cache schema and records the built columns and the query hash', async () => {
    const m = setup({ row: infoRow({ state: 'off', active: false }) });
    await m.service.persist(caller, 12);
    expect(m.repo.upsert).toHaveBeenCalledWith(
      expect.objectContaining({ card_id: 12, table_name: 'model_12', question_slug: 'orders_by_month', creator_id: 7 }),
    );
    const schema = m.repo.upsert.mock.calls[0][0].schema_name;
    expect(schema).toBe(cacheSchemaName(m.settings.claim.mock.calls[0][1] as string, 3));
    expect(m.events).toEqual(['state creating', 'state creating', 'build', 'state persisted', 'release']);
    const persisted = m.repo.setState.mock.calls.find((c) => c[1] === 'persisted')![2] as { definition: string };
    expect(persisted).toMatchObject({ active: true, error: null, query_hash: queryHashOf(QUERY) });
    expect(JSON.parse(persisted.definition)).toEqual({
      'field-definitions': [{ 'field-name': 'n', 'base-type': 'type/Integer', 'display-name': 'N' }],
    });

    // A rebuild of a table in use replaces it and says so.
    const again = setup();
    await again.service.refresh(caller, 12);
    expect(again.events).toEqual(['state refreshing', 'build', 'state persisted', 'release']);
    expect(again.builder.build).toHaveBeenCalledWith(expect.objectContaining({ replacing: true, table: 'model_12' }));
    expect(await message(setup({ row: infoRow({ state: 'deletable' }) }).service.refresh(caller, 12))).toBe('This model is not persisted.');
  });

  it('uses the site id another instance stored when it loses the claim', async () => {
    const m = setup({ claim: false });
    await expect(m.service.schemaOf(3)).resolves.toBe(cacheSchemaName('stored-site-id', 3));
    await m.service.schemaOf(4);
    expect(m.settings.claim).toHaveBeenCalledTimes(1);
  });

  it('builds under a lease: busy is a 409 when asked for and a quiet false for the scheduler', async () => {
    const loud = setup({ lease: false });
    const e = await loud.service.refreshRow(40, true).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).status).toBe(409);
    await expect(setup({ lease: false }).service.refreshRow(40, false)).resolves.toBe(false);
    expect(loud.builder.build).not.toHaveBeenCalled();
  });

  it('records a failed build as an error state, answers it only when asked for, and always releases the lease', async () => {
    const m = setup();
    m.builder.build.mockRejectedValue(new BuildError('relation "x" does not exist'));
    expect(await message(m.service.refreshRow(40, true))).toBe('relation "x" does not exist');
    expect(m.repo.setState).toHaveBeenLastCalledWith(40, 'error', expect.objectContaining({ error: 'relation "x" does not exist' }));
    expect(m.events.at(-1)).toBe('release');

    const quiet = setup();
    quiet.builder.build.mockRejectedValue(new BuildError('boom'));
    await expect(quiet.service.refreshRow(40, false)).resolves.toBe(false);

    const bug = setup();
    bug.builder.build.mockRejectedValue(new TypeError('a bug'));
    await expect(bug.service.refreshRow(40, false)).rejects.toThrow(TypeError);
    expect(bug.events.at(-1)).toBe('release');
  });

  it('hands the engine the table only while it is complete, on, and built from the current query', async () => {
    await expect(setup().service.source(12)).resolves.toEqual({
      schema: 'cache_s',
      table: 'model_12',
      columns: [{ name: 'n', base_type: 'type/Integer' }],
    });
    await expect(setup({ row: infoRow({ query_hash: 'stale' }) }).service.source(12)).resolves.toBeNull();
    await expect(setup({ row: infoRow({ active: false }) }).service.source(12)).resolves.toBeNull();
    await expect(setup({ enabled: false }).service.source(12)).resolves.toBeNull();
    await expect(setup({ db: pgDb({ settings: {} }) }).service.source(12)).resolves.toBeNull();
    await expect(setup({ card: model({ type: 'question' }) }).service.source(12)).resolves.toBeNull();
  });

  it('takes a model off before dropping its table, and leaves databases that never persisted alone', async () => {
    const m = setup();
    await m.service.unpersist(caller, 12);
    expect(m.events).toEqual(['state deletable', 'drop', 'remove']);

    const never = setup({ row: null, db: pgDb({ settings: {} }) });
    await never.service.databaseDeleting(3);
    expect(never.repo.setDatabaseSetting).not.toHaveBeenCalled();
    expect(never.builder.dropSchema).not.toHaveBeenCalled();

    const had = setup();
    await had.service.databaseDeleting(3);
    expect(had.repo.setDatabaseSetting).toHaveBeenCalledWith(3, DATABASE_SETTING, false);
    expect(had.events).toEqual(['state deletable', 'drop', 'remove']);
    expect(had.builder.dropSchema).toHaveBeenCalled();
  });
});
