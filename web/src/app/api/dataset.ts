import { api, toApiError } from './client';

/** A result column as the query processor annotates it (src/query-engine postprocess): the keys the app reads. */
export interface ResultColumn {
  name: string;
  display_name: string;
  base_type: string;
  effective_type?: string;
  semantic_type?: string | null;
  field_ref?: unknown;
  id?: number;
  [k: string]: unknown;
}

/**
 * The answer of `POST /api/dataset` and `POST /api/card/:id/query` (src/common/http/write-result-json.ts): 202 also
 * when the query failed, the failure then in `status: "failed"` and `error`.
 */
export interface DatasetResult {
  status: 'completed' | 'failed';
  error?: string;
  row_count?: number;
  running_time?: number;
  data: {
    rows: unknown[][];
    cols: ResultColumn[];
    native_form?: { query?: string };
    results_metadata?: { columns?: Array<Record<string, unknown>> };
    rows_truncated?: number;
    /** What the viewer may download of these rows (absent on shared results: the sharing settings decide). */
    download_perms?: 'full' | 'limited' | 'none';
  };
}

/** A native parameter value as the server takes it (Metabase's `{type, target, value}`; src/query-engine/mbql/types.ts). */
export interface ParameterValue {
  id?: string;
  type: string;
  target: unknown[];
  value: unknown;
}

/** `POST /api/dataset`: an ad-hoc query (legacy or MBQL 5); aborting `signal` drops the connection and the server cancels. */
export const runDataset = (query: Record<string, unknown>, signal?: AbortSignal) =>
  api<DatasetResult>('POST', '/api/dataset', { body: query, signal });

export type DownloadFormat = 'csv' | 'xlsx' | 'json';

/**
 * A download: `POST /api/card/:id/query/:format` for a saved question (its parameters), `POST /api/dataset/:format` for
 * an ad-hoc query (src/modules/dataset/export/export-request.ts takes JSON bodies too). The answer is the file.
 */
export async function download(
  target: { cardId: number; parameters: ParameterValue[] } | { query: Record<string, unknown> },
  format: DownloadFormat,
): Promise<Blob> {
  const path = 'cardId' in target ? `/api/card/${target.cardId}/query/${format}` : `/api/dataset/${format}`;
  const body = 'cardId' in target ? { parameters: target.parameters, format_rows: true } : { query: target.query, format_rows: true };
  const res = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw toApiError(res.status, await res.text());
  return res.blob();
}

/** `POST /api/card/:id/query`: a saved question as it is stored, with the values of its parameters. */
export const runCard = (id: number, parameters: ParameterValue[], signal?: AbortSignal) =>
  api<DatasetResult>('POST', `/api/card/${id}/query`, { body: { parameters }, signal });
