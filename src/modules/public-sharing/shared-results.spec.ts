import { MessageError } from '../../common/errors/api-errors';
import type { CardRow } from '../../schema/card.rows';
import type { DatasetAnswer, DatasetStream } from '../dataset/dataset.service';
import { QUERY_FAILED, sharedDownload, sharedResults } from './shared-results';
import { sharedParameters, sharedQuery } from './shared-views';

const completed = {
  status: 'completed',
  data: {
    rows: [[1]],
    cols: [{ name: 'N' }],
    native_form: { query: 'SELECT secret FROM t', params: [] },
    results_timezone: 'UTC',
    results_metadata: { columns: [] },
    insights: null,
  },
  row_count: 1,
  context: 'public-question',
  json_query: { database: 3, type: 'native', native: { query: 'SELECT secret FROM t' }, parameters: [{ id: 'p', value: 1 }] },
  started_at: '',
  running_time: 1,
  database_id: 3,
} as unknown as DatasetAnswer;
const failedRun = {
  status: 'failed',
  error: 'no such column: secret in SELECT secret FROM t',
  error_type: 'invalid-query',
  data: { rows: [], cols: [] },
  row_count: 0,
  context: 'x',
  json_query: {},
  database_id: 3,
  started_at: '',
  running_time: 0,
} as DatasetAnswer;

describe('sharedResults', () => {
  it('keeps rows, columns and applied parameters, and nothing of the query or database', () => {
    const shaped = sharedResults(completed);
    expect(shaped).toEqual({
      status: 'completed',
      data: { rows: [[1]], cols: [{ name: 'N' }], insights: null, results_timezone: 'UTC' },
      json_query: { parameters: [{ id: 'p', value: 1 }] },
    });
    expect(JSON.stringify(shaped)).not.toMatch(/secret|database/);
  });

  it('says only that the query failed', () => {
    expect(sharedResults(failedRun)).toEqual({
      status: 'failed',
      error: QUERY_FAILED,
      json_query: { parameters: [] },
      data: { rows: [], cols: [] },
    });
  });
});

describe('sharedDownload', () => {
  it("refuses a failed run before anything is written, and hides a streamed failure's message", () => {
    expect(() => sharedDownload(failedRun)).toThrow(MessageError);
    const stream = {
      status: 'streaming',
      head: {},
      rows: [],
      close: async () => undefined,
      outcome: () => ({ row_count: 3, running_time: 1, failure: { error: 'disk I/O error at /var/db', error_type: 'db' } }),
    } as unknown as DatasetStream;
    expect((sharedDownload(stream) as DatasetStream).outcome()).toEqual({
      row_count: 3,
      running_time: 1,
      failure: { error: QUERY_FAILED, error_type: 'db' },
    });
    expect(sharedDownload(completed)).toBe(completed);
  });
});

describe('shared card views', () => {
  const card = (dataset_query: unknown, parameters: unknown[] = []) =>
    ({ dataset_query: JSON.stringify(dataset_query), parameters: JSON.stringify(parameters) }) as unknown as CardRow;

  it("shows a query's type and template tags, never its SQL or MBQL", () => {
    const tags = { x: { id: 'a', name: 'x', type: 'number' } };
    expect(sharedQuery(card({ database: 1, type: 'native', native: { query: 'SELECT 1', 'template-tags': tags } }))).toEqual({
      type: 'native',
      native: { 'template-tags': tags },
    });
    expect(sharedQuery(card({ database: 1, type: 'query', query: { 'source-table': 4 } }))).toEqual({ type: 'query' });
  });

  it('derives parameters from template tags when the card stores none', () => {
    const tags = {
      n: { id: 'a', name: 'n', 'display-name': 'N', type: 'number', default: 3 },
      f: { id: 'b', name: 'f', type: 'dimension', dimension: ['field', 9, null], 'widget-type': 'string/=' },
      s: { id: 'c', name: 's', type: 'snippet' },
    };
    expect(sharedParameters(card({ database: 1, type: 'native', native: { query: 'x', 'template-tags': tags } }))).toEqual([
      { id: 'a', type: 'number/=', target: ['variable', ['template-tag', 'n']], name: 'N', slug: 'n', default: 3 },
      { id: 'b', type: 'string/=', target: ['dimension', ['template-tag', 'f']], name: 'f', slug: 'f' },
    ]);
    expect(sharedParameters(card({ database: 1, type: 'query', query: {} }, [{ id: 'p', type: 'category' }]))).toEqual([
      { id: 'p', type: 'category' },
    ]);
  });
});
