import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { In } from 'typeorm';
import { AppLogger } from '../../common/logging/app-logger';
import { QueryError, QueryTimeoutError } from '../../query-engine/execute/drivers/errors';
import { requestContext } from '../../common/logging/request-context';
import { WarehouseDatabase } from '../../schema/database.entity';
import { FieldValues } from '../../schema/field-values.entity';
import { WarehouseField } from '../../schema/field.entity';
import { WarehouseTable } from '../../schema/table.entity';
import { WarehouseConnections } from '../warehouse';
import { MetricsService } from '../observability';
import { fingerprintTable, readFieldValues } from './analyze';
import { applyDescribed } from './metadata-sync';
import { SyncKind } from '../../schema/sync-run.entity';
import { SyncRepository } from './sync.repository';

/** A table by where the warehouse has it (schema null where the engine has none, as sync records it). */
export interface TableName {
  schema: string | null;
  name: string;
}

/** A statement that failed on one table or field (not a lost connection): skipped, the sync goes on. */
function skippable(e: unknown): boolean {
  return e instanceof QueryError || e instanceof QueryTimeoutError;
}

/** A lease outlives any sync we expect; a crashed instance's lease simply expires. */
const LEASE_MS = 30 * 60_000;

/**
 * Learns the structure of warehouses: tables and fields (metadata), fingerprints and semantic types (analysis),
 * and the value lists of low-cardinality fields. Every run takes the database's lease, so two instances never
 * sync one database at once, and is logged as a sync_run.
 */
@Injectable()
export class SyncService {
  readonly instanceId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  /** The sync of each database running in this instance (one at a time: the lease is not re-entrant in practice). */
  private readonly running = new Map<number, { kind: SyncKind; job: Promise<boolean> }>();

