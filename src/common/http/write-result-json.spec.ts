import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { StreamedResults, StreamOutcome } from '../../query-engine/postprocess/results';
import { writeResultJson } from './write-result-json';

/** A streamed result of `total` one-column rows in batches of `batch`, failing after `failAfter` rows if set. */
function streamed(total: number, opts: { batch?: number; failAfter?: number } = {}) {
  const batch = opts.batch ?? 1000;
  let outcome: StreamOutcome = { row_count: 0, running_time: 0 };
  const state = { read: 0, closed: false };
  async function* rows(): AsyncGenerator<unknown[][]> {
    try {
      while (state.read < total) {
        if (opts.failAfter !== undefined && state.read >= opts.failAfter) {
          outcome = { row_count: state.read, running_time: 5, failure: { error: 'division by zero', error_type: 'invalid-query' } };
          return;
        }
        const n = Math.min(batch, total - state.read);
        yield Array.from({ length: n }, (_, i) => [state.read + i]);
        state.read += n;
        await new Promise((r) => setImmediate(r));
      }
      outcome = { row_count: state.read, running_time: 7, ...(total >= 5000 ? { rows_truncated: 5000 } : {}) };
    } finally {
      state.closed = true;
    }
  }
  const result: StreamedResults = {
    status: 'streaming',
    head: {
      data: {
        rows: [],
        cols: [],
        native_form: { query: 'SELECT n', params: [] },
        results_timezone: 'UTC',
        results_metadata: { columns: [] },
        insights: null,
      },
      status: 'completed',
      context: 'ad-hoc',
      json_query: { database: 1, type: 'native', native: { query: 'SELECT n' } },
      started_at: '2026-01-01T00:00:00.000Z',
      database_id: 1,
    },
    rows: rows(),
    outcome: () => outcome,
    close: async () => void (state.closed = true),
  };
  return { result, state };
}

describe('writeResultJson', () => {
  let server: http.Server;
  let url: string;
  let next: () => StreamedResults | object;
  let written: Promise<void>;

  beforeAll(async () => {
    const app = express();
    app.get('/', (_req, res) => {
      written = writeResultJson(res, 202, next());
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const get = async () => {
    const res = await fetch(url);
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  it('sends a small result as one body with its length, rows first', async () => {
    next = () => streamed(3).result;
    const res = await get();
    expect(res.status).toBe(202);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(res.text)));
    expect(res.text.startsWith('{"data":{"rows":[[0],[1],[2]],"cols":[]')).toBe(true);
    expect(JSON.parse(res.text)).toMatchObject({ status: 'completed', row_count: 3, running_time: 7, data: { rows: [[0], [1], [2]] } });
  });

  it('streams a large result as valid JSON with the figures known at the end', async () => {
    next = () => streamed(5000).result;
    const res = await get();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const body = JSON.parse(res.text);
    expect(body.data.rows).toHaveLength(5000);
    expect(body.data.rows[4999]).toEqual([4999]);
    expect(body).toMatchObject({
      status: 'completed',
      row_count: 5000,
      running_time: 7,
      data: { rows_truncated: 5000, native_form: { query: 'SELECT n' } },
    });
  });

  it('ends the rows with status failed when the database fails after rows went out', async () => {
    next = () => streamed(10_000, { failAfter: 3000 }).result;
    const body = JSON.parse((await get()).text);
    expect(body.data.rows).toHaveLength(3000);
    expect(body).toMatchObject({ status: 'failed', error: 'division by zero', error_type: 'invalid-query', row_count: 3000 });
  });

  it('answers a result that is already whole as it is', async () => {
    next = () => ({ status: 'failed', error: 'no such table', data: { rows: [], cols: [] } });
    const res = await get();
    expect([res.status, JSON.parse(res.text).error]).toEqual([202, 'no such table']);
  });

  it('stops reading (closing the query) when the client goes away', async () => {
    const { result, state } = streamed(50_000_000, { batch: 5000 });
    next = () => result;
    const controller = new AbortController();
    const res = await fetch(url, { signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await written;
    expect(state.closed).toBe(true);
    expect(state.read).toBeLessThan(50_000_000);
  });
});
