/**
 * Errors of the warehouse layer. Every message is meant for the user as is: it names what failed and carries
 * no stack or driver internals. The Nest edge maps them to HTTP (details/connection/query errors are 400s).
 */
export abstract class WarehouseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The connection details are invalid; `field` names the offending key. */
export class DetailsError extends WarehouseError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The database could not be reached or refused us (host, credentials, missing database or file). */
export class ConnectionError extends WarehouseError {}

/** The database rejected the statement (syntax, missing table, constraint...). `code` is the engine's code. */
export class QueryError extends WarehouseError {
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
  constructor() {
    super('The query was cancelled.');
  }
}

export class QueryTimeoutError extends WarehouseError {
  constructor(readonly timeoutMs: number) {
    super(`The query took longer than ${formatSeconds(timeoutMs)} and was cancelled.`);
  }
}

export class PoolTimeoutError extends WarehouseError {
  constructor(readonly waitedMs: number) {
    super(`Timed out waiting for a connection from the pool (waited ${formatSeconds(waitedMs)}).`);
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} second${s === 1 ? '' : 's'}`;
}
