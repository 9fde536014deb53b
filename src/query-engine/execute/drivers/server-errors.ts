import type { ServerDetails } from './details';
import { ConnectionError, QueryError, WarehouseError } from './errors';

interface DriverFailure {
  code?: string | number;
  errno?: number;
  message?: string;
}

/** Why connecting to a Postgres or MySQL server failed, in words for the user. */
export function connectionFailure(error: unknown, d: ServerDetails): ConnectionError {
  if (error instanceof ConnectionError) return error;
  const e = (error ?? {}) as DriverFailure;
  const code = String(e.code ?? '');
  const message = oneLine(e.message ?? String(error));
  const where = `host ${d.host}:${d.port}`;
  switch (code) {
    case 'ECONNREFUSED':
      return new ConnectionError(`Could not connect to ${where}: connection refused.`, 'port');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ConnectionError(`Could not connect to ${where}: unknown host.`, 'host');
    case 'ETIMEDOUT':
    case 'ECONNABORTED':
      return new ConnectionError(`Could not connect to ${where}: timed out.`, 'host');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new ConnectionError(`Could not connect to ${where}: host unreachable.`, 'host');
    case 'ECONNRESET':
      return new ConnectionError(`Could not connect to ${where}: the server closed the connection.`);
    case '28P01': // postgres invalid_password
    case 'ER_ACCESS_DENIED_ERROR':
      return new ConnectionError(`Password authentication failed for user "${d.user}".`, 'password');
    case '3D000': // postgres invalid_catalog_name
    case 'ER_BAD_DB_ERROR':
      return new ConnectionError(`Database "${d.dbname}" does not exist.`, 'dbname');
    case 'ER_DBACCESS_DENIED_ERROR':
      return new ConnectionError(`User "${d.user}" may not access database "${d.dbname}".`, 'user');
  }
  if (/timeout/i.test(message)) return new ConnectionError(`Could not connect to ${where}: timed out.`);
  if (/ssl/i.test(message)) return new ConnectionError(`Could not connect to ${where}: ${message}`);
  return new ConnectionError(`Could not connect to ${where}: ${message}`);
}

/** A failure while a statement ran: ours pass through, network failures become ConnectionError. */
export function statementFailure(error: unknown): WarehouseError {
  if (error instanceof WarehouseError) return error;
  const e = (error ?? {}) as DriverFailure;
  const code = e.code === undefined ? undefined : String(e.code);
  const message = oneLine(e.message ?? String(error));
  if (code && /^E[A-Z]+$/.test(code) && !code.startsWith('ER_')) {
    return new ConnectionError(`Lost the connection to the database: ${message}`);
  }
  if (/Connection terminated|closed state|not queryable/i.test(message)) {
    return new ConnectionError(`Lost the connection to the database: ${message}`);
  }
  return new QueryError(message, code);
}

function oneLine(s: string): string {
  return s.split('\n')[0].trim();
}
