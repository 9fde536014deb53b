import type { Connection, ConnectionOptions } from 'mysql2/promise';
import { tlsOptions, type ServerDetails } from './details';

/** No LOCAL INFILE, no multiple statements; dates, big integers and JSON arrive as text for exact conversion. */
export function mysqlConnectionOptions(d: ServerDetails, connectTimeoutMs = 10_000): ConnectionOptions {
  return {
    host: d.host,
    port: d.port,
    database: d.dbname,
    user: d.user,
    password: d.password ?? '',
    ssl: tlsOptions(d),
    connectTimeout: connectTimeoutMs,
    flags: ['-LOCAL_FILES', '-MULTI_STATEMENTS'],
    multipleStatements: false,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    jsonStrings: true,
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
    maxPreparedStatements: 256,
  };
}

/** A connection with those options. mysql2 is loaded here on first use: 2.5 MB of heap in a server that may never reach MySQL. */
export async function connectMysql(d: ServerDetails, connectTimeoutMs?: number): Promise<Connection> {
  const { createConnection } = await import('mysql2/promise');
  return createConnection(mysqlConnectionOptions(d, connectTimeoutMs));
}
