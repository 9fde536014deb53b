import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { GrantsCache } from '../../common/cache/grants-cache';
import { Impersonation } from '../../schema/impersonation.entity';

/** The `impersonation` table. */
@Injectable()
export class ImpersonationRepository {
  constructor(
    private readonly db: DataSource,
    private readonly cache: GrantsCache,
  ) {}

  all(): Promise<Impersonation[]> {
    return this.db.manager.find(Impersonation, { order: { id: 'ASC' } });
  }

  byId(id: number): Promise<Impersonation | null> {
    return this.db.manager.findOneBy(Impersonation, { id });
  }

  byGroupAndDb(groupId: number, dbId: number, tx: EntityManager = this.db.manager): Promise<Impersonation | null> {
    return tx.findOneBy(Impersonation, { group_id: groupId, db_id: dbId });
  }

  /** Read on every query a user without admin rights runs: kept by groups (GrantsCache). */
  forGroups(groupIds: number[], dbId: number): Promise<Impersonation[]> {
    if (!groupIds.length) return Promise.resolve([]);
    return this.cache.of('impersonations', groupIds, dbId, () =>
      this.db.manager.find(Impersonation, { where: { group_id: In(groupIds), db_id: dbId }, order: { id: 'ASC' } }),
    );
  }

  /** The group's policy on the database becomes this one (Metabase replaces an existing policy for the pair). */
  async replace(groupId: number, dbId: number, attribute: string, tx: EntityManager): Promise<void> {
    const found = await this.byGroupAndDb(groupId, dbId, tx);
    if (found) await tx.update(Impersonation, { id: found.id }, { attribute });
    else await tx.insert(Impersonation, { group_id: groupId, db_id: dbId, attribute });
  }

  async removeFor(groupId: number, dbId: number, tx: EntityManager): Promise<void> {
    await tx.delete(Impersonation, { group_id: groupId, db_id: dbId });
  }

  async remove(id: number): Promise<void> {
    await this.db.manager.delete(Impersonation, { id });
  }
}
