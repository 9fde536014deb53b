import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { describeReceived } from '../../common/errors/api-errors';
import { QueryProcessor, PlannedQuery } from '../../query-engine/execute/query-processor';
import { InvalidQueryError } from '../../query-engine/mbql/validate';
import { FailedResults, QueryResults } from '../../query-engine/postprocess/results';
import { WarehouseDatabase } from '../databases/database.entity';
import { SettingsService } from '../settings/settings.service';
import { DatabaseAccessService } from '../warehouse/database-access.service';
import { WarehouseConnections } from '../warehouse/warehouse-connections';
import { AppMetadataProvider } from './app-metadata.provider';
import { ENGINE_WIRING } from './engine-wiring';
import { contentResolver } from './content.resolver';
import { SnippetsService } from '../snippets/snippets.service';

/** Ad-hoc queries show at most this many rows unless their constraints say otherwise (Metabase's default). */
export const AD_HOC_MAX_ROWS = 2000;
export const QUERY_TIMEOUT_MS = 20 * 60_000;

/** Runs dataset queries for the HTTP layer: checks data and native permissions, then hands over to the engine. */
@Injectable()
export class DatasetService {
  constructor(
    private readonly db: DataSource,
    private readonly connections: WarehouseConnections,
    private readonly access: DatabaseAccessService,
    private readonly settings: SettingsService,
    private readonly snippets: SnippetsService,
  ) {}

  async run(body: unknown, caller: AuthUser, signal: AbortSignal, context = 'ad-hoc'): Promise<QueryResults | FailedResults> {
    const processor = await this.processor();
    let planned: PlannedQuery | null;
    try {
      planned = await processor.plan(assertQueryBody(body));
    } catch (e) {
      if (e instanceof InvalidQueryError) return invalid(e, body, context);
      throw e;
    }
    if (!planned) throw new NotFoundError();
    await this.assertMayRun(caller, planned);
    return processor.run(planned, { context, defaultMaxRows: AD_HOC_MAX_ROWS, timeoutMs: QUERY_TIMEOUT_MS, signal });
  }

  /** The SQL a query becomes, without running it. */
  async native(body: { database: number; query: unknown; pretty?: boolean }, caller: AuthUser) {
    const raw = isDatasetQuery(body.query) ? body.query : { database: body.database, type: 'query', query: body.query };
    const processor = await this.processor();
    const planned = await processor.plan(raw).catch((e: unknown) => {
      if (e instanceof InvalidQueryError) throw ValidationError.of('query', e.message, body.query);
      throw e;
    });
    if (!planned) throw new NotFoundError();
    await this.assertMayRun(caller, planned);
    return processor.toNative(planned, { pretty: body.pretty ?? false });
  }

  private async assertMayRun(caller: AuthUser, planned: PlannedQuery): Promise<void> {
    const access = await this.access.accessTo(caller, planned.database.id);
    if (access.data !== 'unrestricted') throw new ForbiddenError();
    if (planned.query.type === 'native' && access.native !== 'write') throw new ForbiddenError();
  }

  private async processor(): Promise<QueryProcessor> {
    const timezone = (await this.settings.get<string | null>('report-timezone')) || null;
    const metadata = new AppMetadataProvider(this.db, timezone);
    const content = contentResolver(this.snippets);
    return new QueryProcessor({
      metadata,
      content,
      database: async (id) => {
        const row = await this.db.manager.findOneBy(WarehouseDatabase, { id });
        return row ? { meta: { id: row.id, engine: row.engine, timezone }, driver: this.connections.driverFor(row) } : null;
      },
      ...ENGINE_WIRING(metadata, content),
    });
  }
}

function isDatasetQuery(q: unknown): q is Record<string, unknown> {
  return Boolean(q && typeof q === 'object' && 'type' in (q as object) && ('query' in (q as object) || 'native' in (q as object)));
}

/** The body is the dataset query itself; `database` must at least be an integer (or the saved-questions id). */
function assertQueryBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw ValidationError.of('query', 'value must be a map.', body);
  const db = (body as { database?: unknown }).database;
  if (db !== undefined && db !== null && !Number.isInteger(db)) {
    throw new ValidationError({ database: 'value may be nil, or if non-nil, value must be an integer.' }, { database: [describeReceived('value must be an integer', db)] });
  }
  return body as Record<string, unknown>;
}

function invalid(e: InvalidQueryError, body: unknown, context: string): FailedResults {
  const now = new Date().toISOString();
  const db = (body as { database?: unknown }).database;
  return {
    status: 'failed', error: e.message, error_type: 'invalid-query', data: { rows: [], cols: [] }, row_count: 0, context,
    json_query: body, database_id: Number.isInteger(db) ? (db as number) : null, started_at: now, running_time: 0,
  };
}
