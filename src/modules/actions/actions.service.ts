import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { PUBLIC_SHARING_OFF } from '../../common/auth/public-sharing.guard';
import { ForbiddenError, MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { SETTINGS_READER, type SettingsReader } from '../../common/settings/settings-reader';
import { CardAccessService } from '../cards';
import type { CardRow } from '../../schema/card.rows';
import { isoTime } from '../../common/database/sql-time';
import { DatabaseAccessService } from '../warehouse';
import { RowSecurityService } from '../row-security';
import type { Action, ActionType, ImplicitKind } from '../../schema/action.entity';
import { ActionRunner } from './action-runner.service';
import { OPEN, type RowScope } from './row-scope';
import type { CreateActionDto, UpdateActionDto } from './actions.dto';
import { ActionsRepository, type ActionRow } from './actions.repository';
import { entityId } from '../../common/database/entity-id';

export const NOT_A_MODEL = 'Actions must be made with models, not cards.';
export const NATIVE_MODEL = 'Implicit actions are not supported for models with custom queries.';
const json = (v: unknown) => JSON.stringify(v);
const parse = (s: string | null, dflt: unknown): unknown => {
  try {
    return s === null ? dflt : JSON.parse(s);
  } catch {
    return dflt;
  }
};

/** Actions: CRUD with the model's collection deciding access, execution with data access, public links. */
@Injectable()
export class ActionsService {
  constructor(
    private readonly repo: ActionsRepository,
    private readonly runner: ActionRunner,
    private readonly cards: CardAccessService,
    private readonly databases: DatabaseAccessService,
    @Inject(SETTINGS_READER) private readonly settings: SettingsReader,
    @Optional() private readonly rowSecurity?: RowSecurityService,
  ) {}

  async list(caller: AuthUser, modelId: number | null): Promise<Record<string, unknown>[]> {
    if (modelId !== null) await this.cards.readable(caller, modelId);
    const rows = await this.repo.list(modelId);
    const readable = new Map<number, boolean>();
    const out: Record<string, unknown>[] = [];
    for (const row of rows) {
      const model = row.model_id;
      if (!readable.has(model))
        readable.set(
          model,
          await this.cards.readable(caller, model).then(
            () => true,
            () => false,
          ),
        );
      if (readable.get(model)) out.push(await this.view(row));
    }
    return out;
  }

  /** An unarchived action (Metabase reads archived ones only through PUT, to bring them back). */
  async get(caller: AuthUser, id: number): Promise<Record<string, unknown>> {
    const row = await this.readable(caller, id);
    if (row.archived) throw new NotFoundError();
    return this.view(row);
  }

  async create(caller: AuthUser, body: CreateActionDto): Promise<Record<string, unknown>> {
    const model = await this.writableModel(caller, body.model_id);
    const type: ActionType = body.type ?? 'query';
    const sub = await this.subtype(type, model, body.database_id ?? null, body.dataset_query ?? null, body.kind ?? null);
    await this.assertMayAuthor(caller, model, sub.query);
    const id = await this.repo.create(
      {
        model_id: model.id,
        type,
        name: body.name,
        description: body.description ?? null,
        parameters: json(body.parameters ?? []),
        parameter_mappings: json(body.parameter_mappings ?? []),
        visualization_settings: json(body.visualization_settings ?? {}),
        creator_id: caller.id,
        archived: false,
        entity_id: entityId(),
      },
      sub.query,
      sub.kind,
    );
    return this.view((await this.repo.row(id))!);
  }

  async update(caller: AuthUser, id: number, body: UpdateActionDto): Promise<Record<string, unknown>> {
    const row = await this.writable(caller, id);
    const model =
      body.model_id !== undefined && body.model_id !== null && body.model_id !== row.model_id
        ? await this.writableModel(caller, body.model_id)
        : null;
    const changes: Partial<Action> = {};
    if (model) changes.model_id = model.id;
    if (body.name !== undefined && body.name !== null) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description ?? null;
    if (body.parameters !== undefined) changes.parameters = json(body.parameters ?? []);
    if (body.parameter_mappings !== undefined) changes.parameter_mappings = json(body.parameter_mappings ?? []);
    if (body.visualization_settings !== undefined) changes.visualization_settings = json(body.visualization_settings ?? {});
    if (body.archived !== undefined && body.archived !== null) changes.archived = body.archived;
    const type = body.type ?? row.type;
    if (type !== row.type) changes.type = type;
    const touchesSubtype = type !== row.type || model !== null || (body.dataset_query ?? body.database_id ?? body.kind ?? null) !== null;
    let sub: Awaited<ReturnType<ActionsService['subtype']>> = { query: null, kind: null };
    if (touchesSubtype) {
      const target = model ?? (await this.cards.readable(caller, row.model_id)).row;
      sub = await this.subtype(
        type,
        target,
        body.database_id ?? (type === row.type ? row.database_id : null),
        body.dataset_query ?? (type === row.type ? (parse(row.dataset_query, null) as Record<string, unknown> | null) : null),
        body.kind ?? (type === row.type ? row.kind : null),
      );
      await this.assertMayAuthor(caller, target, sub.query);
    }
    await this.repo.update(id, changes, sub.query, sub.kind);
    return this.view((await this.repo.row(id))!);
  }

  async remove(caller: AuthUser, id: number): Promise<void> {
    await this.writable(caller, id);
    await this.repo.delete(id);
  }

  async execute(caller: AuthUser, id: number, values: Record<string, unknown>): Promise<Record<string, unknown>> {
    const row = await this.readable(caller, id);
    if (row.archived) throw new NotFoundError();
    return this.runner.execute(row, values, await this.assertMayRun(caller, row));
  }

  /**
   * Data access to the database the action writes to (superusers have it), and the rows the caller may write there.
   * A query action's SQL could touch any row: refused to a caller restricted on the database. An implicit action
   * writes only the rows of its table the caller's filter policies show them (row-scope.ts); a policy that replaces
   * the table by a question, or an impersonated connection, refuses it.
   */
  async assertMayRun(caller: AuthUser, row: ActionRow): Promise<RowScope> {
    const db = await this.runner.databaseOf(row);
    if (!db) throw new NotFoundError();
    await this.databases.assertCanRead(caller, db.id);
    if (!this.rowSecurity) return OPEN;
    if (row.type !== 'implicit') {
      if (await this.rowSecurity.restrictsAny(caller, db.id)) throw new ForbiddenError();
      return OPEN;
    }
    const table = await this.runner.tableOf(row);
    if (!table) throw new NotFoundError();
    const scope = await this.rowSecurity.writeScope(caller, db.id, table.id);
    if (scope.kind === 'refused') throw new MessageError(scope.message, 403);
    return scope;
  }

  async share(caller: AuthUser, id: number): Promise<{ uuid: string }> {
    if ((await this.settings.get<boolean>('enable-public-sharing')) !== true) throw new MessageError(PUBLIC_SHARING_OFF);
    const row = await this.repo.row(id);
    if (!row || row.archived) throw new NotFoundError();
    const db = await this.runner.databaseOf(row);
    if (!db) throw new NotFoundError();
    this.runner.assertEnabled(db);
    const uuid = row.public_uuid ?? (await this.repo.share(id, randomUUID(), caller.id));
    if (!uuid) throw new NotFoundError();
    return { uuid };
  }

  async unshare(id: number): Promise<void> {
    if ((await this.settings.get<boolean>('enable-public-sharing')) !== true) throw new MessageError(PUBLIC_SHARING_OFF);
    const row = await this.repo.row(id);
    if (!row || row.public_uuid === null) throw new NotFoundError();
    await this.repo.unshare(id);
  }

  /** The action (404 when missing) if the caller may read its model (403 otherwise). */
  async readable(caller: AuthUser, id: number): Promise<ActionRow> {
    const row = await this.repo.row(id);
    if (!row) throw new NotFoundError();
    await this.cards.readable(caller, row.model_id);
    return row;
  }

  private async writable(caller: AuthUser, id: number): Promise<ActionRow> {
    const row = await this.repo.row(id);
    if (!row) throw new NotFoundError();
    await this.cards.writable(caller, row.model_id);
    return row;
  }

  /**
   * Writing SQL that writes needs native query permission on its database; an implicit action, data access to the
   * model's database (Metabase's rule for authoring actions, beside write access to the model's collection).
   */
  private async assertMayAuthor(caller: AuthUser, model: CardRow, query: { database_id: number } | null): Promise<void> {
    if (query) return this.databases.assertCanRunNative(caller, query.database_id);
    if (model.database_id !== null) await this.databases.assertCanRead(caller, model.database_id);
  }

  /** The model an action is put on: it must exist (404), be writable (403) and be a model (400). */
  private async writableModel(caller: AuthUser, modelId: number): Promise<CardRow> {
    const card = await this.cards.writable(caller, modelId);
    if (card.type !== 'model') throw new MessageError(NOT_A_MODEL);
    return card;
  }

  /** The row of the action's kind: a query action's SQL on an actions-enabled database, an implicit action's kind. */
  private async subtype(
    type: ActionType,
    model: CardRow,
    databaseId: number | null,
    datasetQuery: Record<string, unknown> | null,
    kind: ImplicitKind | null,
  ): Promise<{ query: { database_id: number; dataset_query: string } | null; kind: ImplicitKind | null }> {
    if (type === 'http') throw new MessageError('HTTP actions are not supported.');
    if (type === 'implicit') {
      if (!kind) throw ValidationError.of('kind', 'value must be one of: `row/create`, `row/update`, `row/delete`.', kind ?? undefined);
      if (model.query_type === 'native' || model.table_id === null) throw new MessageError(NATIVE_MODEL);
      const table = await this.repo.table(model.table_id);
      const db = table ? await this.repo.database(table.db_id) : null;
      if (!db) throw new NotFoundError();
      this.runner.assertEnabled(db);
      return { query: null, kind };
    }
    const native = datasetQuery?.native as { query?: unknown } | undefined;
    if (!datasetQuery || datasetQuery.type !== 'native' || typeof native?.query !== 'string') {
      throw ValidationError.of(
        'dataset_query',
        'value must be a native query: a map with `type` "native" and `native.query`.',
        datasetQuery ?? undefined,
      );
    }
    const dbId = databaseId ?? (typeof datasetQuery.database === 'number' ? datasetQuery.database : null) ?? model.database_id;
    const db = dbId === null ? null : await this.repo.database(dbId);
    if (!db) throw ValidationError.of('database_id', 'value must be the id of an existing database.', dbId);
    this.runner.assertEnabled(db);
    return { query: { database_id: db.id, dataset_query: json({ ...datasetQuery, database: db.id }) }, kind: null };
  }

  /** An action as Metabase answers it. */
  async view(row: ActionRow): Promise<Record<string, unknown>> {
    const db = await this.runner.databaseOf(row);
    const base: Record<string, unknown> = {
      id: row.id,
      name: row.name,
      description: row.description,
      type: row.type,
      model_id: row.model_id,
      database_id: db ? db.id : null,
      parameters: await this.runner.parameters(row),
      parameter_mappings: parse(row.parameter_mappings, []),
      visualization_settings: parse(row.visualization_settings, {}),
      public_uuid: row.public_uuid,
      made_public_by_id: row.made_public_by_id,
      creator_id: row.creator_id,
      archived: row.archived,
      entity_id: row.entity_id,
      created_at: isoTime(row.created_at),
      updated_at: isoTime(row.updated_at),
      database_enabled_actions: this.runner.enabled(db),
    };
    if (row.type === 'query') base.dataset_query = parse(row.dataset_query, null);
    if (row.type === 'implicit') base.kind = row.kind;
    return base;
  }

  /** Actions by id as dashcards show them (archived ones too: the button stays on the dashboard). */
  async views(ids: number[]): Promise<Map<number, Record<string, unknown>>> {
    const out = new Map<number, Record<string, unknown>>();
    for (const row of await this.repo.rows(ids)) out.set(row.id, await this.view(row));
    return out;
  }

  /** Actions by id as public and embedded dashboards show them on their buttons. */
  async publicViews(ids: number[]): Promise<Map<number, Record<string, unknown>>> {
    const out = new Map<number, Record<string, unknown>>();
    for (const row of await this.repo.rows(ids)) out.set(row.id, await this.publicView(row));
    return out;
  }

  /** What the public surface shows of an action: no owner, no SQL. */
  async publicView(row: ActionRow): Promise<Record<string, unknown>> {
    const db = await this.runner.databaseOf(row);
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      database_id: db ? db.id : null,
      parameters: await this.runner.parameters(row),
      visualization_settings: parse(row.visualization_settings, {}),
    };
  }
}
