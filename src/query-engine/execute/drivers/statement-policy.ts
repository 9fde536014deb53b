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

/** Code that reaches outside the database inside an otherwise reading statement. */
const BLOCKED_CODE: Record<Engine, RegExp | null> = {
  postgres: null,
  mysql: /\bINTO\s+(OUTFILE|DUMPFILE)\b/i,
  sqlite: null,
  duckdb: null,
};

const XML_OF_QUERIES = ['query', 'cursor', 'table', 'schema', 'database'].flatMap((of) =>
  ['_to_xml', '_to_xmlschema', '_to_xml_and_xmlschema'].map((suffix) => `${of}${suffix}`),
);
const LARGE_OBJECTS = [
  'lo_import',
  'lo_export',
  'lo_get',
  'lo_put',
  'lo_from_bytea',
  'lo_open',
  'lo_close',
  'lo_creat',
  'lo_create',
  'lo_unlink',
  'lo_lseek',
  'lo_lseek64',
  'lo_tell',
  'lo_tell64',
  'lo_truncate',
  'lo_truncate64',
  'loread',
  'lowrite',
];

/**
 * Functions that reach outside the database or around the read-only transaction, by name as the scanner reports
 * calls (lower-cased, unquoted, last part of a qualified name): whole names, and prefixes of system families.
 * Postgres: server files (pg_read_file, pg_ls_*, adminpack's pg_file_*), large objects (lo_import/lo_export read
 * and write server files; the others create, read and change objects), dblink (its own connection, outside READ
 * ONLY), query_to_xml and its siblings (they run a query given as text, which no check here sees), set_config
 * (settings that would stay on a pooled connection), and signals to other sessions or the server.
 * A name not called (a column, `"pg_read_file"` as an alias) is not refused.
 */
const BLOCKED_FUNCTIONS: Record<Engine, { names: string[]; prefixes: string[] }> = {
  postgres: {
    names: [
      'pg_stat_file',
      'pg_logdir_ls',
      'set_config',
      'pg_terminate_backend',
      'pg_cancel_backend',
      'pg_reload_conf',
      'pg_rotate_logfile',
      'pg_promote',
      ...LARGE_OBJECTS,
      ...XML_OF_QUERIES,
    ],
    prefixes: ['pg_read_', 'pg_ls_', 'pg_file_', 'dblink'],
  },
  // LOAD_FILE reads server files; sys_exec/sys_eval are the usual command-running UDFs.
  mysql: { names: ['load_file', 'sys_exec', 'sys_eval'], prefixes: [] },
  // The file functions of SQLite's fileio extension, extension loading, and the tokenizer pointer trick.
  sqlite: { names: ['load_extension', 'readfile', 'writefile', 'fts3_tokenizer'], prefixes: [] },
  duckdb: { names: [], prefixes: [] },
};

function blockedCall(engine: Engine, calls: string[]): string | undefined {
  const { names, prefixes } = BLOCKED_FUNCTIONS[engine];
  for (const c of new Set(calls)) {
    if (names.includes(c) || prefixes.some((p) => c.startsWith(p))) return c;
  }
  return undefined;
}

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
  const call = blockedCall(engine, scanned.calls);
  if (call) {
    throw new StatementRejectedError(
      `This statement is not allowed: ${call}() would reach files, connections or settings outside the query.`,
      'statement-not-allowed',
    );
  }
  if (readOnly && !READING_KEYWORDS[engine].includes(keyword)) {
    throw new StatementRejectedError(`Only statements that read data are allowed here, not ${keyword || 'this statement'}.`, 'read-only');
  }
  return scanned;
}
