import type { Response } from 'express';

/** Aborts when the client goes away before the answer is written: the query is then cancelled on the database. */
export function abortOnDisconnect(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
