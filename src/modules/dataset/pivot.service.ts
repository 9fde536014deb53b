import { Injectable } from '@nestjs/common';
import { MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { DatasetQuery, InnerQuery } from '../../query-engine/mbql/types';
import { compilerFor } from '../../query-engine/compile';
import { MAX_PIVOT_BREAKOUTS, pivotColumns, PIVOT_GROUPING_COLUMN, runPivot, tooManyBreakouts } from '../../query-engine/postprocess/pivot';
import { FailedResults, QueryResults, resultsMetadata } from '../../query-engine/postprocess/results';
import { DatabaseAccessService } from '../warehouse';
import { AD_HOC_MAX_ROWS, DatasetService } from './dataset.service';
import { QueryMetadataRepository } from './query-metadata.repository';
import { EXPORT_MAX_ROWS } from './export/export-request';
import { checkQueryBody, normalizedOrError } from './query-body';
import { isShared, type Reader } from '../../common/auth/shared-grant';
import { downloadRowCap } from './query-authorization';

/** A pivot holds all its rows at once: never more than a download may have (Metabase's 1,048,575). */
export const PIVOT_MAX_ROWS = EXPORT_MAX_ROWS;

export const NATIVE_PIVOT = 'Pivot tables can only be used with structured (MBQL) queries, not native queries.';

/** Keys of the pivot request that are not part of the dataset query itself. */
const PIVOT_KEYS = ['pivot_rows', 'pivot-rows', 'pivot_cols', 'pivot-cols', 'visualization_settings', 'visualization-settings'];

/**
 * POST /api/dataset/pivot: the detail rows and the subtotals the split needs (see query-engine postprocess/pivot.ts),
 * in one GROUPING SETS query where the engine has them, else one query per grouping; every run goes through
 * DatasetService (same permission checks as ad-hoc queries) and all of them together hold at most the row cap.
 */
@Injectable()
export class PivotService {
  constructor(
    private readonly dataset: DatasetService,
    private readonly metadataRepo: QueryMetadataRepository,
    private readonly access: DatabaseAccessService,
  ) {}

  /**
   * `context` names the run in the execution log (a download's, for exports); `cardId` the saved question run, if any;
   * `dashboardId` the dashboard it runs in (a dashcard's pivot run), logged as the plain dashcard run logs it.
   * `caller` a verified shared object (public link, embed): its runs have no permission checks (see SharedGrant).
   */
  async run(
    body: unknown,
    caller: Reader,
    signal: AbortSignal,
    context = 'ad-hoc',
    cardId: number | null = null,
    dashboardId: number | null = null,
  ): Promise<QueryResults | FailedResults> {
    // A map whose `database` is an integer greater than zero: optional by its schema, then required (as Metabase).
    const raw = checkQueryBody(body, 'pivot');
    const options = {
      rows: raw.pivot_rows ?? raw['pivot-rows'],
      cols: raw.pivot_cols ?? raw['pivot-cols'],
      split: ((raw.visualization_settings ?? raw['visualization-settings']) as Record<string, unknown> | undefined)?.[
        'pivot_table.column_split'
      ],
    };
    const queryBody = Object.fromEntries(Object.entries(raw).filter(([k]) => !PIVOT_KEYS.includes(k)));
    const normalized = normalizedOrError(queryBody);
    // Not a query (a malformed MBQL 5 one): the failed answer of any query, logged as such.
    if (normalized instanceof Error)
      return this.dataset.run(queryBody, caller, signal, { context, cardId, dashboardId }) as Promise<FailedResults>;
    if (normalized.type === 'native') return this.nativeRefused(normalized, caller, queryBody);
    const inner: InnerQuery = normalized.query && typeof normalized.query === 'object' ? normalized.query : {};
    const breakouts = Array.isArray(inner.breakout) ? inner.breakout : [];
    // Refused before anything runs: 2^n groupings would be queried and held.
    if (breakouts.length > MAX_PIVOT_BREAKOUTS) throw new MessageError(tooManyBreakouts(breakouts.length));
    const requested = normalized.constraints?.['max-results'];
    const valid = typeof requested === 'number' && Number.isInteger(requested) && requested > 0;
    // Every grouping's rows are held at once: at most the download cap, whatever the query asks.
    const started = Date.now();
    const db = Number.isInteger(normalized.database) ? await this.metadataRepo.connection(normalized.database as number) : null;
    // A limited download caps the whole table, not each grouping's query (which the dataset service caps on its own).
    const downloadCap =
      db !== null && !isShared(caller) ? downloadRowCap(caller, context, (await this.access.accessTo(caller, db.id)).download) : undefined;
    const maxRows = Math.min(valid ? Math.min(requested, PIVOT_MAX_ROWS) : AD_HOC_MAX_ROWS, downloadCap ?? Infinity);
    // An invalid max-results goes on as it was, for the query's validation to refuse.
    const constraints = (cap: number) =>
      requested === undefined || requested === null || valid ? { ...normalized.constraints, 'max-results': cap } : normalized.constraints;

    const outcome = await runPivot(
      inner,
      { ...options, maxRows, groupingSets: db !== null && compilerFor(db.engine).groupingSets === true },
      (query, run) =>
        this.dataset.run(
          { ...normalized, type: 'query', query, constraints: constraints(Math.min(run.maxRows, maxRows)) },
          caller,
          signal,
          { log: run.log, context, cardId, dashboardId, groupingSets: run.groupingSets },
        ),
    );
    if (!('head' in outcome)) return outcome;
    const { head, rows } = outcome;
    const cols = pivotColumns(head.data.cols, breakouts.length, PIVOT_GROUPING_COLUMN);
    const data: QueryResults['data'] = { ...head.data, rows, cols, results_metadata: resultsMetadata(cols) };
    delete data.rows_truncated;
    if (outcome.truncated) data.rows_truncated = maxRows;
    return { ...head, data, row_count: rows.length, json_query: normalized, running_time: Date.now() - started };
  }

  /** A native query cannot be pivoted: the failed shape, after the same 404/403 answers as any query. */
  private async nativeRefused(query: DatasetQuery, caller: Reader, body: unknown): Promise<FailedResults> {
    const db = Number.isInteger(query.database) ? await this.metadataRepo.connection(query.database as number) : null;
    if (!db) throw new NotFoundError();
    if (!isShared(caller)) await this.access.assertCanRead(caller, db.id);
    const now = new Date().toISOString();
    return {
      status: 'failed',
      error: NATIVE_PIVOT,
      error_type: 'invalid-query',
      data: { rows: [], cols: [] },
      row_count: 0,
      context: 'ad-hoc',
      json_query: body,
      database_id: db.id,
      started_at: now,
      running_time: 0,
    };
  }
}
