import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { GrantsCache } from '../../common/cache/grants-cache';
import { AppSql } from '../../common/database/app-sql';
import { and, inList, raw, sql } from '../../common/database/sql';
import { idsOf, typedRows, type RowShape } from '../../common/database/row-values';
import { Setting } from '../../schema/setting.entity';
import { ALL_USERS_GROUP_ID } from '../../schema/permissions-group.entity';
import { DataAccess, DatabasePermission, DownloadAccess, NativeAccess, UploadAccess } from '../../schema/database-permission.entity';
import { TablePermission } from '../../schema/table-permission.entity';
import type { DatabaseGrant, TableGrant } from './table-access';

/** The internal setting that holds the revision of the data permissions graph. */
const REVISION_KEY = 'data-permissions-revision';

export interface Access {
  data: DataAccess;
  native: NativeAccess;
  download: DownloadAccess;
  /** Metabase's create-queries, which decides over `native` when set (null: `native` decides). */
  create_queries?: DatabasePermission['create_queries'];
}

export type Grant = Pick<DatabasePermission, 'db_id' | 'data' | 'native' | 'download'>;

/** A table of a warehouse as permissions see it: per-schema maps group tables by `schema` (null shown as ""). */
export interface PermissionTable {
  id: number;
  db_id: number;
  schema: string | null;
  name: string;
}

export const GRANT_SHAPE: RowShape = { numbers: ['db_id'] };

/** Download levels from the least to the most generous. */
const DOWNLOAD_ORDER: DownloadAccess[] = ['none', 'limited', 'full'];

/** Per-group, per-database grants. A caller's access is the most generous grant among their groups. */
@Injectable()
export class DatabasePermissionsRepository {
  private readonly sql: AppSql;

  constructor(
    private readonly db: DataSource,
    private readonly cache: GrantsCache,
  ) {
    this.sql = new AppSql(db);
  }

  /**
   * New databases are open to All Users, downloads of up to 1,048,575 rows included, as in Metabase; admins change that
   * through the graph.
   */
  async grantDefault(dbId: number, tx: EntityManager): Promise<void> {
    await tx.insert(DatabasePermission, {
      group_id: ALL_USERS_GROUP_ID,
      db_id: dbId,
      data: 'unrestricted',
      native: 'write',
      download: 'full',
    });
  }

  /**
   * The grants of these groups, on one database or all. Read on every query a non-admin runs, so plain SQL: the
   * ORM's query builder cost more than the query.
   */
  forGroups(groupIds: number[], dbId?: number): Promise<Grant[]> {
    if (groupIds.length === 0) return Promise.resolve([]);
    return this.cache.of('database-grants', groupIds, dbId ?? null, async () => {
      const rows = await this.sql.query<Record<string, unknown>>(
        sql`SELECT db_id, data, native, download FROM database_permission
        WHERE ${and(inList(raw('group_id'), groupIds), dbId !== undefined && sql`db_id = ${dbId}`)}`,
      );
      return typedRows<Grant>(rows, GRANT_SHAPE);
    });
  }

  all(): Promise<DatabasePermission[]> {
    return this.db.manager.find(DatabasePermission, { order: { group_id: 'ASC', db_id: 'ASC' } });
  }

  async groupIds(): Promise<number[]> {
    const rows: Record<string, unknown>[] = await this.db.query('SELECT id FROM permissions_group ORDER BY id');
    return idsOf(rows);
  }

  grant(groupId: number, dbId: number, tx: EntityManager): Promise<DatabasePermission | null> {
    return tx.findOneBy(DatabasePermission, { group_id: groupId, db_id: dbId });
  }

  async set(groupId: number, dbId: number, access: Access, tx: EntityManager): Promise<void> {
    await tx.upsert(DatabasePermission, { group_id: groupId, db_id: dbId, ...access }, ['group_id', 'db_id']);
  }

  /** One database's grants of these groups, with their per-table rows: what TableAccess is made of. */
  levelGrants(groupIds: number[], dbId: number): Promise<Array<{ group_id: number; grant: DatabaseGrant; tables: TableGrant[] }>> {
    return this.levelGrantsIn(groupIds, dbId);
  }

  /** The groups' grants on every database (on `dbId` only when given), each with its per-table rows: kept by groups. */
  levelGrantsIn(
    groupIds: number[],
    dbId?: number,
  ): Promise<Array<{ group_id: number; db_id: number; grant: DatabaseGrant; tables: TableGrant[] }>> {
    if (groupIds.length === 0) return Promise.resolve([]);
    return this.cache.of('level-grants', groupIds, dbId ?? null, () => this.readLevelGrants(groupIds, dbId));
  }

