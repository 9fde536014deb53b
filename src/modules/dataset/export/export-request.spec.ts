import { ValidationError } from '../../../common/errors/api-errors';
import { parseExportRequest } from './export-request';

const query = { database: 1, type: 'query', query: { 'source-table': 2 } };

function rejection(format: string, body: unknown): Record<string, unknown> {
  try {
    parseExportRequest(format, body);
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as ValidationError).body();
  }
  throw new Error('accepted');
}

describe('parseExportRequest', () => {
  it('reads a form: JSON strings and boolean strings, with format_rows and pivot_results off by default', () => {
    expect(parseExportRequest('csv', { query: JSON.stringify(query), visualization_settings: '{}' })).toEqual({
      format: 'csv',
      query,
      visualizationSettings: {},
      formatRows: false,
      pivotResults: false,
    });
    const r = parseExportRequest('xlsx', { query: JSON.stringify(query), format_rows: 'false', pivot_results: 'true' });
    expect([r.formatRows, r.pivotResults, r.visualizationSettings]).toEqual([false, true, {}]);
  });

  it('accepts maps and booleans from a JSON body, and drops the query constraints', () => {
    const r = parseExportRequest('json', {
      query: { ...query, constraints: { 'max-results': 10 } },
      visualization_settings: { column_settings: {} },
      format_rows: false,
    });
    expect(r).toEqual({ format: 'json', query, visualizationSettings: { column_settings: {} }, formatRows: false, pivotResults: false });
  });

  it('rejects other formats and bad values with the spec messages', () => {
    expect(rejection('pdf', { query: '{}' }).errors).toEqual({ 'export-format': 'value must be one of: `csv`, `api`, `xlsx`, `json`.' });
    expect(rejection('csv', {}).errors).toEqual({ query: 'value must be a valid JSON string.' });
    expect(rejection('csv', { query: '{nope' }).errors).toEqual({ query: 'value must be a valid JSON string.' });
    expect(rejection('csv', { query: '[1]' }).errors).toEqual({ query: 'value must be a valid JSON string.' });
    expect(rejection('csv', { query: '{}', visualization_settings: 'x' }).errors).toEqual({
      visualization_settings: 'value must be a valid JSON string.',
    });
    expect(rejection('csv', { query: '{}', format_rows: 'yes' }).errors).toEqual({ format_rows: 'value must be a valid boolean string.' });
    expect(rejection('csv', { query: '{}', pivot_results: '1' }).errors).toEqual({
      pivot_results: 'value must be a valid boolean string.',
    });
  });
});
