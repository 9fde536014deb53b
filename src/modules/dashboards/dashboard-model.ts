import type { DashboardRow, DashcardRow, TabRow } from '../../schema/dashboard.rows';

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

/**
 * What the dashboard-queries module reads of a dashboard: its parameters and, per dashcard, the cards and mappings;
 * and its tabs. The dashcards and tabs are shared by every request (DashboardLayoutCache) and frozen.
 */
export interface ReadableDashboard {
  dashboard: DashboardRow & { parameters_list: DashboardParameter[] };
  dashcards: readonly ReadableDashcard[];
  tabs: readonly TabRow[];
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

/** The cards on a dashboard: its dashcards' cards and their series. */
export function dashboardCardIds(found: ReadableDashboard): number[] {
  return found.dashcards.flatMap((dc) => [...(dc.card_id === null ? [] : [dc.card_id]), ...dc.series_card_ids]);
}