  /** Two statements whatever the number of databases and tables. */
  private async readLevelGrants(
    groupIds: number[],
    dbId?: number,
  ): Promise<Array<{ group_id: number; db_id: number; grant: DatabaseGrant; tables: TableGrant[] }>> {
    const where = and(inList(raw('group_id'), groupIds), dbId !== undefined && sql`db_id = ${dbId}`);
    const [grants, tables] = await Promise.all([
      this.sql.query<Record<string, unknown>>(
        sql`SELECT group_id, db_id, data, native, download, create_queries FROM database_permission WHERE ${where}`,
      ),
      this.sql.query<Record<string, unknown>>(
        sql`SELECT group_id, db_id, table_id, view_data, create_queries, download FROM table_permission WHERE ${where}`,
      ),
    ]);
    const typedTables = typedRows<TableGrant & { group_id: number; db_id: number }>(tables, { numbers: ['group_id', 'db_id', 'table_id'] });
    return typedRows<DatabaseGrant & { group_id: number; db_id: number }>(grants, { numbers: ['group_id', 'db_id'] }).map((grant) => ({
      group_id: grant.group_id,
      db_id: grant.db_id,
      grant,
      tables: typedTables.filter((t) => t.group_id === grant.group_id && t.db_id === grant.db_id),
    }));
  }

  allTableGrants(tx: EntityManager = this.db.manager): Promise<TablePermission[]> {
    return tx.find(TablePermission, { order: { group_id: 'ASC', table_id: 'ASC' } });
  }

  tableGrants(groupId: number, dbId: number, tx: EntityManager): Promise<TablePermission[]> {
    return tx.findBy(TablePermission, { group_id: groupId, db_id: dbId });
  }

  /**
   * Stores a group's levels on one database: its database row and its per-table rows. `upload` as given; without
   * data access uploads are off whatever it says.
   */
  async setLevels(
    groupId: number,
    dbId: number,
    grant: DatabaseGrant,
    rows: TableGrant[],
    upload: UploadAccess | undefined,
    tx: EntityManager,
  ): Promise<void> {
    await tx.upsert(DatabasePermission, { group_id: groupId, db_id: dbId, ...grant }, ['group_id', 'db_id']);
    const uploads = grant.data === 'no' ? 'no' : upload;
    if (uploads) await tx.update(DatabasePermission, { group_id: groupId, db_id: dbId }, { upload: uploads });
    await this.setTableGrants(groupId, dbId, rows, tx);
  }

  /** Replaces a group's per-table rows on one database (none: every kind database-wide). */
  async setTableGrants(groupId: number, dbId: number, rows: TableGrant[], tx: EntityManager): Promise<void> {
    await tx.delete(TablePermission, { group_id: groupId, db_id: dbId });
    if (rows.length)
      await tx.insert(
        TablePermission,
        rows.map((r) => ({ ...r, group_id: groupId, db_id: dbId })),
      );
  }

  /** The active tables of these databases (all of them when no ids are given), by id. */
  async tables(dbIds?: number[]): Promise<PermissionTable[]> {
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT id, db_id, schema, name FROM metabase_table
        WHERE ${and(sql`active = ${true}`, dbIds !== undefined && inList(raw('db_id'), dbIds))} ORDER BY id`,
    );
    return typedRows<PermissionTable>(rows, { numbers: ['id', 'db_id'] });
  }

  /** The names of these tables, for refusals that name them. */
  async tableNames(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<Record<string, unknown>>(sql`SELECT id, name FROM metabase_table WHERE ${inList(raw('id'), ids)}`);
    return new Map(typedRows<{ id: number; name: string }>(rows, { numbers: ['id'] }).map((r) => [r.id, r.name]));
  }

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * The revision of the permissions graph, read from the app DB each time: a cached copy would let an instance
   * accept an edit based on a graph that another instance has changed since.
   */
  async revision(tx: EntityManager = this.db.manager): Promise<number> {
    const row = await tx.findOneBy(Setting, { key: REVISION_KEY });
    return Number(row?.value ?? 0);
  }

  /** Moves the revision from `expected` to the next one, atomically; false when another edit got there first. */
  async bumpRevision(expected: number, tx: EntityManager): Promise<boolean> {
    await tx.createQueryBuilder().insert().into(Setting).values({ key: REVISION_KEY, value: '0' }).orIgnore().execute();
    const result = await tx
      .createQueryBuilder()
      .update(Setting)
      .set({ value: String(expected + 1) })
      .where('key = :key AND value = :expected', { key: REVISION_KEY, expected: String(expected) })
      .execute();
    return result.affected === 1;
  }
}

/** Folds grants into the best access per database. Native SQL and downloads count only together with data access. */
export function bestAccess(perms: Grant[]): Map<number, Access> {
  const out = new Map<number, Access>();
  for (const p of perms) {
    const prev = out.get(p.db_id) ?? { data: 'no', native: 'none', download: 'none' };
    const withData = p.data === 'unrestricted';
    out.set(p.db_id, {
      data: prev.data === 'unrestricted' || withData ? 'unrestricted' : 'no',
      native: prev.native === 'write' || (p.native === 'write' && withData) ? 'write' : 'none',
      download: withData ? mostGenerousDownload(prev.download, p.download) : prev.download,
    });
  }
  return out;
}

function mostGenerousDownload(a: DownloadAccess, b: DownloadAccess): DownloadAccess {
  return DOWNLOAD_ORDER.indexOf(a) >= DOWNLOAD_ORDER.indexOf(b) ? a : b;
}
