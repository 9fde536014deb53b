import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthUser } from '../../common/auth/current-user';
import { describeReceived, MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { normalizeDatasetQuery } from '../../query-engine/mbql/normalize';
import type { DatasetQuery, InnerQuery } from '../../query-engine/mbql/types';
import { breakoutCombinations, pivotColumns, pivotOptions, PivotError, PIVOT_GROUPING_COLUMN, spreadRows, subQuery } from '../../query-engine/postprocess/pivot';
import { FailedResults, QueryResults, resultsMetadata } from '../../query-engine/postprocess/results';
import { WarehouseDatabase } from '../databases/database.entity';
import { DatabaseAccessService } from '../warehouse/database-access.service';
import { AD_HOC_MAX_ROWS, DatasetService } from './dataset.service';

export const DATABASE_REQUIRED = '`database` is required for all queries.';
export const NATIVE_PIVOT = 'Pivot tables can only be used with structured (MBQL) queries, not native queries.';

/** Keys of the pivot request that are not part of the dataset query itself. */
const PIVOT_KEYS = ['pivot_rows', 'pivot-rows', 'pivot_cols', 'pivot-cols', 'visualization_settings', 'visualization-settings'];

/**
 * POST /api/dataset/pivot: the query once per breakout combination its subtotals need (see query-engine
 * postprocess/pivot.ts), each run through DatasetService (same permission checks and row cap as ad-hoc queries),
 * stacked into one result with the extra `pivot-grouping` column.
 */
@Injectable()
export class PivotService {
  constructor(
    private readonly dataset: DatasetService,
    private readonly db: DataSource,
    private readonly access: DatabaseAccessService,
  ) {}

  /** `context` names the run in the execution log (a download's, for exports). */
  async run(body: unknown, caller: AuthUser, signal: AbortSignal, context = 'ad-hoc'): Promise<QueryResults | FailedResults> {
    const raw = assertBody(body);
    const options = {
      rows: raw.pivot_rows ?? raw['pivot-rows'],
      cols: raw.pivot_cols ?? raw['pivot-cols'],
      split: ((raw.visualization_settings ?? raw['visualization-settings']) as Record<string, unknown> | undefined)?.['pivot_table.column_split'],
    };
    const queryBody = Object.fromEntries(Object.entries(raw).filter(([k]) => !PIVOT_KEYS.includes(k)));
    const normalized = normalizeDatasetQuery(queryBody);
    if (normalized.type === 'native') return this.nativeRefused(normalized, caller, queryBody);
    const inner: InnerQuery = normalized.query && typeof normalized.query === 'object' ? normalized.query : {};
    const breakouts = Array.isArray(inner.breakout) ? inner.breakout : [];
    const maxRows = normalized.constraints?.['max-results'] ?? AD_HOC_MAX_ROWS;
    const started = Date.now();

    // The full breakout is the query the user asked for and is logged; the subtotal runs are not logged again.
    const runCombination = (indices: number[], log = false) =>
      this.dataset.run({ ...queryBody, type: 'query', query: subQuery(inner, indices), constraints: { ...normalized.constraints, 'max-results': maxRows } }, caller, signal, { log, context });

    const all = breakouts.map((_, i) => i);
    const full = await runCombination(all, true);
    if (full.status !== 'completed') return full;
    let combos: number[][];
    try {
      const { rows, cols } = pivotOptions(breakouts, { rows: options.rows, cols: options.cols }, options.split, full.data.cols.map((c) => c.name));
      combos = breakoutCombinations(breakouts.length, rows, cols);
    } catch (e) {
      if (e instanceof PivotError) return failed(full, e.message);
      throw e;
    }
    const rows: unknown[][] = spreadRows(full.data.rows, breakouts.length, all);
    let truncated = full.data.rows_truncated !== undefined;
    for (const combo of combos) {
      if (combo.length === breakouts.length) continue;
      const part = await runCombination(combo);
      if (part.status !== 'completed') return part;
      if (part.data.rows_truncated !== undefined) truncated = true;
      rows.push(...spreadRows(part.data.rows, breakouts.length, combo));
    }
    if (rows.length > maxRows) {
      rows.length = maxRows;
      truncated = true;
    }
    const cols = pivotColumns(full.data.cols, breakouts.length, PIVOT_GROUPING_COLUMN);
    const data: QueryResults['data'] = { ...full.data, rows, cols, results_metadata: resultsMetadata(cols) };
    delete data.rows_truncated;
    if (truncated) data.rows_truncated = maxRows;
    return { ...full, data, row_count: rows.length, json_query: normalized, running_time: Date.now() - started };
  }

  /** A native query cannot be pivoted: the failed shape, after the same 404/403 answers as any query. */
  private async nativeRefused(query: DatasetQuery, caller: AuthUser, body: unknown): Promise<FailedResults> {
    const db = Number.isInteger(query.database) ? await this.db.manager.findOneBy(WarehouseDatabase, { id: query.database }) : null;
    if (!db) throw new NotFoundError();
    await this.access.assertCanRead(caller, db.id);
    const now = new Date().toISOString();
    return {
      status: 'failed', error: NATIVE_PIVOT, error_type: 'invalid-query', data: { rows: [], cols: [] }, row_count: 0, context: 'ad-hoc',
      json_query: body, database_id: db.id, started_at: now, running_time: 0,
    };
  }
}

function failed(from: QueryResults, message: string): FailedResults {
  return {
    status: 'failed', error: message, error_type: 'invalid-query', data: { rows: [], cols: [] }, row_count: 0, context: from.context,
    json_query: from.json_query, database_id: from.database_id, started_at: from.started_at, running_time: from.running_time,
  };
}

/** A map whose `database` is an integer greater than zero: optional by its schema, then required (as Metabase). */
function assertBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw ValidationError.of('query', MSG.map, body);
  const db = (body as { database?: unknown }).database;
  if (db !== undefined && db !== null && !(Number.isInteger(db) && (db as number) > 0)) {
    throw new ValidationError(
      { database: `nullable ${MSG.positiveInt}` },
      { database: [describeReceived(MSG.positiveInt, db)] },
    );
  }
  if (db === undefined || db === null) throw new MessageError(DATABASE_REQUIRED);
  return body as Record<string, unknown>;
}
