import type { ApiParameter } from './parameters';

export interface ApiCard {
  id: number;
  name: string;
  description?: string | null;
  display: string;
  visualization_settings?: Record<string, unknown> | null;
  parameters?: ApiParameter[] | null;
  can_write?: boolean;
  dataset_query?: unknown;
  collection_id?: number | null;
}

export interface ApiDataset {
  status?: string;
  error?: unknown;
  row_count?: number;
  data: {
    rows: unknown[][];
    cols: { name: string; display_name: string; base_type: string; [k: string]: unknown }[];
    [k: string]: unknown;
  };
}

export interface ApiDashcard {
  id: number;
  card_id: number | null;
  /** `{id}` alone for a card the viewer may not read. */
  card?: ApiCard | null;
  row: number;
  col: number;
  size_x: number;
  size_y: number;
  dashboard_tab_id?: number | null;
  visualization_settings?: Record<string, unknown> | null;
}

export interface ApiDashboard {
  id: number;
  name: string;
  description?: string | null;
  parameters?: ApiParameter[] | null;
  dashcards: ApiDashcard[];
  tabs?: { id: number; name: string; position?: number }[];
}

/** A query answer that failed inside a 202 (`status: failed`) becomes an error with its message. */
export function checkDataset(d: ApiDataset): ApiDataset {
  if (d.status === 'failed' || !d.data) {
    const e = d.error;
    throw new Error(
      typeof e === 'string'
        ? e
        : e && typeof e === 'object' && 'message' in e
          ? String((e as { message: unknown }).message)
          : 'The query failed',
    );
  }
  return d;
}
