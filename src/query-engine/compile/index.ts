import type { Engine } from '../types';
import { MbqlSqlCompiler } from './compiler';
import type { SqlCompiler } from './contract';
import { DuckdbDialect } from './dialects/duckdb';
import { MysqlDialect } from './dialects/mysql';
import { PostgresDialect } from './dialects/postgres';
import { SqliteDialect } from './dialects/sqlite';

export * from './contract';
export { MbqlSqlCompiler } from './compiler';

const DIALECTS = { postgres: PostgresDialect, mysql: MysqlDialect, sqlite: SqliteDialect, duckdb: DuckdbDialect };

/** The SQL compiler of an engine. */
export function compilerFor(engine: Engine): SqlCompiler {
  return new MbqlSqlCompiler(new DIALECTS[engine]());
}
