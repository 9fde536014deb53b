import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { ALL_USERS_GROUP_ID } from '../users/users.repository';
import { DataAccess, DatabasePermission, NativeAccess } from './database-permission.entity';

export interface Access {
  data: DataAccess;
  native: NativeAccess;
}

/** Per-group, per-database grants. A caller's access is the most generous grant among their groups. */
@Injectable()
export class DatabasePermissionsRepository {
  constructor(private readonly db: DataSource) {}

  /** New databases are open to All Users, as in Metabase; admins change that through the graph. */
  async grantDefault(dbId: number, tx: EntityManager): Promise<void> {
    await tx.insert(DatabasePermission, { group_id: ALL_USERS_GROUP_ID, db_id: dbId, data: 'unrestricted', native: 'write' });
  }

  async forGroups(groupIds: number[]): Promise<DatabasePermission[]> {
    if (groupIds.length === 0) return [];
    return this.db.manager.find(DatabasePermission, { where: { group_id: In(groupIds) } });
  }

  all(): Promise<DatabasePermission[]> {
    return this.db.manager.find(DatabasePermission, { order: { group_id: 'ASC', db_id: 'ASC' } });
  }

  async groupIds(): Promise<number[]> {
    const rows: Array<{ id: number }> = await this.db.query('SELECT id FROM permissions_group ORDER BY id');
    return rows.map((r) => Number(r.id));
  }

  async set(groupId: number, dbId: number, access: Access, tx: EntityManager): Promise<void> {
    await tx.upsert(DatabasePermission, { group_id: groupId, db_id: dbId, ...access }, ['group_id', 'db_id']);
  }

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}

/** Folds grants into the best access per database. */
export function bestAccess(perms: DatabasePermission[]): Map<number, Access> {
  const out = new Map<number, Access>();
  for (const p of perms) {
    const prev = out.get(p.db_id) ?? { data: 'no', native: 'none' };
    out.set(p.db_id, {
      data: prev.data === 'unrestricted' || p.data === 'unrestricted' ? 'unrestricted' : 'no',
      native: prev.native === 'write' || (p.native === 'write' && p.data === 'unrestricted') ? 'write' : 'none',
    });
  }
  return out;
}
