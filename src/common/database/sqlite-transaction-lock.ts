import type { DataSource, QueryRunner } from 'typeorm';
import { requestContext } from '../logging/request-context';

const WAIT_LIMIT_MS = 30_000;

/** Owner of work that runs outside any request (boot, tests calling services directly). */
const OUTSIDE_REQUESTS = {};

/**
 * TypeORM's better-sqlite3 driver shares ONE query runner among all callers. Two requests' transactions would
 * interleave on it: the second becomes a savepoint of the first, a rollback of one undoes the other, and plain
 * queries of a third request run inside whichever transaction is open. This makes the runner serial: while a
 * transaction is open, only the async context that opened it (its request) may use the runner; everyone else
 * waits until it commits or rolls back. better-sqlite3 is synchronous, so nothing is lost by waiting.
 */
export function lockSqliteTransactions(ds: DataSource): void {
  const qr: QueryRunner = ds.createQueryRunner();
  if ((qr as { __serialized?: boolean }).__serialized) return;
  (qr as { __serialized?: boolean }).__serialized = true;

  let owner: object | undefined;
  let release: () => void = () => undefined;
  let idle: Promise<void> = Promise.resolve();
  const me = () => requestContext.getStore() ?? OUTSIDE_REQUESTS;
  const waitTurn = async () => {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    while (owner !== undefined && owner !== me()) {
      // A transaction that never ends (or a caller that lost its async context) must not hang every request.
      if (Date.now() > deadline) throw new Error('Timed out waiting for another transaction on the SQLite app database');
      await Promise.race([idle, new Promise((r) => setTimeout(r, 1000).unref())]);
    }
  };

  const start = qr.startTransaction.bind(qr);
  const commit = qr.commitTransaction.bind(qr);
  const rollback = qr.rollbackTransaction.bind(qr);
  const query = qr.query.bind(qr) as (...args: unknown[]) => Promise<unknown>;

  qr.startTransaction = async (level) => {
    // Check and take in one synchronous step after the wait: several callers may wake on the same release.
    for (;;) {
      await waitTurn();
      if (owner === me()) break;
      if (owner === undefined) {
        owner = me();
        idle = new Promise((resolve) => (release = resolve));
        break;
      }
    }
    try {
      await start(level);
    } catch (e) {
      if (!qr.isTransactionActive) free();
      throw e;
    }
  };
  const free = () => {
    owner = undefined;
    release();
  };
  const ending = (end: () => Promise<void>) => async () => {
    try {
      await end();
    } finally {
      if (!qr.isTransactionActive && owner === me()) free();
    }
  };
  qr.commitTransaction = ending(commit);
  qr.rollbackTransaction = ending(rollback);
  (qr as { query: unknown }).query = async (...args: unknown[]) => {
    await waitTurn();
    return query(...args);
  };
}
