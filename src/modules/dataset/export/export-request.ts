import { ValidationError } from '../../../common/errors/api-errors';
import { MSG } from '../../../common/validation/messages';
import { checkQueryBody } from '../query-body';

export const EXPORT_FORMATS = ['csv', 'api', 'xlsx', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Metabase's cap on exported rows (`absolute-max-results`): the ad-hoc 2,000 does not apply to downloads. */
export const EXPORT_MAX_ROWS = 1_048_575;

/** The execution-log `context` of each format, as Metabase names the contexts of downloads. */
export const EXPORT_CONTEXT: Record<ExportFormat, string> = {
  csv: 'csv-download',
  xlsx: 'xlsx-download',
  json: 'json-download',
  api: 'ad-hoc',
};

/** What a download writes: the format, and how (see writeExport). Card and dashcard downloads add the card's settings. */
export interface ExportSpec {
  format: ExportFormat;
  visualizationSettings: Record<string, unknown>;
  formatRows: boolean;
  /** Lay out pivot rows as the pivot table shows them (the run must be a pivot run: rows tagged by `pivot-grouping`). */
  pivotResults: boolean;
  /** The file name before its timestamp: the card's name; default `query_result`. */
  name?: string;
}

export interface ExportRequest {
  format: ExportFormat;
  /** The dataset query, without its own `constraints` (downloads use the export cap, as in Metabase). */
  query: Record<string, unknown>;
  visualizationSettings: Record<string, unknown>;
  formatRows: boolean;
  pivotResults: boolean;
}

/**
 * POST /api/dataset/:export-format. Metabase's frontend posts a form (every value a string); a JSON body with the
 * same keys is accepted too, where `query` and `visualization_settings` may also be plain maps and the flags booleans.
 */
export function parseExportRequest(format: string, body: unknown): ExportRequest {
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw ValidationError.of('export-format', MSG.oneOf(EXPORT_FORMATS), format);
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  // The query (legacy or MBQL 5) gets the check of every query endpoint before anything of the file is written.
  const { constraints: _ignored, ...query } = checkQueryBody(jsonMap('query', b.query, true), 'dataset');
  return {
    format: format as ExportFormat,
    query,
    visualizationSettings: jsonMap('visualization_settings', b.visualization_settings, false),
    // Metabase v0.51: absent means raw values (its download dialog sends `true` for "formatted").
    formatRows: boolString('format_rows', b.format_rows, false),
    pivotResults: boolString('pivot_results', b.pivot_results, false),
  };
}

function jsonMap(param: string, raw: unknown, required: boolean): Record<string, unknown> {
  if ((raw === undefined || raw === null || raw === '') && !required) return {};
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw ValidationError.of(param, MSG.jsonString, raw);
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw ValidationError.of(param, MSG.jsonString, raw);
  return value as Record<string, unknown>;
}

function boolString(param: string, raw: unknown, fallback: boolean): boolean {
  if (raw === undefined || raw === null) return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw ValidationError.of(param, MSG.boolString, raw);
}

/** A card or dashcard download: the format, the flags, and the parameter values (`[{id, type, target, value}]`). */
export interface DownloadRequest {
  format: ExportFormat;
  formatRows: boolean;
  pivotResults: boolean;
  parameters: Array<Record<string, unknown>> | null;
}

export const PARAMETER_MAPS_MSG = 'value must be an array of maps.';
export const PARAMETER_IDS_MSG = 'value must be an array of maps, each with an `id`.';

/**
 * POST /api/card/:id/query/:export-format and the dashcard twin: a form (`parameters` a JSON string, the flags
 * bool-strs) or a JSON body (`parameters` an array or a JSON string, the flags booleans or bool-strs). `idsRequired`:
 * each parameter value must carry the `id` of a dashboard parameter (dashcard downloads).
 */
export function parseDownloadRequest(format: string, body: unknown, idsRequired = false): DownloadRequest {
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw ValidationError.of('export-format', MSG.oneOf(EXPORT_FORMATS), format);
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return {
    format: format as ExportFormat,
    parameters: parameterList(b.parameters, idsRequired),
    formatRows: boolString('format_rows', b.format_rows, false),
    pivotResults: boolString('pivot_results', b.pivot_results, false),
  };
}

function parameterList(raw: unknown, idsRequired: boolean): Array<Record<string, unknown>> | null {
  if (raw === undefined || raw === null || raw === '') return null;
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw ValidationError.of('parameters', MSG.jsonString, raw);
    }
    if (!Array.isArray(value)) throw ValidationError.of('parameters', MSG.jsonString, raw);
  }
  if (!Array.isArray(value)) throw ValidationError.of('parameters', MSG.array, raw);
  const isMap = (p: unknown) => p !== null && typeof p === 'object' && !Array.isArray(p);
  if (!value.every(isMap)) throw ValidationError.of('parameters', idsRequired ? PARAMETER_IDS_MSG : PARAMETER_MAPS_MSG, raw);
  if (idsRequired && !value.every((p) => 'id' in (p as object))) throw ValidationError.of('parameters', PARAMETER_IDS_MSG, raw);
  return value as Array<Record<string, unknown>>;
}

/** The execution-log context of a card or dashcard download: the format's, or `api`'s own (`question`, `dashboard`). */
export function downloadContext(format: ExportFormat, apiContext: string): string {
  return format === 'api' ? apiContext : EXPORT_CONTEXT[format];
}

/** What to write for a saved question's download (its name names the file; `pivot`: the run is its pivot run). */
export function cardExportSpec(
  request: DownloadRequest,
  card: { name: string; visualizationSettings: Record<string, unknown>; pivot: boolean },
): ExportSpec {
  return {
    format: request.format,
    formatRows: request.formatRows,
    pivotResults: request.pivotResults && card.pivot,
    visualizationSettings: card.visualizationSettings,
    name: card.name,
  };
}
