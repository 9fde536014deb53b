import type { DatabaseMeta } from '../metadata';
import type { SqlParam } from '../types';
import type { QueryOptions, RowStream, WarehouseDriver } from './drivers/driver';
import type { RunOwner, SharedRuns } from './shared-runs';

/** What the execute stage runs: compiled SQL with its bound values, on one database. */
export interface ExecuteRequest {
  db: DatabaseMeta;
  driver: WarehouseDriver;
  sql: string;
  params: SqlParam[];
  /** The run's options but its signal (the run has its own: see SharedRuns). */
  options: Omit<QueryOptions, 'signal'>;
}

/** How runs are admitted and shared; both optional (without them a query runs at once, on its own). */
export interface ExecutePolicy {
  /** Waits for the caller's turn to run a query on the database; resolves to the function that gives the slot back. */
  slot?(db: DatabaseMeta, signal: AbortSignal): Promise<() => void>;
  /**
   * Identical queries in flight share one run, between callers of the same `scope` (see runKey); `owner`: whose query
   * slots the caller's runs take (a run still waiting for its slot is joined only by callers of the same owner).
   */
  sharing?: { runs: SharedRuns; scope(db: DatabaseMeta): Promise<string>; owner: RunOwner };
}

/**
 * The execute stage. A query identical to one in flight (same database, SQL, bound values, row cap and timeout, and
 * the same sharing scope) reads that run's rows; otherwise its run waits for the caller's query slot, then streams
 * from the driver, and gives the slot back once its rows end, fail or are closed. `signal` is the caller's: it
 * leaving cancels the run only when no one else reads it.
 */
export async function executeRun(req: ExecuteRequest, policy: ExecutePolicy, signal?: AbortSignal): Promise<RowStream> {
  const own = signal ?? new AbortController().signal;
  const start = (runSignal: AbortSignal, admitted: () => void) => startRun(req, policy, runSignal, admitted);
  if (!policy.sharing) return start(own, () => undefined);
  const { runs, scope, owner } = policy.sharing;
  return runs.stream({ driver: req.driver, dbId: req.db.id }, runKey(req, await scope(req.db)), owner, start, own);
}

/** What makes two runs the same: values are told apart by type (a bigint from a number, a Date from its text). */
export function runKey(req: ExecuteRequest, scope: string): string {
  const params = req.params.map((p) =>
    p instanceof Date ? { date: p.toISOString() } : typeof p === 'bigint' ? { bigint: p.toString() } : p,
  );
  const { maxRows, timeoutMs, readOnly } = req.options;
  return JSON.stringify([req.db.id, scope, req.sql, params, maxRows ?? null, timeoutMs ?? null, readOnly ?? false]);
}

async function startRun(req: ExecuteRequest, policy: ExecutePolicy, signal: AbortSignal, admitted: () => void): Promise<RowStream> {
  const release = policy.slot ? await policy.slot(req.db, signal) : undefined;
  admitted();
  try {
    const stream = await req.driver.stream(req.sql, req.params, { ...req.options, signal });
    return release ? releasing(stream, release) : stream;
  } catch (e) {
    release?.();
    throw e;
  }
}

/** The same rows, with the slot given back once they end, fail or are closed. */
function releasing(stream: RowStream, release: () => void): RowStream {
  async function* batches(): AsyncGenerator<unknown[][]> {
    try {
      yield* stream.batches;
    } finally {
      release();
    }
  }
  return {
    columns: stream.columns,
    batches: batches(),
    close: async () => {
      try {
        await stream.close();
      } finally {
        release();
      }
    },
  };
}
