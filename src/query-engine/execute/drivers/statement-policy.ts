import type { Engine } from './driver';
import { StatementRejectedError } from './errors';
import { scanSql, type ScannedSql } from './sql-scan';

/**
 * What we refuse before a statement reaches the database. The databases enforce the real limits (read-only
 * transactions and handles, DuckDB without file access, MySQL without LOCAL INFILE); these checks make the
 * common refusals clear and close what a read-only transaction does not (files written by the server).
 */
const READING_KEYWORDS: Record<Engine, string[]> = {
  postgres: ['SELECT', 'WITH', 'VALUES', 'TABLE', 'SHOW', 'EXPLAIN', '('],
  mysql: ['SELECT', 'WITH', 'VALUES', 'TABLE', 'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN', '('],
  sqlite: ['SELECT', 'WITH', 'VALUES', 'EXPLAIN', '('],
  duckdb: ['SELECT', 'WITH', 'VALUES', 'TABLE', 'FROM', 'SHOW', 'DESCRIBE', 'SUMMARIZE', 'EXPLAIN', 'PIVOT', 'UNPIVOT', '('],
};

/** Statements that reach outside the database (other files, extensions, the server's file system). */
const BLOCKED_KEYWORDS: Record<Engine, string[]> = {
  postgres: ['COPY'],
  mysql: ['LOAD'],
  sqlite: ['ATTACH', 'DETACH', 'VACUUM'],
  duckdb: ['ATTACH', 'DETACH', 'INSTALL', 'LOAD', 'FORCE', 'COPY', 'EXPORT', 'IMPORT'],
};

const BLOCKED_CODE: Record<Engine, RegExp | null> = {
  postgres: /\b(pg_read_file|pg_read_binary_file|pg_ls_dir|pg_stat_file|lo_import|lo_export)\s*\(/i,
  mysql: /\bINTO\s+(OUTFILE|DUMPFILE)\b|\bLOAD_FILE\s*\(/i,
  sqlite: /\bload_extension\s*\(/i,
  duckdb: null,
};

export function checkStatement(engine: Engine, sql: string, readOnly: boolean): ScannedSql {
  const scanned = scanSql(sql, engine);
  if (scanned.statements === 0) throw new StatementRejectedError('The query is empty.', 'empty-query');
  if (scanned.statements > 1) {
    throw new StatementRejectedError('Only one SQL statement is allowed per query.', 'multiple-statements');
  }
  const keyword = scanned.firstKeyword ?? '';
  const blockedCode = BLOCKED_CODE[engine];
  if (BLOCKED_KEYWORDS[engine].includes(keyword) || (blockedCode && blockedCode.test(scanned.code))) {
    throw new StatementRejectedError(
      'This statement is not allowed: it would reach files or extensions outside the database.',
      'statement-not-allowed',
    );
  }
  if (readOnly && !READING_KEYWORDS[engine].includes(keyword)) {
    throw new StatementRejectedError(
      `Only statements that read data are allowed here, not ${keyword || 'this statement'}.`,
      'read-only',
    );
  }
  return scanned;
}
