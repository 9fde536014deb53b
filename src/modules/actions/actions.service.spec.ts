import type { AuthUser } from '../../common/auth/current-user';
import { PUBLIC_SHARING_OFF } from '../../common/auth/public-sharing.guard';
import type { SecretBox } from '../../common/crypto/secret-box';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { SettingsReader } from '../../common/settings/settings-reader';
import type { CardRow } from '../../schema/card.rows';
import type { CardAccessService } from '../cards';
import type { DatabaseAccessService, WarehouseConnections } from '../warehouse';
import { ACTIONS_DISABLED, ActionRunner } from './action-runner.service';
import type { ActionDatabase, ActionRow, ActionsRepository } from './actions.repository';
import { ActionsService, NATIVE_MODEL, NOT_A_MODEL } from './actions.service';
import type { RowSecurityService } from '../row-security';

/**
 * ActionsService's authoring and access rules. The runner is the real one over the same mocked repository (its
 * checks of the database decide here too); only its warehouse write is mocked.
 */
describe('ActionsService', () => {
  const caller = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const SQL = { database: 1, type: 'native', native: { query: 'UPDATE t SET x = {{x}}' } };
  const enabledDb: ActionDatabase = { id: 1, name: 'Shop', engine: 'postgres', details: {}, settings: { 'database-enable-actions': true } };
  const modelCard = (over: Partial<CardRow> = {}) =>
    ({ id: 3, type: 'model', database_id: 1, table_id: 5, query_type: 'query', ...over }) as unknown as CardRow;
  const action = (over: Partial<ActionRow> = {}) =>
    ({
      id: 9,
      model_id: 3,
      type: 'query',
      kind: null,
      name: 'Bump',
      description: null,
      parameters: '[]',
      parameter_mappings: '[]',
      visualization_settings: '{}',
      public_uuid: null,
      made_public_by_id: null,
      creator_id: 7,
      archived: false,
      entity_id: 'e',
      created_at: '2024-01-01T00:00:00Z',
      updated_at: '2024-01-01T00:00:00Z',
      database_id: 1,
      dataset_query: JSON.stringify(SQL),
      model_database_id: 1,
      model_archived: false,
      ...over,
    }) as ActionRow;

  function setup(
    opts: { row?: ActionRow | null; card?: CardRow; db?: ActionDatabase | null; publicSharing?: boolean; rowRestricted?: boolean } = {},
  ) {
    const row = opts.row === undefined ? action() : opts.row;
    const db = opts.db === undefined ? enabledDb : opts.db;
    const repo = {
      row: jest.fn().mockResolvedValue(row),
      rows: jest.fn().mockResolvedValue(row ? [row] : []),
      list: jest.fn().mockResolvedValue(row ? [row] : []),
      create: jest.fn().mockResolvedValue(9),
      update: jest.fn().mockResolvedValue(undefined),
      delete: jest.fn().mockResolvedValue(undefined),
      share: jest.fn(async (_id: number, uuid: string) => uuid),
      unshare: jest.fn().mockResolvedValue(undefined),
      database: jest.fn().mockResolvedValue(db),
      table: jest.fn().mockResolvedValue({ id: 5, db_id: 1, schema: 'public', name: 't', columns: [] }),
      model: jest.fn().mockResolvedValue({ id: 3, table_id: 5, dataset_query: '{}', result_metadata: '[]' }),
    };
    const runner = new ActionRunner(repo as unknown as ActionsRepository, {} as WarehouseConnections, {} as SecretBox);
    const execute = jest.spyOn(runner, 'execute').mockResolvedValue({ 'rows-updated': [1] });
    const cards = {
      readable: jest.fn().mockResolvedValue({ row: opts.card ?? modelCard() }),
      writable: jest.fn().mockResolvedValue(opts.card ?? modelCard()),
    };
    const databases = { assertCanRead: jest.fn().mockResolvedValue(undefined), assertCanRunNative: jest.fn().mockResolvedValue(undefined) };
    const settings = { get: jest.fn(async () => opts.publicSharing ?? true) };
    const service = new ActionsService(
      repo as unknown as ActionsRepository,
      runner,
      cards as unknown as CardAccessService,
      databases as unknown as DatabaseAccessService,
      settings as unknown as SettingsReader,
      { restrictsAny: jest.fn().mockResolvedValue(opts.rowRestricted ?? false) } as unknown as RowSecurityService,
    );
    return { service, repo, cards, databases, execute };
  }
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e as Error,
    );

  it('puts actions on writable models only, and a query action needs native SQL on an actions-enabled database', async () => {
    const notModel = setup({ card: modelCard({ type: 'question' }) });
    expect((await failure(notModel.service.create(caller, { model_id: 3, name: 'a', dataset_query: SQL } as never)))?.message).toBe(
      NOT_A_MODEL,
    );

    const mbql = setup();
    const e = await failure(mbql.service.create(caller, { model_id: 3, name: 'a', dataset_query: { type: 'query', query: {} } } as never));
    expect(e).toBeInstanceOf(ValidationError);
    expect(Object.keys((e as ValidationError).errors)).toEqual(['dataset_query']);

    const off = setup({ db: { ...enabledDb, settings: {} } });
    expect((await failure(off.service.create(caller, { model_id: 3, name: 'a', dataset_query: SQL } as never)))?.message).toBe(
      ACTIONS_DISABLED,
    );

    const noNative = setup();
    noNative.databases.assertCanRunNative.mockRejectedValue(new ForbiddenError());
    await expect(noNative.service.create(caller, { model_id: 3, name: 'a', dataset_query: SQL } as never)).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    for (const m of [notModel, mbql, off, noNative]) expect(m.repo.create).not.toHaveBeenCalled();
  });

  it('stores a query action on the database it names, with that database written into its query', async () => {
    const m = setup();
    await m.service.create(caller, { model_id: 3, name: 'Bump', database_id: 1, dataset_query: { ...SQL, database: 99 } } as never);
    const [fields, query, kind] = m.repo.create.mock.calls[0];
    expect(fields).toMatchObject({ model_id: 3, type: 'query', creator_id: 7, archived: false, parameters: '[]' });
    expect(query.database_id).toBe(1);
    expect(JSON.parse(query.dataset_query).database).toBe(1);
    expect(kind).toBeNull();
    expect(m.databases.assertCanRunNative).toHaveBeenCalledWith(caller, 1);
  });

  it('an implicit action needs a kind and a model built on a table, and data access to its database', async () => {
    const noKind = setup();
    const e = await failure(noKind.service.create(caller, { model_id: 3, name: 'a', type: 'implicit' } as never));
    expect((e as ValidationError).errors).toEqual({ kind: 'value must be one of: `row/create`, `row/update`, `row/delete`.' });

    const nativeModel = setup({ card: modelCard({ query_type: 'native' }) });
    expect(
      (await failure(nativeModel.service.create(caller, { model_id: 3, name: 'a', type: 'implicit', kind: 'row/create' } as never)))
        ?.message,
    ).toBe(NATIVE_MODEL);

    const m = setup({ row: action({ type: 'implicit', kind: 'row/create', database_id: null, dataset_query: null }) });
    await m.service.create(caller, { model_id: 3, name: 'a', type: 'implicit', kind: 'row/create' } as never);
    expect(m.repo.create).toHaveBeenCalledWith(expect.objectContaining({ type: 'implicit' }), null, 'row/create');
    expect(m.databases.assertCanRead).toHaveBeenCalledWith(caller, 1);
    expect(m.databases.assertCanRunNative).not.toHaveBeenCalled();
  });

  it('re-checks the query only when an update touches it', async () => {
    const m = setup();
    await m.service.update(caller, 9, { name: 'Renamed', archived: true } as never);
    expect(m.repo.update).toHaveBeenCalledWith(9, { name: 'Renamed', archived: true }, null, null);
    expect(m.databases.assertCanRunNative).not.toHaveBeenCalled();

    const sql = setup();
    await sql.service.update(caller, 9, { dataset_query: { ...SQL, native: { query: 'DELETE FROM t' } } } as never);
    expect(JSON.parse(sql.repo.update.mock.calls[0][2].dataset_query).native.query).toBe('DELETE FROM t');
    expect(sql.databases.assertCanRunNative).toHaveBeenCalledWith(caller, 1);

    const toImplicit = setup();
    await expect(toImplicit.service.update(caller, 9, { type: 'implicit' } as never)).rejects.toBeInstanceOf(ValidationError);
    expect(toImplicit.repo.update).not.toHaveBeenCalled();
  });

  it('lists only actions whose model the caller may read, asking once per model', async () => {
    const m = setup();
    m.repo.list.mockResolvedValue([action({ id: 1, model_id: 3 }), action({ id: 2, model_id: 4 }), action({ id: 3, model_id: 3 })]);
    m.cards.readable.mockImplementation(async (_c: AuthUser, id: number) => {
      if (id === 4) throw new ForbiddenError();
      return { row: modelCard() };
    });
    expect((await m.service.list(caller, null)).map((a) => a.id)).toEqual([1, 3]);
    expect(m.cards.readable).toHaveBeenCalledTimes(2);
  });

  it('runs an action only when it is live and the caller has data access to its database', async () => {
    await expect(setup({ row: action({ archived: true }) }).service.execute(caller, 9, {})).rejects.toBeInstanceOf(NotFoundError);
    await expect(setup({ row: action({ archived: true }) }).service.get(caller, 9)).rejects.toBeInstanceOf(NotFoundError);

    const denied = setup();
    denied.databases.assertCanRead.mockRejectedValue(new ForbiddenError());
    await expect(denied.service.execute(caller, 9, { x: 1 })).rejects.toBeInstanceOf(ForbiddenError);
    expect(denied.execute).not.toHaveBeenCalled();

    const m = setup();
    await expect(m.service.execute(caller, 9, { x: 1 })).resolves.toEqual({ 'rows-updated': [1] });

    // A row policy on the database: an action would read and write rows past it.
    const restricted = setup({ rowRestricted: true });
    await expect(restricted.service.execute(caller, 9, { x: 1 })).rejects.toBeInstanceOf(ForbiddenError);
    expect(restricted.execute).not.toHaveBeenCalled();
  });

  it('shares only while public sharing is on, keeps an existing link, and shows the public nothing of the SQL', async () => {
    const off = setup({ publicSharing: false });
    expect((await failure(off.service.share(caller, 9)))?.message).toBe(PUBLIC_SHARING_OFF);
    expect(off.repo.share).not.toHaveBeenCalled();

    const kept = setup({ row: action({ public_uuid: 'u-1' }) });
    await expect(kept.service.share(caller, 9)).resolves.toEqual({ uuid: 'u-1' });
    expect(kept.repo.share).not.toHaveBeenCalled();

    const fresh = setup();
    const { uuid } = await fresh.service.share(caller, 9);
    expect(fresh.repo.share).toHaveBeenCalledWith(9, uuid, 7);

    await expect(setup().service.unshare(9)).rejects.toBeInstanceOf(NotFoundError);
    const shown = await setup().service.publicView(action());
    expect(Object.keys(shown).sort()).toEqual(['database_id', 'id', 'name', 'parameters', 'type', 'visualization_settings']);
    expect(await setup().service.view(action())).toMatchObject({ dataset_query: SQL, database_enabled_actions: true, archived: false });
  });
});
