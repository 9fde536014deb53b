import type { QueryResult, ResultColumn, RowStream } from './driver';

/** Rows per batch where the driver chooses: large enough to amortize a round trip, small enough to stay cheap. */
export const STREAM_BATCH_ROWS = 2000;

export interface BatchSource {
  /** The next batch of converted rows, or null at the end. Throws the driver's own errors. */
  next(): Promise<unknown[][] | null>;
  /** Called exactly once, at the end, on error (with it) or on close(): gives the connection back. */
  finish(error?: unknown): Promise<void>;
}

/** A RowStream over a driver's batch source, with the once-only cleanup every driver needs. */
export function rowStream(columns: ResultColumn[], source: BatchSource): RowStream {
  let finished: Promise<void> | null = null;
  const finish = (error?: unknown) => (finished ??= source.finish(error));
  async function* batches(): AsyncGenerator<unknown[][]> {
    try {
      for (let batch = await source.next(); batch; batch = await source.next()) {
        if (batch.length) yield batch;
      }
    } catch (e) {
      await finish(e);
      throw e;
    } finally {
      await finish();
    }
  }
  return { columns, batches: batches(), close: () => finish() };
}

/** For engines whose client hands over whole results: the same contract, without the memory benefit. */
export async function streamOfResult(result: Promise<QueryResult>): Promise<RowStream> {
  const { columns, rows } = await result;
  let offset = 0;
  return rowStream(columns, {
    next: async () => (offset < rows.length ? rows.slice(offset, (offset += STREAM_BATCH_ROWS)) : null),
    finish: async () => undefined,
  });
}

/** Reads a whole stream: query() for drivers whose streaming path is also their fastest. */
export async function collectRows(stream: RowStream): Promise<QueryResult> {
  const rows: unknown[][] = [];
  for await (const batch of stream.batches) {
    for (const row of batch) rows.push(row);
  }
  return { columns: stream.columns, rows };
}
