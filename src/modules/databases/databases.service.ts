import { Inject, Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { AppLogger } from '../../common/logging/app-logger';
import { Engine } from '../../query-engine/execute/drivers';
import { SyncRepository, SyncService } from '../sync';
import { iso } from '../../common/views/wire-values';
import { SecretBox } from '../../common/crypto/secret-box';
import { toFieldView } from './field.view';
import { toTableView } from './table.view';
import {
  accessIn,
  DatabaseAccessService,
  DatabasePermissionsRepository,
  mergeMasked,
  openDetails,
  retargetedWithKeptSecret,
  sealDetails,
  SECRET_MASK,
  WarehouseConnections,
} from '../warehouse';
import { WarehouseField } from '../../schema/field.entity';
import { WarehouseTable } from '../../schema/table.entity';
import { WarehouseDatabase } from '../../schema/database.entity';
import { toDatabaseView } from './database.view';
import { CreateDatabaseDto, UpdateDatabaseDto } from './databases.dto';
import { EventBus } from '../../common/events/event-bus';
import { DatabaseDeleting } from './database-events';
import { DatabasesRepository } from './databases.repository';
import { mergedDatabaseSettings } from './database-settings';
import { privilegedRoleWarnings } from './warehouse-role';

@Injectable()
export class DatabasesService {
  constructor(
    private readonly repo: DatabasesRepository,
    private readonly connections: WarehouseConnections,
    private readonly access: DatabaseAccessService,
    private readonly perms: DatabasePermissionsRepository,
    private readonly sync: SyncService,
    private readonly syncRuns: SyncRepository,
    private readonly secrets: SecretBox,
    @Inject(AppLogger) private readonly logger: AppLogger,
    private readonly bus: EventBus,
  ) {}

  /** Databases the caller may query (all for admins), optionally with their tables. */
  async list(caller: AuthUser, includeTables: boolean) {
    const map = await this.access.accessMap(caller);
    const dbs = (await this.repo.list()).filter((db) => accessIn(map, db.id).data === 'unrestricted');
    const tables = includeTables ? (await this.repo.activeTables(dbs.map((d) => d.id))).filter(shownTable) : [];
    const data = dbs.map((db) => ({
      ...toDatabaseView(db, { isAdmin: caller.isSuperuser, native: accessIn(map, db.id).native }),
      ...(includeTables ? { tables: tables.filter((t) => t.db_id === db.id).map(toTableView) } : {}),
    }));
    return { data, total: data.length };
  }

  async get(caller: AuthUser, id: number) {
    const db = await this.readable(caller, id);
    return toDatabaseView(db, { isAdmin: caller.isSuperuser, native: (await this.access.accessTo(caller, id)).native });
  }

  /**
   * GET /api/database/:id?include=tables (or tables.fields): the database with its shown tables (and their shown
   * fields), as Metabase hydrates them; hidden tables and sensitive or retired fields stay out, for admins too.
   */
  async getWith(caller: AuthUser, id: number, include: 'tables' | 'tables.fields' | undefined) {
    const view = await this.get(caller, id);
    if (!include) return view;
    const tables = (await this.repo.activeTables([id])).filter(shownTable);
    if (include === 'tables') return { ...view, tables: tables.map(toTableView) };
    const fields = (await this.repo.activeFields(tables.map((t) => t.id))).filter(shownField);
    return {
      ...view,
      tables: tables.map((t) => ({ ...toTableView(t), fields: fields.filter((f) => f.table_id === t.id).map(toFieldView) })),
    };
  }

  /** The database with its active tables, each with its active fields. */
  /** Hidden tables and sensitive or retired fields are left out, unless an admin asks for them (`include_hidden`). */
  async metadata(caller: AuthUser, id: number, includeHidden = false) {
    const view = await this.get(caller, id);
    const all = includeHidden && caller.isSuperuser;
    const tables = await this.access.viewableTables(
      caller,
      (await this.repo.activeTables([id])).filter((t) => all || shownTable(t)),
    );
    const fields = (await this.repo.activeFields(tables.map((t) => t.id))).filter((f) => all || shownField(f));
    return {
      ...view,
      tables: tables.map((t) => ({ ...toTableView(t), fields: fields.filter((f) => f.table_id === t.id).map(toFieldView) })),
    };
  }

  async fields(caller: AuthUser, id: number) {
    await this.readable(caller, id);
    const tables = await this.access.viewableTables(caller, (await this.repo.activeTables([id])).filter(shownTable));
    const byId = new Map(tables.map((t) => [t.id, t]));
    return (await this.repo.activeFields(tables.map((t) => t.id))).filter(shownField).map((f) => ({
      id: f.id,
      name: f.name,
      display_name: f.display_name,
      base_type: f.base_type,
      semantic_type: f.semantic_type,
      table_name: byId.get(f.table_id)!.name,
      schema: byId.get(f.table_id)!.schema,
    }));
  }

  async schemas(caller: AuthUser, id: number): Promise<string[]> {
    await this.readable(caller, id);
    return [...new Set((await this.repo.activeTables([id])).map((t) => t.schema ?? ''))].sort();
  }

  /** Tables of one schema; '' names the schema of engines without schemas (SQLite, MySQL). */
  async schemaTables(caller: AuthUser, id: number, schema: string) {
    await this.readable(caller, id);
    const tables = (await this.repo.activeTables([id])).filter((t) => (t.schema ?? '') === schema);
    if (tables.length === 0) throw new NotFoundError();
    return tables.map(toTableView);
  }

  /**
   * Validates the details, tests the connection, saves, opens it to All Users, and starts the first sync. The
   * answer carries `warnings` (a connecting role with more than read access, for one).
   */
  async create(caller: AuthUser, dto: CreateDatabaseDto) {
    const details = this.validated(dto.engine, dto.details);
    const settings = dto.settings ? mergedDatabaseSettings(null, dto.settings) : null;
    const warnings = await this.testConnection(dto.engine, details);
    const db = await this.repo.transaction(async (tx) => {
      const saved = await this.repo.save(
        {
          name: dto.name.trim(),
          engine: dto.engine,
          details: sealDetails(details, this.secrets),
          description: dto.description ?? null,
          is_full_sync: dto.is_full_sync ?? true,
          auto_run_queries: dto.auto_run_queries ?? true,
          cache_ttl: dto.cache_ttl ?? null,
          metadata_sync_interval_minutes: dto.metadata_sync_interval_minutes ?? 60,
          field_values_interval_minutes: dto.field_values_interval_minutes ?? 1440,
          creator_id: caller.id,
          initial_sync_status: 'incomplete',
          is_sample: false,
          settings,
          timezone: null,
        },
        tx,
      );
      await this.perms.grantDefault(saved.id, tx);
      return saved;
    });
    this.sync.inBackground(db.id, 'metadata');
    this.logWarnings(db.id, warnings);
    return { ...toDatabaseView(db, { isAdmin: true, native: 'write' }), warnings };
  }

  /** The Sample Database, connected on the first start (see SampleDatabaseLoader). */
  async createSample(file: string): Promise<WarehouseDatabase> {
    const details = this.validated('sqlite', { db: file });
    return this.repo.transaction(async (tx) => {
      const saved = await this.repo.save(
        {
          name: 'Sample Database',
          engine: 'sqlite',
          details: sealDetails(details, this.secrets),
          is_sample: true,
          initial_sync_status: 'incomplete',
          creator_id: null,
        },
        tx,
      );
      await this.perms.grantDefault(saved.id, tx);
      return saved;
    });
  }

  async update(id: number, dto: UpdateDatabaseDto) {
    const db = await this.repo.findById(id);
    if (!db) throw new NotFoundError();
    const engine = dto.engine ?? db.engine;
    const changes: Partial<WarehouseDatabase> = { id };
    if (dto.settings) changes.settings = mergedDatabaseSettings(db.settings, dto.settings);
    let warnings: string[] = [];
    if (dto.details !== undefined || engine !== db.engine) {
      const stored = openDetails(db.details, this.secrets);
      const details = this.validated(engine, dto.details === undefined ? stored : mergeMasked(dto.details, stored));
      const retargeted = retargetedWithKeptSecret(
        { engine: db.engine, details: stored },
        { engine, details: { ...details } as Record<string, unknown> },
        dto.details,
      );
      if (retargeted.length) {
        throw ValidationError.of(
          'password',
          `the password must be given again when ${listed(retargeted)} change${retargeted.length > 1 ? '' : 's'}.`,
          dto.details?.password ?? SECRET_MASK,
        );
      }
      warnings = await this.testConnection(engine, details);
      changes.details = sealDetails(details, this.secrets);
      changes.engine = engine;
    }
    for (const k of [
      'name',
      'description',
      'is_full_sync',
      'auto_run_queries',
      'cache_ttl',
      'caveats',
      'points_of_interest',
      'metadata_sync_interval_minutes',
      'field_values_interval_minutes',
    ] as const) {
      if (dto[k] !== undefined) (changes as Record<string, unknown>)[k] = dto[k];
    }
    const saved = await this.repo.save(changes);
    if (changes.details) {
      await this.connections.evict(id);
      this.sync.inBackground(id, 'metadata');
      this.logWarnings(id, warnings);
    }
    return { ...toDatabaseView({ ...db, ...saved }, { isAdmin: true, native: 'write' }), warnings };
  }

  async delete(id: number): Promise<void> {
    if (!(await this.repo.findById(id))) throw new NotFoundError();
    await this.bus.emit(new DatabaseDeleting(id));
    await this.connections.evict(id);
    await this.repo.delete(id);
  }

  async discardValues(id: number): Promise<void> {
    await this.requireExisting(id);
    const tables = await this.repo.activeTables([id]);
    await this.sync.discardValues((await this.repo.activeFields(tables.map((t) => t.id))).map((f) => f.id));
  }

  async syncLog(id: number) {
    return (await this.syncRuns.recentRuns(id)).map((r) => ({
      id: r.id,
      kind: r.kind,
      status: r.status,
      instance: r.instance,
      started_at: iso(r.started_at),
      ended_at: iso(r.ended_at),
      error: r.error,
      summary: r.summary,
    }));
  }

  async requireExisting(id: number): Promise<WarehouseDatabase> {
    const db = await this.repo.findById(id);
    if (!db) throw new NotFoundError();
    return db;
  }

  private async readable(caller: AuthUser, id: number): Promise<WarehouseDatabase> {
    const db = await this.requireExisting(id);
    await this.access.assertCanRead(caller, id);
    return db;
  }

  /** Invalid details throw DetailsError (the exception filter answers it with the offending key). */
  private validated(engine: Engine, details: unknown) {
    return this.connections.validate(engine, details);
  }

  /**
   * Tests the connection and answers the warnings about the connecting role. A failure is a WarehouseError, which
   * the exception filter answers as the caller's 400 with its message.
   */
  private async testConnection(engine: Engine, details: ReturnType<DatabasesService['validated']>): Promise<string[]> {
    return this.connections.withTemporary(engine, details, async (d) => {
      await d.testConnection();
      return privilegedRoleWarnings(engine, d).catch((e: unknown) => {
        this.logger.debug('Could not check the privileges of the warehouse role', { engine, err: e });
        return [];
      });
    });
  }

  /** The database's id and engine only: never its details. */
  private logWarnings(id: number, warnings: string[]): void {
    for (const warning of warnings)
      this.logger.warning('Warehouse connection has more privileges than it needs', { database_id: id, warning });
  }
}

/** `a`, `a and b`, `a, b and c`. */
function listed(words: string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : words[0];
}

/** Tables an admin hid (hidden, technical, cruft) are kept out of what users browse. */
function shownTable(t: WarehouseTable): boolean {
  return t.visibility_type === null;
}

function shownField(f: WarehouseField): boolean {
  return f.visibility_type !== 'sensitive' && f.visibility_type !== 'retired';
}
