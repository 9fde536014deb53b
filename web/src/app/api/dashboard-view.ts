import { useQuery } from '@tanstack/react-query';
import type { Dataset } from '../../visualizations';
import { api, toApiError } from './client';
import { dashboardKeys } from './dashboard';
import type { DashboardData, SentParameter } from './dashboard-types';

export type {
  ColumnMeta,
  DashboardData,
  DashboardParameter,
  DashboardTab,
  DashcardAction,
  DashcardCard,
  DashcardData,
  ParameterMapping,
  SentParameter,
} from './dashboard-types';

/** A card's answer (202 also when it failed: `status: "failed"` and `error`; src/modules/dataset). */
export interface QueryAnswer {
  status?: string;
  error?: unknown;
  data: Dataset;
  row_count?: number;
}

export interface ValuesAnswer {
  values: unknown[];
  has_more_values?: boolean;
}

/** Everything of one dashboard starts with `['dashboard', id]`: a save or a revert invalidates its cards' rows too. */
export const dashboardViewKeys = {
  one: (id: number) => [...dashboardKeys.all, id] as const,
  dashcard: (id: number, dashcardId: number, ...rest: unknown[]) => [...dashboardKeys.all, id, 'dashcard', dashcardId, ...rest] as const,
  values: (id: number, key: string, query: string | null, others: Record<string, unknown>) =>
    [...dashboardKeys.all, id, 'params', key, query, others] as const,
};

export const getDashboard = (id: number, signal?: AbortSignal) => api<DashboardData>('GET', `/api/dashboard/${id}`, { signal });

export function useDashboard(id: number, enabled = true) {
  return useQuery({ queryKey: dashboardViewKeys.one(id), queryFn: ({ signal }) => getDashboard(id, signal), enabled });
}

/** `POST /api/dashboard/:id/dashcard/:dashcardId/card/:cardId/query` (or `pivot/...` for a pivot table). */
export function runDashcard(
  dashboardId: number,
  dashcardId: number,
  cardId: number,
  parameters: SentParameter[],
  opts: { pivot?: boolean; ignoreCache?: boolean; signal?: AbortSignal } = {},
) {
  const path = `/api/dashboard/${opts.pivot ? 'pivot/' : ''}${dashboardId}/dashcard/${dashcardId}/card/${cardId}/query`;
  return api<QueryAnswer>('POST', path, { body: { parameters, ...(opts.ignoreCache ? { ignore_cache: true } : {}) }, signal: opts.signal });
}

/**
 * `GET /api/dashboard/:id/params/:key/values` or `.../search/:query`; `others` are the other filters' values by
 * parameter id (chain filtering: `?<id>=<value>`, a list repeated).
 */
export function useParameterValues(
  dashboardId: number,
  key: string,
  query: string | null,
  others: Record<string, unknown>,
  enabled: boolean,
) {
  return useQuery({
    queryKey: dashboardViewKeys.values(dashboardId, key, query, others),
    queryFn: ({ signal }) => {
      const path = `/api/dashboard/${dashboardId}/params/${encodeURIComponent(key)}/${
        query ? `search/${encodeURIComponent(query)}` : 'values'
      }`;
      return api<ValuesAnswer>('GET', path, { query: others as Record<string, string | string[]>, signal });
    },
    enabled,
    staleTime: 60_000,
  });
}

/**
 * A downloaded file of a dashcard's results (`POST .../query/:format`, a JSON body), with the name the server gives
 * it in Content-Disposition. Fetched rather than a form's navigation: a failure is an error the card can show.
 */
export async function downloadDashcard(
  dashboardId: number,
  dashcardId: number,
  cardId: number,
  format: string,
  parameters: SentParameter[],
): Promise<{ blob: Blob; name: string }> {
  const res = await fetch(`/api/dashboard/${dashboardId}/dashcard/${dashcardId}/card/${cardId}/query/${format}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ parameters, format_rows: true }),
  });
  if (!res.ok) throw toApiError(res.status, await res.text());
  const disposition = res.headers.get('Content-Disposition') ?? '';
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `results.${format}`;
  return { blob: await res.blob(), name };
}

/** `GET .../dashcard/:dashcardId/execute?parameters=`: an update form's current values, by action parameter id. */
export const prefillAction = (dashboardId: number, dashcardId: number, parameters: Record<string, unknown>) =>
  api<Record<string, unknown>>('GET', `/api/dashboard/${dashboardId}/dashcard/${dashcardId}/execute`, {
    query: { parameters: JSON.stringify(parameters) },
  });

/** `POST .../dashcard/:dashcardId/execute`: the dashboard's filter values (`parameters`) and the typed ones (`extra_parameters`). */
export const executeAction = (
  dashboardId: number,
  dashcardId: number,
  parameters: Record<string, unknown>,
  extra: Record<string, unknown>,
) =>
  api<{ 'rows-affected'?: number; [k: string]: unknown }>('POST', `/api/dashboard/${dashboardId}/dashcard/${dashcardId}/execute`, {
    body: { parameters, extra_parameters: extra },
  });
