import type { CompiledColumn } from '../compile/contract';
import type { DatasetQuery } from '../mbql/types';

/** The successful result, exactly in the shape of Metabase's (POST /api/dataset, POST /api/card/:id/query). */
export interface QueryResults {
  data: {
    rows: unknown[][];
    cols: CompiledColumn[];
    native_form: { query: string; params: unknown[] };
    results_timezone: string;
    results_metadata: { columns: unknown[] };
    insights: null;
    rows_truncated?: number;
    /** What the caller may download of this result (Metabase's; clients hide the download button on `none`). */
    download_perms?: 'full' | 'limited' | 'none';
  };
  row_count: number;
  status: 'completed';
  context: string;
  json_query: DatasetQuery;
  started_at: string;
  running_time: number;
  database_id: number;
  cached?: boolean;
}

/**
 * A completed query whose rows are still to be read, for writers that send them as they arrive (the JSON
 * answer, exports). `head` is the result without its rows; the figures known only at the end (`row_count`,
 * `running_time`, `rows_truncated`, or the error that stopped the rows early) come from outcome() once `rows`
 * is done. Whoever gets one must iterate `rows` to the end or call close().
 */
export interface StreamedResults {
  status: 'streaming';
  head: Omit<QueryResults, 'row_count' | 'running_time'>;
  rows: AsyncIterable<unknown[][]>;
  outcome(): StreamOutcome;
  close(): Promise<void>;
}

export interface StreamOutcome {
  row_count: number;
  running_time: number;
  rows_truncated?: number;
  /** Set when the database failed after the first rows were sent: the rows stop there. */
  failure?: { error: string; error_type: string };
}

export interface FailedResults {
  status: 'failed';
  error: string;
  error_type: string;
  data: { rows: []; cols: [] };
  row_count: 0;
  context: string;
  json_query: unknown;
  database_id: number | null;
  started_at: string;
  running_time: number;
}

const TEMPORAL = new Set(['type/Date', 'type/DateTime', 'type/DateTimeWithLocalTZ']);

/**
 * Temporal values computed by expressions come back from SQLite as `YYYY-MM-DD HH:MM:SS` text (it has no
 * temporal type); every other engine's driver already gives `YYYY-MM-DDTHH:MM:SS`. One shape for all.
 */
export function normalizeTemporalText(rows: unknown[][], cols: CompiledColumn[]): unknown[][] {
  const temporal = cols.flatMap((c, i) => (TEMPORAL.has(c.base_type) ? [i] : []));
  if (temporal.length === 0) return rows;
  // In place: the rows are this query's own, fresh from the driver; copying 100,000 of them costs more than the fix.
  for (const row of rows) {
    for (const i of temporal) {
      const v = row[i];
      if (typeof v === 'string' && v.charCodeAt(10) === 32 && /^\d{4}-\d\d-\d\d \d\d:\d\d/.test(v)) row[i] = v.replace(' ', 'T');
    }
  }
  return rows;
}

/** The columns part of `results_metadata`, which clients save with a card. */
export function resultsMetadata(cols: CompiledColumn[]): { columns: unknown[] } {
  return {
    columns: cols.map((c) => ({
      name: c.name,
      display_name: c.display_name,
      base_type: c.base_type,
      effective_type: c.effective_type,
      semantic_type: c.semantic_type,
      field_ref: c.field_ref,
      ...(c.id !== undefined ? { id: c.id } : {}),
      ...(c.unit ? { unit: c.unit } : {}),
      ...(c.fingerprint ? { fingerprint: c.fingerprint } : {}),
    })),
  };
}
