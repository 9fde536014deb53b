import type { Dataset } from '../visualizations';

/** A dashboard or question parameter as the public and embed APIs return it. */
export interface Parameter {
  id: string;
  name: string;
  slug: string;
  type: string;
  default?: unknown;
  required?: boolean;
  values_source_type?: string | null;
  values_source_config?: { values?: unknown[] } | null;
  [k: string]: unknown;
}

export interface ParamField {
  id: number;
  display_name?: string;
  base_type?: string;
  has_field_values?: string | null;
  [k: string]: unknown;
}

export interface CardBrief {
  id: number;
  name: string;
  description?: string | null;
  display: string;
  visualization_settings: Record<string, unknown>;
  [k: string]: unknown;
}

export interface ParameterMapping {
  parameter_id: string;
  card_id?: number | null;
  target?: unknown;
}

export interface Dashcard {
  id: number;
  card: CardBrief | null;
  card_id: number | null;
  col: number;
  row: number;
  size_x: number;
  size_y: number;
  dashboard_tab_id?: number | null;
  parameter_mappings?: ParameterMapping[] | null;
  visualization_settings: Record<string, unknown>;
  series?: CardBrief[];
}

export interface Tab {
  id: number;
  name: string;
  position: number;
}

export interface Dashboard {
  id?: number;
  name: string;
  description?: string | null;
  parameters?: Parameter[] | null;
  tabs?: Tab[] | null;
  dashcards: Dashcard[];
  param_fields?: Record<string, ParamField[] | ParamField> | null;
}

export interface Question extends CardBrief {
  parameters?: Parameter[] | null;
  param_fields?: Record<string, ParamField[] | ParamField> | null;
}

/** A query's answer (202 also when it failed: `status: "failed"` and `error`). */
export interface QueryResult {
  status?: string;
  error?: unknown;
  data: Dataset;
  row_count?: number;
  [k: string]: unknown;
}

export interface ValuesAnswer {
  values: unknown[];
  has_more_values?: boolean;
}

export type ExportFormat = 'csv' | 'xlsx' | 'json';

/** The current values of the parameters, by parameter id (absent or null: not set). */
export type ParamValues = Record<string, unknown>;

/**
 * What the dashboard components need from a server. The pages pass a client of the public or embed endpoints; the
 * SDK passes one of the authenticated /api/dashboard endpoints. Nothing here knows which.
 */
export interface DashboardClient {
  loadDashboard(): Promise<Dashboard>;
  runDashcard(
    dashcard: Dashcard,
    cardId: number,
    values: ParamValues,
    parameters: Parameter[],
    opts: { pivot: boolean; signal?: AbortSignal },
  ): Promise<QueryResult>;
  /** Starts a download of the dashcard's results; null when this client has no export endpoint (then the page writes CSV/JSON itself). */
  downloadDashcard:
    ((dashcard: Dashcard, cardId: number, format: ExportFormat, values: ParamValues, parameters: Parameter[]) => Promise<void>) | null;
  parameterValues(parameter: Parameter, query: string | null, values: ParamValues): Promise<ValuesAnswer>;
}

export interface QuestionClient {
  loadQuestion(): Promise<Question>;
  runQuestion(values: ParamValues, parameters: Parameter[], opts: { pivot: boolean; signal?: AbortSignal }): Promise<QueryResult>;
  downloadQuestion(format: ExportFormat, values: ParamValues, parameters: Parameter[]): Promise<void>;
  parameterValues(parameter: Parameter, query: string | null, values: ParamValues): Promise<ValuesAnswer>;
}
