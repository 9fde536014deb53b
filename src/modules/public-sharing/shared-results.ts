import type { FailedResults, QueryResults } from '../../query-engine/postprocess/results';
import { MessageError } from '../../common/errors/api-errors';
import type { DatasetAnswer, DatasetStream } from '../dataset';

/** What a failed run of a shared card says, whatever went wrong (Metabase's words, public and embedded alike). */
export const QUERY_FAILED = 'An error occurred while running the query.';

/**
 * A run's result as the public and embed surfaces answer it: the rows and columns, nothing of the query's internals
 * (no SQL, no database id, no context): `{data: {cols, rows, rows_truncated?, insights, results_timezone},
 * json_query: {parameters}, status}`; a failure `{status: "failed", error: QUERY_FAILED, json_query: {parameters}}`.
 */
export function sharedResults(answer: DatasetAnswer | QueryResults | FailedResults) {
  const query = answer.json_query as { parameters?: unknown } | null | undefined;
  const json_query = { parameters: Array.isArray(query?.parameters) ? query.parameters : [] };
  if (answer.status !== 'completed') return { status: 'failed' as const, error: QUERY_FAILED, json_query, data: { rows: [], cols: [] } };
  const { cols, rows, rows_truncated, insights, results_timezone } = answer.data;
  return {
    data: { cols, rows, ...(rows_truncated !== undefined ? { rows_truncated } : {}), insights, results_timezone },
    json_query,
    status: answer.status,
  };
}

/**
 * A download's run as writeExport may have it on the public and embed surfaces: a run that failed outright is a
 * 400 (which those surfaces answer tersely); a failure while rows stream says only QUERY_FAILED, in the file's
 * incomplete marker or, before the first row, in writeExport's 400.
 */
export function sharedDownload(answer: DatasetAnswer | DatasetStream): DatasetAnswer | DatasetStream {
  if (answer.status === 'failed') throw new MessageError(QUERY_FAILED);
  if (answer.status !== 'streaming') return answer;
  const outcome = answer.outcome.bind(answer);
  return {
    ...answer,
    outcome: () => {
      const o = outcome();
      return o.failure ? { ...o, failure: { error: QUERY_FAILED, error_type: o.failure.error_type } } : o;
    },
  };
}
