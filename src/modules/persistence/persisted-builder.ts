import { Inject, Injectable } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { AppLogger } from '../../common/logging/app-logger';
import type { Engine } from '../../query-engine/execute/drivers/driver';
import { DatasetService, type DatasetStream } from '../dataset';
import type { WarehouseDatabase } from '../../schema/database.entity';
import { openDetails, WarehouseConnections } from '../warehouse';
import { duckdbWriter } from './duckdb-writer';
import {
  bindValue,
  createSchemaSql,
  createTableSql,
  dropSchemaSql,
  dropTableSql,
  firstPlaceSql,
  insertSql,
  PersistColumn,
  PersistEngine,
  rowsPerInsert,
  swapSql,
} from './persisted-ddl';
import { buildingTableName, oldTableName, uniqueColumnNames } from './persisted-names';
import { mysqlWriter, postgresWriter, WarehouseWriteError, type WarehouseWriter } from './warehouse-writer';

/** Rows a persisted model holds at most (a model that big belongs in the warehouse's own tables). */
export const MAX_PERSISTED_ROWS = 50_000_000;

/** What a build needs to know. */
export interface BuildTarget {
  cardId: number;
  db: WarehouseDatabase & { engine: PersistEngine };
  schema: string;
  table: string;
  /** The model's dataset_query, as stored. */
  query: unknown;
  /** Whether the table exists already (a refresh): it is swapped, not just renamed into place. */
  replacing: boolean;
}

export interface BuildOutcome {
  columns: Array<PersistColumn & { display_name: string }>;
  rows: number;
}

/** A build failed: the message says why, for the persisted_info row and the 400. */
export class BuildError extends Error {}

/**
 * Builds a persisted model's table: runs the model's query (through the query engine, like any run of it), writes
 * the rows into `<table>_new` in batches of bound parameters, then swaps that table in (persisted-ddl.ts swapSql),
 * so that readers never see a half-written table. On any failure the new table is dropped and the old one stays.
 */
@Injectable()
export class PersistedBuilder {
  constructor(
    private readonly dataset: DatasetService,
    private readonly connections: WarehouseConnections,
    private readonly secrets: SecretBox,
    @Inject(AppLogger) private readonly logger: AppLogger,
  ) {}

  async build(target: BuildTarget): Promise<BuildOutcome> {
    const { db, schema, cardId } = target;
    const engine = db.engine;
    const building = buildingTableName(cardId);
    const writer = await this.open(db);
    try {
      await this.ensureSchema(writer, engine, schema);
      await writer.run(dropTableSql(engine, schema, building));
      const outcome = await this.fill(writer, target, building);
      if (target.replacing) {
        const swap = swapSql(engine, schema, building, target.table, oldTableName(cardId));
        await writer.run(dropTableSql(engine, schema, oldTableName(cardId)));
        await writer.transaction(swap.transaction);
        for (const s of swap.after) await writer.run(s);
      } else {
        await writer.run(dropTableSql(engine, schema, target.table));
        await writer.run(firstPlaceSql(engine, schema, building, target.table));
      }
      return outcome;
    } catch (e) {
      await writer.run(dropTableSql(engine, schema, building)).catch(() => undefined);
      throw e instanceof BuildError ? e : new BuildError(message(e));
    } finally {
      await this.done(db, writer);
    }
  }

  /** Drops a model's table (and what a build left behind). */
  async drop(db: WarehouseDatabase & { engine: PersistEngine }, schema: string, cardId: number, table: string): Promise<void> {
    const writer = await this.open(db);
    try {
      for (const t of [table, buildingTableName(cardId), oldTableName(cardId)]) await writer.run(dropTableSql(db.engine, schema, t));
    } finally {
      await this.done(db, writer);
    }
  }

  /** Drops the database's cache schema with every table in it. */
  async dropSchema(db: WarehouseDatabase & { engine: PersistEngine }, schema: string): Promise<void> {
    const writer = await this.open(db);
    try {
      await writer.run(dropSchemaSql(db.engine, schema));
    } finally {
      await this.done(db, writer);
    }
  }

  /**
   * Closes the writer. DuckDB: the read-only handle that the model's query opened meanwhile (a DuckDB instance does
   * not see another instance's writes) is closed too, so the next query opens the file as written.
   */
  private async done(db: WarehouseDatabase, writer: WarehouseWriter): Promise<void> {
    await writer.close();
    if (db.engine === 'duckdb') await this.connections.evict(db.id);
  }

