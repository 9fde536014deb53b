/**
 * What kind of failure a warehouse error is: each class declares its own, so the HTTP edge answers every kind
 * in one exhaustive switch (a new kind does not compile until it is given an answer there).
 */
export type WarehouseErrorKind = 'details' | 'connection' | 'query' | 'cancelled' | 'timeout' | 'pool-timeout' | 'queue-timeout';

/**
 * Errors of the warehouse layer. Every message is meant for the user as is: it names what failed and carries
 * no stack or driver internals. The Nest edge (ApiExceptionFilter) maps them to HTTP by their kind.
 */
export abstract class WarehouseError extends Error {
  abstract readonly kind: WarehouseErrorKind;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The connection details are invalid; `field` names the offending key. */
export class DetailsError extends WarehouseError {
  readonly kind = 'details';

  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The database could not be reached or refused us (host, credentials, missing database or file). `field` names the
 * connection detail most likely at fault (`host`, `port`, `user`, `password`, `dbname`, `db`) when the cause says so.
 */
export class ConnectionError extends WarehouseError {
  readonly kind = 'connection';

  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The database rejected the statement (syntax, missing table, constraint...). `code` is the engine's code. */
export class QueryError extends WarehouseError {
  readonly kind = 'query';

  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** We refused the statement before it reached the database (second statement, write in read-only mode...). */
export class StatementRejectedError extends QueryError {}

export class QueryCancelledError extends WarehouseError {
  readonly kind = 'cancelled';

  constructor() {
    super('The query was cancelled.');
  }
}

export class QueryTimeoutError extends WarehouseError {
  readonly kind = 'timeout';

  constructor(readonly timeoutMs: number) {
    super(`The query took longer than ${formatSeconds(timeoutMs)} and was cancelled.`);
  }
}

/** No pooled connection became free in time: the server's capacity, not the caller's query, is the problem. */
export class PoolTimeoutError extends WarehouseError {
  readonly kind = 'pool-timeout';

  constructor(readonly waitedMs: number) {
    super(`Timed out waiting for a connection from the pool (waited ${formatSeconds(waitedMs)}).`);
  }
}

/**
 * The query waited its longest for a query slot on the database (modules/warehouse/query-slots.ts): the server's
 * capacity again, answered like PoolTimeoutError.
 */
export class QueueTimeoutError extends WarehouseError {
  readonly kind = 'queue-timeout';

  constructor(readonly waitedMs: number) {
    super(`Timed out waiting for a turn to run the query (waited ${formatSeconds(waitedMs)}). Try again shortly.`);
  }
}

/** Every concrete warehouse error (a new class belongs here too), for switches over `kind` that narrow to the class. */
export type AnyWarehouseError =
  DetailsError | ConnectionError | QueryError | QueryCancelledError | QueryTimeoutError | PoolTimeoutError | QueueTimeoutError;

/** Matches by class; the union above names the classes a `WarehouseError` can be. */
export function isWarehouseError(e: unknown): e is AnyWarehouseError {
  return e instanceof WarehouseError;
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} second${s === 1 ? '' : 's'}`;
}
