import type { QueryResult, ResultColumn, RowStream } from './driver';

/** Rows per batch where the driver chooses: large enough to amortize a round trip, small enough to stay cheap. */
export const STREAM_BATCH_ROWS = 2000;

export interface BatchSource {
  /** The next batch of converted rows, or null at the end. Throws the driver's own errors. */
  next(): Promise<unknown[][] | null>;
  /** Called exactly once, at the end, on error or on close(): gives the connection back. */
  finish(): Promise<void>;
}

/** A RowStream over a driver's batch source, with the once-only cleanup every driver needs. */
export function rowStream(columns: ResultColumn[], source: BatchSource): RowStream {
  let finished: Promise<void> | null = null;
  const finish = () => (finished ??= source.finish());
  async function* batches(): AsyncGenerator<unknown[][]> {
    try {
      for (let batch = await source.next(); batch; batch = await source.next()) {
        if (batch.length) yield batch;
      }
    } finally {
      await finish();
    }
  }
  return { columns, batches: batches(), close: () => finish() };
}

/** Reads a whole stream: query() for drivers whose streaming path is also their fastest. */
export async function collectRows(stream: RowStream): Promise<QueryResult> {
  const rows: unknown[][] = [];
  for await (const batch of stream.batches) {
    for (const row of batch) rows.push(row);
  }
  return { columns: stream.columns, rows };
}
