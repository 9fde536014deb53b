import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { isShared, type Reader } from '../../common/auth/shared-grant';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import { WarehouseDatabase } from '../../schema/database.entity';
import { DatabasesRepository, toDatabaseView, toTableView } from '../databases';
import { WarehouseTable } from '../../schema/table.entity';
import { accessIn, DatabaseAccessService } from '../warehouse';
import { WarehouseField } from '../../schema/field.entity';
import { FieldsRepository } from './fields.repository';

/** `read` needs data access to the database; `write` (editing the data model) needs an admin. */
export type MetadataMode = 'read' | 'write';

export interface TableInDb {
  table: WarehouseTable;
  db: WarehouseDatabase;
}

export interface FieldInTable extends TableInDb {
  field: WarehouseField;
}

/**
 * Finds tables and fields the way every metadata endpoint must: unknown or inactive is 404 (before any
 * permission answer, as Metabase does), then the caller's access to the database decides. A shared object's grant
 * reads without data permissions, as Metabase's public and embed look-ups do: the services that take one ask only
 * for the fields the object's own parameters filter on (and what those may be paired with). It never writes.
 */
@Injectable()
export class MetadataAccess {
  constructor(
    private readonly repo: FieldsRepository,
    private readonly databases: DatabasesRepository,
    private readonly access: DatabaseAccessService,
  ) {}

  async table(caller: Reader, id: number, mode: MetadataMode): Promise<TableInDb> {
    const table = await this.repo.findTable(id);
    if (!table || !table.active) throw new NotFoundError();
    const db = await this.databases.findById(table.db_id);
    if (!db) throw new NotFoundError();
    await this.check(caller, db.id, mode);
    // A table blocked to the caller is as the database would be without access.
    if (mode === 'read' && !isShared(caller) && !(await this.access.viewableTables(caller, [table])).length) throw new ForbiddenError();
    return { table, db };
  }

  async field(caller: Reader, id: number, mode: MetadataMode): Promise<FieldInTable> {
    const field = await this.repo.findField(id);
    if (!field || !field.active) throw new NotFoundError();
    return { field, ...(await this.table(caller, field.table_id, mode)) };
  }

  async check(caller: Reader, dbId: number, mode: MetadataMode): Promise<void> {
    if (isShared(caller)) {
      if (mode !== 'read') throw new ForbiddenError();
    } else if (mode === 'write') {
      if (!caller.isSuperuser) throw new ForbiddenError();
    } else {
      await this.access.assertCanRead(caller, dbId);
    }
  }

  /** The database as embedded in table and field answers; details only for admins, and never when `noDetails`. */
  async dbView(caller: AuthUser, db: WarehouseDatabase, noDetails = false) {
    const native = (await this.access.accessTo(caller, db.id)).native;
    return toDatabaseView(db, { isAdmin: caller.isSuperuser && !noDetails, native });
  }

  /** Of these tables, those the caller may view (table-level `view-data`). */
  viewableTables<T extends { id: number; db_id: number }>(caller: AuthUser, tables: T[]): Promise<T[]> {
    return this.access.viewableTables(caller, tables);
  }

  /** Databases by id with the caller's view of each; only those the caller may read. */
  async readableDbViews(caller: AuthUser, dbIds: number[]) {
    const views = new Map<number, ReturnType<typeof toDatabaseView>>();
    if (dbIds.length === 0) return views;
    const map = await this.access.accessMap(caller);
    const dbs = await this.databases.list([...new Set(dbIds)]);
    for (const db of dbs) {
      const a = accessIn(map, db.id);
      if (a.data === 'unrestricted') views.set(db.id, toDatabaseView(db, { isAdmin: caller.isSuperuser, native: a.native }));
    }
    return views;
  }

  /** Metabase shows a schemaless table's schema as "" (its `fix-schema`). */
  async tableWithDb(caller: AuthUser, table: WarehouseTable, db: WarehouseDatabase, noDetails = false) {
    return { ...tableView(table), db: await this.dbView(caller, db, noDetails) };
  }
}

export function tableView(t: WarehouseTable) {
  return { ...toTableView(t), schema: t.schema ?? '' };
}
