import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError } from '../../common/errors/api-errors';
import { Access, bestAccess, DatabasePermissionsRepository } from './database-permissions.repository';
import { isPerTable, levelsOf, TableAccess } from './table-access';

const FULL: Access = { data: 'unrestricted', native: 'write', download: 'full' };
const NONE: Access = { data: 'no', native: 'none', download: 'none' };

/** What a caller may do with a database's data. Admins may do everything; others get their groups' best grant. */
@Injectable()
export class DatabaseAccessService {
  constructor(private readonly perms: DatabasePermissionsRepository) {}

  async accessMap(user: AuthUser): Promise<Map<number, Access> | 'all'> {
    if (user.isSuperuser) return 'all';
    return bestAccess(await this.perms.forGroups(user.groupIds));
  }

  async accessTo(user: AuthUser, dbId: number): Promise<Access> {
    if (user.isSuperuser) return FULL;
    return bestAccess(await this.perms.forGroups(user.groupIds, dbId)).get(dbId) ?? NONE;
  }

  /** The caller's access to each table of a database (Metabase's view-data, create-queries, download per table). */
  async tableAccess(user: AuthUser, dbId: number): Promise<TableAccess> {
    if (user.isSuperuser) return TableAccess.full();
    const grants = await this.perms.levelGrants(user.groupIds, dbId);
    return new TableAccess(grants.map((g) => levelsOf(g.grant, g.tables)));
  }

  /** The tables the caller may view (table-level `view-data`): listings leave the blocked ones out. */
  async viewableTables<T extends { id: number; db_id: number }>(user: AuthUser, tables: T[]): Promise<T[]> {
    if (user.isSuperuser || tables.length === 0) return tables;
    const byDb = new Map<number, TableAccess>();
    for (const dbId of new Set(tables.map((t) => t.db_id))) byDb.set(dbId, await this.tableAccess(user, dbId));
    return tables.filter((t) => byDb.get(t.db_id)!.viewData(t.id) === 'unrestricted');
  }

  /**
   * Where the caller may view tables, for listings that filter in SQL (search): databases whose every table they
   * may view ('all' for admins), and tables viewable one by one elsewhere. Two statements, whatever the databases.
   */
  async viewScope(user: AuthUser): Promise<{ dbs: number[] | 'all'; tables: number[] }> {
    if (user.isSuperuser) return { dbs: 'all', tables: [] };
    const whole = new Set<number>();
    const tables = new Set<number>();
    for (const g of await this.perms.levelGrantsIn(user.groupIds)) {
      const view = levelsOf(g.grant, g.tables).viewData;
      if (!isPerTable(view)) {
        if (view === 'unrestricted') whole.add(g.db_id);
      } else for (const [id, level] of view) if (level === 'unrestricted') tables.add(id);
    }
    return { dbs: [...whole], tables: [...tables] };
  }

  async assertCanRead(user: AuthUser, dbId: number): Promise<void> {
    if ((await this.accessTo(user, dbId)).data !== 'unrestricted') throw new ForbiddenError();
  }

  async assertCanRunNative(user: AuthUser, dbId: number): Promise<void> {
    if ((await this.accessTo(user, dbId)).native !== 'write') throw new ForbiddenError();
  }
}

export function accessIn(map: Map<number, Access> | 'all', dbId: number): Access {
  return map === 'all' ? FULL : (map.get(dbId) ?? NONE);
}
