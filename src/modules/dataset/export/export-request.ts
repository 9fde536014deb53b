import { ValidationError } from '../../../common/errors/api-errors';
import { MSG } from '../../../common/validation/messages';
import { checkQueryBody } from '../query-body';

export const EXPORT_FORMATS = ['csv', 'api', 'xlsx', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Metabase's cap on exported rows (`absolute-max-results`): the ad-hoc 2,000 does not apply to downloads. */
export const EXPORT_MAX_ROWS = 1_048_575;

/** The execution-log `context` of each format (COMPAT.md "Query results"). */
export const EXPORT_CONTEXT: Record<ExportFormat, string> = {
  csv: 'csv-download',
  xlsx: 'xlsx-download',
  json: 'json-download',
  api: 'ad-hoc',
};

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
