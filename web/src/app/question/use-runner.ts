import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/client';
import type { DatasetResult } from '../api/dataset';

/** One run's outcome: the answer, or why there is none (an HTTP error or the query's own failure). */
export interface RunState {
  running: boolean;
  result: DatasetResult | null;
  error: string | null;
  /** Milliseconds the last run took, measured here (the server's `running_time` is the database's part). */
  elapsed: number | null;
}

const IDLE: RunState = { running: false, result: null, error: null, elapsed: null };

/**
 * Runs a query and lets the person cancel it: cancel aborts the fetch, the server sees the connection close and cancels
 * the query on the database (src/common/http/abort-on-disconnect.ts). A new run cancels the one still going.
 * The results are page state, not TanStack Query cache: they belong to this edit of this question.
 */
export function useRunner() {
  const [state, setState] = useState<RunState>(IDLE);
  const current = useRef<AbortController | null>(null);

  const run = useCallback(async (call: (signal: AbortSignal) => Promise<DatasetResult>) => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    const started = performance.now();
    setState((s) => ({ ...s, running: true, error: null }));
    try {
      const result = await call(controller.signal);
      if (controller.signal.aborted) return;
      const elapsed = Math.round(performance.now() - started);
      setState({
        running: false,
        result: result.status === 'failed' ? null : result,
        error: result.status === 'failed' ? (result.error ?? 'The query failed.') : null,
        elapsed,
      });
    } catch (e) {
      if (controller.signal.aborted) return;
      setState({ running: false, result: null, error: e instanceof ApiError || e instanceof Error ? e.message : String(e), elapsed: null });
    } finally {
      if (current.current === controller) current.current = null;
    }
  }, []);

  const cancel = useCallback(() => {
    current.current?.abort();
    current.current = null;
    setState((s) => ({ ...s, running: false, error: 'The query was cancelled.' }));
  }, []);

  // Leaving the page cancels what is running.
  useEffect(() => () => current.current?.abort(), []);

  return { ...state, run, cancel };
}
