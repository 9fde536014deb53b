import type { DashboardRow, DashcardRow } from './dashboards.repository';

/** A dashboard parameter as stored: at least `id` and `type`. */
export interface DashboardParameter {
  id: string;
  type: string;
  slug?: string;
  name?: string;
  default?: unknown;
  [key: string]: unknown;
}

export interface ParameterMapping {
  parameter_id: string;
  target: unknown;
  card_id?: number;
  [key: string]: unknown;
}

/** What the dashboard-queries module reads of a dashboard: its parameters and, per dashcard, the cards and mappings. */
export interface ReadableDashboard {
  dashboard: DashboardRow & { parameters_list: DashboardParameter[] };
  dashcards: ReadableDashcard[];
}

export interface ReadableDashcard {
  id: number;
  card_id: number | null;
  dashboard_tab_id: number | null;
  parameter_mappings: ParameterMapping[];
  /** The series cards drawn on the dashcard, in order. */
  series_card_ids: number[];
  row: DashcardRow;
}

