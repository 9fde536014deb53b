/*
 * Plain types only, no imports: pure modules (the editor's wiring rules) and their unit tests use them without the
 * API client's modules.
 */

/**
 * A dashboard as the application reads it: `GET /api/dashboard/:id` (src/modules/dashboards/dashboard-view.ts and
 * dashboard-hydrator.ts). Only the keys the pages read are typed.
 */
export interface DashboardParameter {
  id: string;
  name: string;
  slug: string;
  type: string;
  sectionId?: string;
  default?: unknown;
  required?: boolean;
  /** Linked filters: the ids of the parameters that narrow this one's values. */
  filteringParameters?: string[];
  values_source_type?: string | null;
  values_source_config?: { values?: unknown[] } | null;
  [k: string]: unknown;
}

/** The values of the parameters sent to a card: `[{id, value}]`, the server maps them through the dashcard's mappings. */
export type SentParameter = { id: string; type: string; value: unknown };

export interface ColumnMeta {
  name: string;
  display_name?: string;
  base_type?: string;
  id?: number | null;
  field_ref?: unknown;
  semantic_type?: string | null;
}

export interface DashcardCard {
  id: number;
  name: string;
  description?: string | null;
  display: string;
  type?: string;
  database_id?: number | null;
  table_id?: number | null;
  visualization_settings: Record<string, unknown>;
  result_metadata?: ColumnMeta[] | null;
  dataset_query?: { type?: string; native?: { 'template-tags'?: Record<string, { name: string; type: string; dimension?: unknown }> } };
}

export interface ParameterMapping {
  parameter_id: string;
  card_id?: number | null;
  target: unknown;
}

export interface DashcardData {
  id: number;
  card_id: number | null;
  card: DashcardCard | null;
  dashboard_tab_id: number | null;
  col: number;
  row: number;
  size_x: number;
  size_y: number;
  parameter_mappings: ParameterMapping[];
  visualization_settings: Record<string, unknown>;
  series?: DashcardCard[];
  action_id?: number | null;
  action?: DashcardAction | null;
}

export interface DashboardTab {
  id: number;
  name: string;
  position: number;
}

export interface DashboardData {
  id: number;
  name: string;
  description: string | null;
  collection_id: number | null;
  archived: boolean;
  can_write?: boolean;
  auto_apply_filters: boolean;
  parameters: DashboardParameter[];
  tabs: DashboardTab[];
  dashcards: DashcardData[];
  public_uuid: string | null;
  enable_embedding: boolean;
  embedding_params: Record<string, string> | null;
}

/** The action of an action button, as GET /api/dashboard/:id shows it on its dashcard (`action`; the actions module). */
export interface DashcardAction {
  id: number;
  name: string;
  type: string;
  parameters: Array<{ id: string; slug?: string; name?: string; 'display-name'?: string; type: string }>;
  visualization_settings?: { fields?: Record<string, { hidden?: boolean; placeholder?: string }> } | null;
}

/** `GET /api/table/:id/query_metadata`, as far as wiring a filter reads it. */
export interface TableFields {
  id: number;
  fields: Array<{ id: number; name: string; display_name: string; base_type?: string; semantic_type?: string | null }>;
}