  private async open(db: WarehouseDatabase & { engine: PersistEngine }): Promise<WarehouseWriter> {
    const details = this.connections.validate(db.engine as Engine, openDetails(db.details, this.secrets));
    try {
      if (db.engine === 'postgres') return await postgresWriter(details as never);
      if (db.engine === 'mysql') return await mysqlWriter(details as never);
      // DuckDB: one process may hold a file read-write only when no read-only handle of ours is open on it.
      await this.connections.evict(db.id);
      return await duckdbWriter(details as never);
    } catch (e) {
      throw new BuildError(`Could not connect to the database to write the persisted model: ${message(e)}`);
    }
  }

  /** The cache schema, created when missing; a missing right is said in plain words. */
  private async ensureSchema(writer: WarehouseWriter, engine: PersistEngine, schema: string): Promise<void> {
    try {
      await writer.run(createSchemaSql(engine, schema));
    } catch (e) {
      if (isMissingRight(e)) {
        const right =
          engine === 'mysql'
            ? `the CREATE privilege on the database \`${schema}\``
            : `the CREATE privilege on the database (to create schema "${schema}") or CREATE on that schema`;
        throw new BuildError(
          `The database user may not create the schema "${schema}" for persisted models: it needs ${right}. (${message(e)})`,
        );
      }
      throw e;
    }
  }

  /** Runs the model's query and writes its rows into `building`. */
  private async fill(writer: WarehouseWriter, target: BuildTarget, building: string): Promise<BuildOutcome> {
    const { db, schema } = target;
    const engine = db.engine;
    const controller = new AbortController();
    const answer = await this.dataset.stream(
      target.query,
      { shared: { via: 'embed', model: 'card', id: target.cardId } },
      controller.signal,
      {
        context: 'persisted-model',
        cardId: target.cardId,
        defaultMaxRows: MAX_PERSISTED_ROWS,
      },
    );
    if (answer.status !== 'streaming') {
      if (answer.status === 'failed') throw new BuildError(`The model's query failed: ${answer.error}`);
      // A cached answer cannot happen (no cache TTL is given).
      throw new BuildError("The model's query gave no rows to write.");
    }
    const stream = answer as DatasetStream;
    let rows = 0;
    try {
      const cols = stream.head.data.cols;
      const names = uniqueColumnNames(cols.map((c) => c.name));
      const columns = cols.map((c, i) => ({ name: names[i], base_type: c.base_type ?? 'type/*', display_name: c.display_name ?? c.name }));
      try {
        await writer.run(createTableSql(engine, schema, building, columns));
      } catch (e) {
        if (isMissingRight(e))
          throw new BuildError(
            `The database user may not create tables in the schema "${schema}":` +
              ` it needs the CREATE privilege on that schema. (${message(e)})`,
          );
        throw e;
      }
      const per = rowsPerInsert(columns.length);
      let pending: unknown[][] = [];
      const flush = async (all: unknown[][]) => {
        if (!all.length) return;
        const params = all.flatMap((r) => columns.map((c, i) => bindValue(engine, c, r[i])));
        await writer.run(insertSql(engine, schema, building, columns, all.length), params);
      };
      for await (const batch of stream.rows) {
        for (const row of batch) {
          pending.push(row);
          if (pending.length === per) {
            await flush(pending);
            rows += pending.length;
            pending = [];
          }
        }
      }
      await flush(pending);
      rows += pending.length;
      const failure = stream.outcome().failure;
      if (failure) throw new BuildError(`The model's query failed: ${failure.error}`);
      this.logger.info('Persisted model built', { card_id: target.cardId, rows });
      return { columns, rows };
    } finally {
      await stream.close().catch(() => undefined);
    }
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Postgres 42501 insufficient_privilege; MySQL 1044 (database access denied), 1142 (command denied). */
function isMissingRight(e: unknown): boolean {
  return (
    e instanceof WarehouseWriteError &&
    ['42501', 'ER_DBACCESS_DENIED_ERROR', 'ER_TABLEACCESS_DENIED_ERROR', '1044', '1142'].includes(e.code ?? '')
  );
}