  constructor(
    private readonly repo: SyncRepository,
    private readonly connections: WarehouseConnections,
    @Inject(AppLogger) private readonly logger: AppLogger,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  /** Starts a sync without waiting for it; errors end up in the sync log. */
  inBackground(dbId: number, kind: SyncKind, only?: TableName): void {
    void requestContext
      .run({ requestId: `sync-${dbId}-${kind}` }, () => this.run(dbId, kind, only))
      .catch((e: unknown) => this.logger.error('Sync could not start', { db_id: dbId, kind, err: e }));
  }

  /**
   * Runs a sync now; false when another instance (or this one) is already syncing the database. `metadata`
   * also fingerprints and refreshes value lists; `field-values` refreshes value lists only.
   */
  run(dbId: number, kind: SyncKind, only?: TableName): Promise<boolean> {
    // A second sync of one database here would share this instance's lease, and the first to end would release
    // it while the other still runs. A value scan asked for during a metadata sync joins it (that refreshes values too).
    const existing = this.running.get(dbId);
    if (existing) return existing.kind === kind || existing.kind === 'metadata' ? existing.job : Promise.resolve(false);
    const job = this.runOnce(dbId, kind, only).finally(() => this.running.delete(dbId));
    this.running.set(dbId, { kind, job });
    return job;
  }

  /**
   * `only` (a metadata sync for one new table, e.g. an upload's): the database's tables and fields are still read
   * and recorded (one catalog query), but only that table is fingerprinted and has its values read.
   */
  private async runOnce(dbId: number, kind: SyncKind, only?: TableName): Promise<boolean> {
    if (!(await this.repo.claimLease(dbId, this.instanceId, LEASE_MS))) return false;
    const run = await this.repo.startRun(dbId, kind, this.instanceId);
    const started = Date.now();
    try {
      const db = await this.repo.findDatabase(dbId);
      if (!db) return false;
      const summary = kind === 'metadata' ? await this.syncMetadata(db, only) : await this.refreshValues(db);
      await this.repo.endRun(run, null, summary);
      this.logger.info('Sync finished', { db_id: dbId, kind, ms: Date.now() - started, ...summary });
      this.metrics?.syncRan(kind, 'succeeded', Date.now() - started);
      return true;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      await this.repo.endRun(run, message, null).catch(() => undefined);
      await this.repo
        .transaction((tx) =>
          tx.update(WarehouseDatabase, { id: dbId, initial_sync_status: 'incomplete' }, { initial_sync_status: 'aborted' }),
        )
        .catch(() => undefined);
      this.logger.warning('Sync failed', { db_id: dbId, kind, error: message });
      this.metrics?.syncRan(kind, 'failed', Date.now() - started);
      return false;
    } finally {
      await this.repo.releaseLease(dbId, this.instanceId).catch(() => undefined);
    }
  }

  private async syncMetadata(db: WarehouseDatabase, only?: TableName): Promise<Record<string, number>> {
    const driver = this.connections.driverFor(db);
    const described = await driver.describe();
    const summary = await this.repo.transaction((tx) => applyDescribed(tx, db.id, described));
    const tables = (await this.repo.tables(db.id)).filter(
      (t) => t.active && (!only || ((t.schema ?? null) === only.schema && t.name === only.name)),
    );
    const analyzed = await this.analyze(db, tables);
    const values = only
      ? await this.refreshValues(
          db,
          (await this.repo.fields(tables.map((t) => t.id))).map((f) => f.id),
        )
      : await this.refreshValues(db);
    await this.repo.transaction((tx) =>
      tx.update(
        WarehouseDatabase,
        { id: db.id },
        { initial_sync_status: 'complete', last_metadata_sync_at: new Date(), last_field_values_at: new Date() },
      ),
    );
    return { ...summary, ...analyzed, ...values };
  }

  /** Fingerprints the tables (active ones of the database); each table's results are written in one transaction. */
  private async analyze(db: WarehouseDatabase, tables: WarehouseTable[]): Promise<Record<string, number>> {
    const driver = this.connections.driverFor(db);
    const fields = await this.repo.fields(tables.map((t) => t.id));
    let analyzedFields = 0;
    let failedTables = 0;
    for (const table of tables) {
      const own = fields.filter((f) => f.table_id === table.id && f.active);
      if (own.length === 0) continue;
      let result: Awaited<ReturnType<typeof fingerprintTable>>;
      try {
        result = await fingerprintTable(driver, table, own);
      } catch (e) {
        // One table (typically a view) that cannot be read must not stop the others from being analyzed.
        if (!skippable(e)) throw e;
        failedTables++;
        this.logger.warning('Could not analyze a table', { db_id: db.id, table_id: table.id, error: (e as Error).message });
        continue;
      }
      await this.repo.transaction(async (tx) => {
        await tx.update(WarehouseTable, { id: table.id }, { estimated_row_count: result.rowCount });
        for (const a of result.fields) {
          await tx.update(
            WarehouseField,
            { id: a.fieldId },
            {
              fingerprint: a.fingerprint,
              has_field_values: a.hasFieldValues,
              last_analyzed: new Date(),
              ...(a.semanticType ? { semantic_type: a.semanticType } : {}),
            },
          );
        }
      });
      analyzedFields += result.fields.length;
    }
    return { fields_analyzed: analyzedFields, ...(failedTables ? { tables_not_analyzed: failedTables } : {}) };
  }

  /** Re-reads the value lists of list fields (never sensitive ones), keeping human-readable remappings of values that remain. */
  async refreshValues(db: WarehouseDatabase, onlyFieldIds?: number[]): Promise<Record<string, number>> {
    const driver = this.connections.driverFor(db);
    const tables = new Map((await this.repo.tables(db.id)).filter((t) => t.active).map((t) => [t.id, t]));
    const all = (await this.repo.fields([...tables.keys()])).filter((f) => !onlyFieldIds || onlyFieldIds.includes(f.id));
    // A sensitive field's values are never stored; any left from before it was marked are dropped.
    await this.discardValues(all.filter((f) => f.visibility_type === 'sensitive').map((f) => f.id));
    const fields = all.filter((f) => f.active && f.visibility_type !== 'sensitive' && ['auto-list', 'list'].includes(f.has_field_values));
    const existing = new Map((await this.repo.fieldValues(fields.map((f) => f.id))).map((v) => [v.field_id, v]));
    let failed = 0;
    for (const field of fields) {
      let read: Awaited<ReturnType<typeof readFieldValues>>;
      try {
        read = await readFieldValues(driver, tables.get(field.table_id)!, field);
      } catch (e) {
        if (!skippable(e)) throw e;
        failed++;
        this.logger.warning('Could not read the values of a field', { db_id: db.id, field_id: field.id, error: (e as Error).message });
        continue;
      }
      const { values, hasMore } = read;
      const old = existing.get(field.id);
      const remap = old?.human_readable_values
        ? new Map(old.values.map((v, i) => [JSON.stringify(v), old.human_readable_values![i]]))
        : undefined;
      const human = remap ? values.map((v) => remap.get(JSON.stringify(v)) ?? String(v)) : null;
      await this.repo.transaction((tx) =>
        tx.upsert(FieldValues, { field_id: field.id, values: values as never[], human_readable_values: human, has_more_values: hasMore }, [
          'field_id',
        ]),
      );
    }
    await this.repo.transaction((tx) => tx.update(WarehouseDatabase, { id: db.id }, { last_field_values_at: new Date() }));
    return { field_values_scanned: fields.length - failed, ...(failed ? { field_values_failed: failed } : {}) };
  }

  /** Forgets stored value lists (they come back at the next scan). */
  async discardValues(fieldIds: number[]): Promise<void> {
    if (fieldIds.length === 0) return;
    await this.repo.transaction((tx) => tx.delete(FieldValues, { field_id: In(fieldIds) }));
  }
}
