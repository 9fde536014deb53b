import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuthUser } from '../../common/auth/current-user';
import { SecretBox } from '../../common/crypto/secret-box';
import { ApiError, ForbiddenError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { FileDetails, ServerDetails } from '../../query-engine/execute/drivers';
import { CardAccessService, CardsService, type CreateCardDto } from '../cards';
import { WarehouseDatabase } from '../../schema/database.entity';
import { SettingsService, UPLOAD_ENGINES, UploadsSettings } from '../settings';
import { SyncService } from '../sync';
import { openDetails, WarehouseConnections } from '../warehouse';
import { analyzeCsv, csvRows, type CsvAnalysis } from './csv-analysis';
import { checkAppendColumns } from './append-check';
import { RowRejectedError, type BulkLoader, type RawCsv, type TableTarget } from './loaders/bulk-loader';
import { MysqlLoader } from './loaders/mysql-loader';
import { PostgresLoader } from './loaders/postgres-loader';
import { ROW_ID } from './column-types';
import { modelName, tableName } from './upload-names';
import { UploadsRepository, UploadTableRow } from './uploads.repository';

/** A file multer stored under a random name in the upload temp folder; the client's name is only used sanitized. */
export interface UploadedCsv {
  path: string;
  originalname: string;
}

const DEFAULT_SCHEMA: Record<string, string | null> = { postgres: 'public', duckdb: 'main', mysql: null };

/**
 * CSV uploads: a file becomes a table in the upload database (created and filled in one transaction), is synced,
 * marked as an upload, and gets a model in the chosen collection. Tables made so can then be appended to,
 * replaced, or deleted.
 */
@Injectable()
export class UploadsService {
  constructor(
    private readonly repo: UploadsRepository,
    private readonly settings: SettingsService,
    private readonly connections: WarehouseConnections,
    private readonly secrets: SecretBox,
    private readonly sync: SyncService,
    private readonly cards: CardsService,
    private readonly cardAccess: CardAccessService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Creates the table and its model; answers the model's id. */
  async fromCsv(caller: AuthUser, file: UploadedCsv, collectionId: number | null): Promise<number> {
    const { db, settings } = await this.uploadDatabase();
    await this.assertMayUpload(caller, db.id);
    await this.cardAccess.assertWriteCollection(caller, collectionId);
    const analysis = await analyzeCsv(file.path);
    const target: TableTarget = {
      // MySQL tables live in the connected database, which sync records as no schema.
      schema: db.engine === 'mysql' ? null : settings.schema_name || DEFAULT_SCHEMA[db.engine],
      table: tableName(settings.table_prefix, file.originalname, new Date()),
    };
    const loader = await this.loaderFor(db);
    await loadOrExplain(() =>
      loader.create(target, analysis.columns, analysis.pk, csvRows(file.path, analysis), rawCsv(file, analysis)),
    ).finally(() => this.written(db));
    try {
      const table = await this.syncUntilFound(db.id, target);
      await this.repo.markUpload(table.id);
      const body = {
        name: modelName(file.originalname),
        display: 'table',
        visualization_settings: {},
        dataset_query: { database: db.id, type: 'query', query: { 'source-table': table.id } },
        type: 'model',
        collection_id: collectionId,
      } as CreateCardDto;
      const card = (await this.cards.create(caller, body)) as { id: number };
      return card.id;
    } catch (e) {
      // The table without its model would be an orphan nobody asked for.
      await loader.drop(target).catch(() => undefined);
      await this.written(db);
      throw e;
    }
  }

  /** Adds the file's rows to a table an upload made (after deleting its rows when `replace`). */
  async appendCsv(caller: AuthUser, tableId: number, file: UploadedCsv, replace: boolean): Promise<void> {
    const { table, db } = await this.uploadTable(caller, tableId);
    const analysis = await analyzeCsv(file.path);
    const fields = (await this.repo.fields(table.id)).filter((f) => f.name !== ROW_ID);
    const columns = checkAppendColumns(fields, analysis);
    const loader = await this.loaderFor(db);
    await loadOrExplain(() =>
      loader.append({ schema: table.schema, table: table.name }, columns, csvRows(file.path, analysis), replace, rawCsv(file, analysis)),
    ).finally(() => this.written(db));
    this.sync.inBackground(db.id, 'metadata', { schema: table.schema, name: table.name });
  }

  /** Drops a table an upload made and archives the models built on it. */
  async deleteTable(caller: AuthUser, tableId: number, archiveModels: boolean): Promise<void> {
    const { table, db } = await this.uploadTable(caller, tableId);
    const loader = await this.loaderFor(db);
    await loader.drop({ schema: table.schema, table: table.name }).finally(() => this.written(db));
    await this.repo.deactivateTable(table.id);
    if (archiveModels) await this.repo.archiveCards(await this.repo.modelIds(table.id));
  }

  private async uploadTable(caller: AuthUser, tableId: number): Promise<{ table: UploadTableRow; db: WarehouseDatabase }> {
    const table = await this.repo.table(tableId);
    if (!table || !table.active) throw new NotFoundError();
    const db = await this.repo.database(table.db_id);
    if (!db) throw new NotFoundError();
    await this.assertMayUpload(caller, db.id);
    if (!table.is_upload) throw new MessageError('The table must be an uploaded table.');
    if (!UPLOAD_ENGINES.includes(db.engine)) throw new MessageError(`Uploads are not supported on ${db.engine} databases.`);
    return { table, db };
  }

  private async uploadDatabase(): Promise<{ db: WarehouseDatabase; settings: UploadsSettings }> {
    const settings = await this.settings.get<UploadsSettings | null>('uploads-settings');
    if (!settings || settings.db_id === null || settings.db_id === undefined)
      throw new MessageError('The uploads database is not configured.');
    const db = await this.repo.database(settings.db_id);
    if (!db) throw new MessageError('The uploads database does not exist.');
    if (!UPLOAD_ENGINES.includes(db.engine)) throw new MessageError(`Uploads are not supported on ${db.engine} databases.`);
    return { db, settings };
  }

  private async assertMayUpload(caller: AuthUser, dbId: number): Promise<void> {
    if (caller.isSuperuser) return;
    if (!(await this.repo.mayUpload(caller.groupIds, dbId))) throw new ForbiddenError();
  }

  /**
   * After a write to a DuckDB file: an instance of it opened meanwhile (a background sync's, a query's) read the file
   * as it was before, and would keep answering from that; closed, so that the next query opens the file afresh.
   */
  private async written(db: WarehouseDatabase): Promise<void> {
    if (db.engine === 'duckdb') await this.connections.evict(db.id);
  }

  private async loaderFor(db: WarehouseDatabase): Promise<BulkLoader> {
    const details = this.connections.validate(db.engine, openDetails(db.details, this.secrets));
    switch (db.engine) {
      case 'postgres':
        return new PostgresLoader(details as ServerDetails);
      case 'mysql':
        return new MysqlLoader(details as ServerDetails);
      case 'duckdb':
        // The server's instance of the file is read-only; it is closed so that this one may write, and reopens on the next query.
        await this.connections.evict(db.id);
        // Loaded here: DuckDB's library is not loaded at start-up.
        return new (await import('./loaders/duckdb-loader')).DuckDbLoader(details as FileDetails, {
          memoryLimit: this.config.duckdbMemoryLimit,
          threads: this.config.duckdbThreads,
        });
      default:
        throw new MessageError(`Uploads are not supported on ${db.engine} databases.`);
    }
  }

  /** Syncs the database until the new table shows (a sync already running may have started before it existed). */
  private async syncUntilFound(dbId: number, target: TableTarget): Promise<UploadTableRow> {
    for (let attempt = 0; attempt < 5; attempt++) {
      await this.sync.run(dbId, 'metadata', { schema: target.schema, name: target.table });
      const table = await this.repo.findTable(dbId, target.schema, target.table);
      if (table) return table;
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
    }
    throw new MessageError('The uploaded table was created but could not be synced; try again later.', 500);
  }
}

/** The file for loaders that take it unparsed (each decides from `tidy` whether it can). */
function rawCsv(file: UploadedCsv, analysis: CsvAnalysis): RawCsv {
  return {
    file: file.path,
    encoding: analysis.format.encoding,
    skipBytes: analysis.format.skipBytes,
    delimiter: analysis.format.delimiter,
    tidy: analysis.tidy,
  };
}

/** MySQL's errors for a table over its row size or column count (their SQLSTATEs, 42000 and HY000, say less). */
const TABLE_LIMIT_ERRORS = new Set(['ER_TOO_BIG_ROWSIZE', 'ER_TOO_MANY_FIELDS']);

/**
 * A value the warehouse refused (SQLSTATE classes 22 and 23, DuckDB's conversion and constraint errors) is the
 * file's fault: 400 with the database's message. So is a table the warehouse cannot hold (class 54, e.g. Postgres's
 * "row is too big"; MySQL's row size and column count limits). Anything else stays an error of ours.
 */
async function loadOrExplain<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    const err = e as { code?: unknown; sqlState?: unknown; message?: string };
    const state = String(err.sqlState ?? err.code ?? '');
    const message = String(err.message ?? e).split('\n')[0];
    const tooBig = /^54/.test(state) || TABLE_LIMIT_ERRORS.has(String(err.code ?? ''));
    if (e instanceof RowRejectedError || tooBig || /^2[23]/.test(state) || /^(Conversion|Constraint|Invalid Input) Error/.test(message)) {
      throw new MessageError(`The CSV file could not be loaded: ${message}`);
    }
    throw e;
  }
}
