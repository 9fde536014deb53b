import { Inject, Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { MessageError, NotFoundError } from '../../common/errors/api-errors';
import { isWarehouseError } from '../../query-engine/execute/drivers/errors';
import { AppLogger } from '../../common/logging/app-logger';
import { FieldHydrator, FieldsRepository, FieldValuesService, fieldView, MetadataAccess, tableView } from '../fields';
import { segmentsMetricsOf } from '../content';
import { EventBus } from '../../common/events/event-bus';
import { SyncService } from '../sync';
import { WarehouseConnections } from '../warehouse';
import { orderFields } from './field-order';
import { WarehouseTable } from '../../schema/table.entity';
import { TableEditsDto, UpdateTableDto } from './tables.dto';
import { TablesRepository } from './tables.repository';

const MAX_ID = 2_147_483_647;
/** Metabase sets these only when given a value; null leaves them alone. */
const NON_NIL = ['display_name', 'show_in_getting_started', 'entity_type', 'field_order'] as const;
/** ...and these whenever present, null clearing them. */
const PRESENT = ['description', 'caveats', 'points_of_interest', 'visibility_type'] as const;
const RELATED_TABLES_MAX = 10;
const RELATED_SEGMENTS_METRICS_MAX = 10;

@Injectable()
export class TablesService {
  constructor(
    private readonly repo: TablesRepository,
    private readonly fields: FieldsRepository,
    private readonly access: MetadataAccess,
    private readonly hydrator: FieldHydrator,
    private readonly fieldValues: FieldValuesService,
    private readonly sync: SyncService,
    private readonly connections: WarehouseConnections,
    @Inject(AppLogger) private readonly logger: AppLogger,
    private readonly bus: EventBus,
  ) {}

  /** Active tables of the databases the caller may read, each with its database. */
  async list(caller: AuthUser) {
    const tables = await this.access.viewableTables(caller, await this.repo.activeTables());
    const dbs = await this.access.readableDbViews(
      caller,
      tables.map((t) => t.db_id),
    );
    return tables.filter((t) => dbs.has(t.db_id)).map((t) => ({ ...tableView(t), db: dbs.get(t.db_id)! }));
  }

  async get(caller: AuthUser, id: number, editable: boolean) {
    const { table, db } = await this.access.table(caller, id, editable ? 'write' : 'read');
    const pk = (await this.fields.activeFields([id])).find((f) => f.semantic_type === 'type/PK');
    return { ...(await this.access.tableWithDb(caller, table, db)), pk_field: pk?.id ?? null };
  }

  async update(caller: AuthUser, id: number, dto: UpdateTableDto) {
    return (await this.updateMany(caller, [id], dto))[0];
  }

  /**
   * Applies the edits to every table in one transaction and records the edited keys in `user_edited`. A changed
   * field order re-positions the fields, and the answer then carries them (as Metabase's does).
   */
  async updateMany(caller: AuthUser, ids: number[], dto: TableEditsDto & { field_order?: UpdateTableDto['field_order'] }) {
    const unique = [...new Set(ids)];
    if (unique.some((id) => id > MAX_ID)) throw new NotFoundError();
    const existing = await this.repo.tablesByIds(unique);
    if (existing.length !== unique.length || existing.some((t) => !t.active)) throw new NotFoundError();
    for (const t of existing) await this.access.check(caller, t.db_id, 'write');
    const reordered = new Set<number>();
    await this.repo.transaction(async (tx) => {
      for (const table of existing) {
        const changes = tableChanges(table, dto);
        await this.repo.updateTable(table.id, changes, tx);
        if (changes.field_order && changes.field_order !== table.field_order) {
          const ordered = orderFields(await this.fields.activeFields([table.id], tx), changes.field_order);
          await this.repo.setPositions(
            ordered.map((f, position) => ({ id: f.id, position })),
            tx,
          );
          reordered.add(table.id);
        }
      }
    });
    const updated = await this.repo.tablesByIds(unique);
    const byId = new Map(updated.map((t) => [t.id, t]));
    return Promise.all(
      unique.map(async (id) => {
        const view = tableView(byId.get(id)!);
        if (!reordered.has(id)) return view;
        return { ...view, fields: await this.hydrator.detailed(await this.fields.activeFields([id]), { includeSensitive: true }) };
      }),
    );
  }

  /** Puts the fields in the given order, which must name exactly the table's active fields, and makes it `custom`. */
  async reorderFields(caller: AuthUser, id: number, order: number[]) {
    await this.access.table(caller, id, 'write');
    const active = await this.fields.activeFields([id]);
    const given = new Set(order);
    if (given.size !== order.length || given.size !== active.length || active.some((f) => !given.has(f.id))) {
      throw new MessageError("Invalid field order: it must list each of the table's active field ids exactly once.");
    }
    await this.repo.transaction(async (tx) => {
      await this.repo.updateTable(id, { field_order: 'custom' }, tx);
      await this.repo.setPositions(
        order.map((fieldId, position) => ({ id: fieldId, position, custom_position: position })),
        tx,
      );
    });
    return { success: true };
  }

  /** Foreign keys, anywhere, whose destination is a field of this table. */
  async fks(caller: AuthUser, id: number) {
    const { table, db } = await this.access.table(caller, id, 'read');
    const shown = (f: { visibility_type: string }) =>
      f.visibility_type !== 'retired' && (caller.isSuperuser || f.visibility_type !== 'sensitive');
    const own = (await this.fields.activeFields([id])).filter(shown);
    const origins = (await this.fields.fieldsPointingAt(own.map((f) => f.id))).filter(shown);
    const tables = new Map((await this.repo.tablesByIds([...new Set(origins.map((o) => o.table_id))])).map((t) => [t.id, t]));
    const ownById = new Map(own.map((f) => [f.id, f]));
    const dbView = await this.access.dbView(caller, db);
    return origins
      .filter((o) => tables.get(o.table_id)?.active)
      .map((o) => ({
        relationship: 'Mt1',
        origin_id: o.id,
        origin: { ...fieldView(o), table: { ...tableView(tables.get(o.table_id)!), db: dbView } },
        destination_id: o.fk_target_field_id,
        destination: { ...fieldView(ownById.get(o.fk_target_field_id!)!), table: tableView(table) },
      }));
  }

  /**
   * Its segments and metrics, tables this one links to, tables linking to it, and a few others of its schema (Metabase's
   * related API; the segments and metrics by name, at most RELATED_SEGMENTS_METRICS_MAX of each).
   */
  async related(caller: AuthUser, id: number) {
    const { table } = await this.access.table(caller, id, 'read');
    const siblings = await this.repo.activeTablesOfDb(table.db_id);
    const visible = new Map(siblings.filter((t) => t.visibility_type === null).map((t) => [t.id, t]));
    const own = await this.fields.activeFields([id]);
    const targets = await this.fields.fieldsByIds([
      ...new Set(own.map((f) => f.fk_target_field_id).filter((x): x is number => x !== null)),
    ]);
    const linkingTo = pick(
      visible,
      targets.filter((f) => f.active).map((f) => f.table_id),
    );
    const linkedFrom = pick(
      visible,
      (await this.fields.fieldsPointingAt(own.map((f) => f.id))).map((f) => f.table_id),
    );
    const linked = new Set([...linkingTo, ...linkedFrom].map((t) => t.id));
    const others = [...visible.values()]
      .filter((t) => t.id !== id && !linked.has(t.id) && (t.schema ?? '') === (table.schema ?? ''))
      .slice(0, RELATED_TABLES_MAX);
    const [segments, metrics] = await Promise.all([
      segmentsMetricsOf(this.bus, 'segment', [id]),
      segmentsMetricsOf(this.bus, 'metric', [id]),
    ]);
    return {
      table: tableView(table),
      segments: (segments.get(id) ?? []).slice(0, RELATED_SEGMENTS_METRICS_MAX),
      metrics: (metrics.get(id) ?? []).slice(0, RELATED_SEGMENTS_METRICS_MAX),
      'linked-from': linkedFrom.map(tableView),
      'linking-to': linkingTo.map(tableView),
      tables: others.map(tableView),
    };
  }

  async discardValues(caller: AuthUser, id: number) {
    await this.access.table(caller, id, 'write');
    await this.sync.discardValues(await this.fields.allFieldIds(id));
    return { status: 'success' };
  }

  /**
   * POST /api/table/:id/sync_schema: re-reads the table's columns from the warehouse and analyzes it again (new
   * columns appear, dropped ones turn inactive), in the background as Metabase does. A warehouse that does not
   * answer is 422 with its message, before anything starts.
   */
  async syncSchema(caller: AuthUser, id: number) {
    const { table, db } = await this.access.table(caller, id, 'write');
    try {
      await this.connections.driverFor(db).testConnection();
    } catch (e) {
      if (!isWarehouseError(e)) throw e;
      this.logger.warning('Cannot connect to the database to sync a table', { db_id: db.id, table_id: id, error: e.message });
      throw new MessageError(e.message, 422);
    }
    this.sync.inBackground(db.id, 'metadata', { schema: table.schema ?? null, name: table.name });
    return { status: 'ok' };
  }

  /** Starts a value scan of the table's list fields; like Metabase, answers without waiting for it. */
  async rescanValues(caller: AuthUser, id: number) {
    const { db } = await this.access.table(caller, id, 'write');
    const fieldIds = (await this.fields.activeFields([id])).map((f) => f.id);
    void this.fieldValues
      .scan(db, fieldIds)
      .catch((e: unknown) =>
        this.logger.warning('Table value scan failed', { table_id: id, error: e instanceof Error ? e.message : String(e) }),
      );
    return { status: 'success' };
  }
}

function tableChanges(
  table: WarehouseTable,
  dto: TableEditsDto & { field_order?: UpdateTableDto['field_order'] },
): Partial<WarehouseTable> {
  const changes: Record<string, unknown> = {};
  for (const key of NON_NIL) if (dto[key] !== undefined && dto[key] !== null) changes[key] = dto[key];
  for (const key of PRESENT) if (dto[key] !== undefined) changes[key] = dto[key];
  if (Object.keys(changes).length === 0) return {};
  changes.user_edited = [...new Set([...(table.user_edited ?? []), ...Object.keys(changes)])];
  return changes as Partial<WarehouseTable>;
}

function pick(tables: Map<number, WarehouseTable>, ids: number[]): WarehouseTable[] {
  return [...new Set(ids)].map((id) => tables.get(id)).filter((t): t is WarehouseTable => t !== undefined);
}
