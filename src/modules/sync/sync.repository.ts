import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, LessThan } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { WarehouseDatabase } from '../../schema/database.entity';
import { FieldValues } from '../../schema/field-values.entity';
import { WarehouseField } from '../../schema/field.entity';
import { WarehouseTable } from '../../schema/table.entity';
import { SyncKind, SyncRun } from '../../schema/sync-run.entity';

/** Sync runs kept per database: weeks of hourly syncs, more than the sync log shows. */
export const KEPT_SYNC_RUNS = 500;

@Injectable()
export class SyncRepository {
  private readonly sql: AppSql;

  constructor(private readonly db: DataSource) {
    this.sql = new AppSql(db);
  }

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  findDatabase(id: number): Promise<WarehouseDatabase | null> {
    return this.db.manager.findOneBy(WarehouseDatabase, { id });
  }

  allDatabases(): Promise<WarehouseDatabase[]> {
    return this.db.manager.find(WarehouseDatabase);
  }

  tables(dbId: number, tx: EntityManager = this.db.manager): Promise<WarehouseTable[]> {
    return tx.find(WarehouseTable, { where: { db_id: dbId } });
  }

  fields(tableIds: number[], tx: EntityManager = this.db.manager): Promise<WarehouseField[]> {
    if (tableIds.length === 0) return Promise.resolve([]);
    return tx.find(WarehouseField, { where: { table_id: In(tableIds) }, order: { database_position: 'ASC' } });
  }

  fieldValues(fieldIds: number[]): Promise<FieldValues[]> {
    if (fieldIds.length === 0) return Promise.resolve([]);
    return this.db.manager.find(FieldValues, { where: { field_id: In(fieldIds) } });
  }

  /**
   * Takes (or renews) the sync lease of a database for `holder`. Only one instance holds a database's lease at a
   * time, so a scheduled sync runs once however many instances share the app DB.
   */
  async claimLease(dbId: number, holder: string, ttlMs: number): Promise<boolean> {
    const now = new Date();
    const changed = await this.sql.execute(
      `UPDATE metabase_database SET sync_lease_holder = $1, sync_lease_until = $2
        WHERE id = $3 AND (sync_lease_until IS NULL OR sync_lease_until < $4 OR sync_lease_holder = $5)`,
      [holder, new Date(now.getTime() + ttlMs), dbId, now, holder],
    );
    return changed === 1;
  }

  async releaseLease(dbId: number, holder: string): Promise<void> {
    await this.db.manager
      .createQueryBuilder()
      .update(WarehouseDatabase)
      .set({ sync_lease_holder: null, sync_lease_until: null })
      .where('id = :id AND sync_lease_holder = :holder', { id: dbId, holder })
      .execute();
  }

  async startRun(dbId: number, kind: SyncKind, instance: string): Promise<SyncRun> {
    return this.db.manager.save(SyncRun, {
      db_id: dbId,
      kind,
      status: 'running',
      instance,
      started_at: new Date(),
      ended_at: null,
      error: null,
      summary: null,
    });
  }

  /** Ends a run and forgets the database's runs older than the latest `keep` (hourly syncs would pile up forever). */
  async endRun(run: SyncRun, error: string | null, summary: Record<string, number> | null, keep = KEPT_SYNC_RUNS): Promise<void> {
    await this.db.manager.update(SyncRun, { id: run.id }, { status: error ? 'failed' : 'succeeded', ended_at: new Date(), error, summary });
    const [oldestKept] = await this.db.manager.find(SyncRun, {
      where: { db_id: run.db_id },
      order: { id: 'DESC' },
      skip: keep - 1,
      take: 1,
    });
    if (oldestKept) await this.db.manager.delete(SyncRun, { db_id: run.db_id, id: LessThan(oldestKept.id) });
  }

  /** The start of the latest run of each kind, for the kinds whose latest run failed. */
  async failedAttempts(dbId: number): Promise<Partial<Record<SyncKind, Date>>> {
    const out: Partial<Record<SyncKind, Date>> = {};
    for (const kind of ['metadata', 'field-values'] as const) {
      const last = await this.db.manager.findOne(SyncRun, { where: { db_id: dbId, kind }, order: { id: 'DESC' } });
      if (last?.status === 'failed') out[kind] = last.started_at;
    }
    return out;
  }

  recentRuns(dbId: number, limit = 20): Promise<SyncRun[]> {
    return this.db.manager.find(SyncRun, { where: { db_id: dbId }, order: { id: 'DESC' }, take: limit });
  }
}
