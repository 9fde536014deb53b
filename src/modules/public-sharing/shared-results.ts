import type { FailedResults, QueryResults } from '../../query-engine/postprocess/results';
import type { DatasetAnswer } from '../dataset/dataset.service';

/** What a failed run of a shared card says, whatever went wrong (COMPAT.md "Signed embedding"). */
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
