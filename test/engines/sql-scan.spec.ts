import { StatementRejectedError } from '../../src/query-engine/execute/drivers';
import { questionMarksToDollars, scanSql } from '../../src/query-engine/execute/drivers/sql-scan';
import { checkStatement } from '../../src/query-engine/execute/drivers/statement-policy';
import type { Engine } from '../../src/query-engine/execute/drivers/driver';
import {
  fractionSuffix,
  isoFromEpochMicros,
  isoFromSqlTime,
  isoFromSqlTimestamp,
  safeInteger,
  float32Number,
} from '../../src/query-engine/execute/drivers/values';
import { baseTypeFor } from '../../src/query-engine/execute/drivers/base-types';

const dollars = (sql: string) => questionMarksToDollars(sql, scanSql(sql, 'postgres'));

describe('SQL scanning', () => {
  it('rewrites ? placeholders for Postgres outside literals, identifiers and comments', () => {
    expect(dollars('SELECT ?, \'?\', "a?", ? -- ?\n /* ? /* ? */ ? */ , ?')).toEqual({
      sql: 'SELECT $1, \'?\', "a?", $2 -- ?\n /* ? /* ? */ ? */ , $3',
      count: 3,
    });
    expect(dollars("SELECT $$ ? $$, $tag$ ?'$ $tag$, E'\\' ?', ?")).toEqual({
      sql: "SELECT $$ ? $$, $tag$ ?'$ $tag$, E'\\' ?', $1",
      count: 1,
    });
    expect(dollars("SELECT doc ?? 'a', doc ??| array['a'], ?")).toEqual({ sql: "SELECT doc ? 'a', doc ?| array['a'], $1", count: 1 });
    expect(dollars("SELECT 'it''s ?', ?")).toEqual({ sql: "SELECT 'it''s ?', $1", count: 1 });
  });

  it('counts statements, ignoring semicolons in literals, identifiers and comments', () => {
    expect(scanSql("SELECT ';' ; ", 'postgres').statements).toBe(1);
    expect(scanSql('SELECT 1; SELECT 2', 'postgres').statements).toBe(2);
    expect(scanSql("SELECT 'a\\'; DROP TABLE x; --'", 'mysql').statements).toBe(1);
    expect(scanSql("SELECT 'a\\'; DROP TABLE x; --'", 'postgres').statements).toBe(2);
    expect(scanSql("SELECT E'a\\'; DROP TABLE x; --'", 'postgres').statements).toBe(1);
    expect(scanSql('SELECT [a;b] FROM t', 'sqlite').statements).toBe(1);
    expect(scanSql('SELECT `a;b` FROM t', 'mysql').statements).toBe(1);
    expect(scanSql('SELECT 1 # ; DROP\n', 'mysql').statements).toBe(1);
    expect(scanSql('SELECT 1 --; DROP', 'mysql').statements).toBe(2);
    expect(scanSql('SELECT $x$;$x$', 'duckdb').statements).toBe(1);
    expect(scanSql('-- only a comment', 'sqlite').statements).toBe(0);
  });

  it('treats MySQL executable comments as code', () => {
    const scanned = scanSql("SELECT 1 /*!50000 INTO OUTFILE '/tmp/x' */", 'mysql');
    expect(scanned.code).toMatch(/INTO OUTFILE/);
    expect(() => checkStatement('mysql', "SELECT 1 /*!50000 INTO OUTFILE '/tmp/x' */", false)).toThrow(StatementRejectedError);
    expect(scanSql('SELECT 1 /*! ; DROP TABLE t */', 'mysql').statements).toBe(2);
  });

  it('finds the first keyword after comments and parentheses', () => {
    expect(scanSql('  /* x */ -- y\n (select 1)', 'postgres').firstKeyword).toBe('(');
    expect(scanSql('\n with x as (select 1) select * from x', 'duckdb').firstKeyword).toBe('WITH');
  });
});

describe('statement policy', () => {
  it('allows reading statements in read-only mode and refuses the rest', () => {
    expect(() => checkStatement('postgres', 'SELECT 1', true)).not.toThrow();
    expect(() => checkStatement('postgres', 'EXPLAIN SELECT 1', true)).not.toThrow();
    for (const sql of ['UPDATE t SET a = 1', 'DELETE FROM t', 'CREATE TABLE x (a int)', 'SET search_path = x', 'COMMIT']) {
      expect(() => checkStatement('postgres', sql, true)).toThrow(StatementRejectedError);
    }
    expect(() => checkStatement('duckdb', 'FROM t', true)).not.toThrow();
  });

  it('refuses empty queries, several statements and file access', () => {
    expect(() => checkStatement('sqlite', '  -- nothing ', false)).toThrow('The query is empty.');
    expect(() => checkStatement('sqlite', 'SELECT 1; SELECT 2', false)).toThrow('Only one SQL statement is allowed per query.');
    expect(() => checkStatement('sqlite', "attach 'x.db' as x", false)).toThrow(/not allowed/);
    expect(() => checkStatement('sqlite', "VACUUM INTO '/tmp/copy.db'", false)).toThrow(/not allowed/);
    expect(() => checkStatement('postgres', "SELECT pg_read_file('/etc/passwd')", true)).toThrow(/not allowed/);
    expect(() => checkStatement('mysql', "SELECT LOAD_FILE('/etc/passwd')", true)).toThrow(/not allowed/);
    expect(() => checkStatement('duckdb', 'INSTALL httpfs', false)).toThrow(/not allowed/);
    expect(() => checkStatement('postgres', "SELECT 'pg_read_file(' AS x", true)).not.toThrow();
  });
});

describe('blocked functions', () => {
  const refused = (engine: Engine, sql: string) => expect(() => checkStatement(engine, sql, true)).toThrow(/not allowed/);
  const allowed = (engine: Engine, sql: string) => expect(() => checkStatement(engine, sql, true)).not.toThrow();

  it('names what SQL calls, quoted, qualified or not', () => {
    expect(scanSql('SELECT lower(a), "Pg_Read_File" (b), pg_catalog."x" /* c */ (1), s.f\n(2), \'g(\' FROM t', 'postgres').calls).toEqual([
      'lower',
      'pg_read_file',
      'x',
      'f',
    ]);
    expect(scanSql('SELECT U&"\\0070g_read_file"(1), U&"!0070g" UESCAPE \'!\' (2), U&"\\+000070x"(3)', 'postgres').calls).toEqual([
      'pg_read_file',
      'pg',
      'px',
    ]);
    expect(scanSql('SELECT `load_file`(a), "load_file"(b), /*!LOAD_FILE*/(c)', 'mysql').calls).toEqual([
      'load_file',
      'load_file',
      'load_file',
    ]);
    expect(scanSql('SELECT [load_extension](a), "x""y"(b)', 'sqlite').calls).toEqual(['load_extension', 'x"y']);
  });

  it('refuses Postgres file, large-object, dblink and query-as-text functions however they are written', () => {
    for (const sql of [
      'SELECT "pg_read_file"(\'/etc/passwd\')',
      "SELECT pg_catalog.pg_read_file('/etc/passwd')",
      'SELECT "pg_catalog"."pg_read_file"(\'/etc/passwd\')',
      "SELECT PG_READ_FILE /* x */ ('/etc/passwd')",
      'SELECT U&"pg\\005fread\\005ffile"(\'/etc/passwd\')',
      "SELECT U&\"pg!005fread!005ffile\" UESCAPE '!' ('/etc/passwd')",
      "SELECT pg_read_binary_file('/etc/passwd')",
      "SELECT * FROM pg_ls_dir('.')",
      'SELECT * FROM pg_ls_logdir()',
      'SELECT * FROM pg_ls_waldir()',
      'SELECT * FROM pg_ls_tmpdir()',
      "SELECT pg_stat_file('postgresql.conf')",
      "SELECT dblink_exec('dbname=postgres', 'DROP TABLE t')",
      "SELECT * FROM dblink('dbname=postgres', 'DELETE FROM t RETURNING 1') AS x(a int)",
      "SELECT dblink_connect('c', 'dbname=postgres')",
      "SELECT query_to_xml('SELECT pg_read_file(''/etc/passwd'')', true, true, '')",
      "SELECT query_to_xml_and_xmlschema('SELECT 1', true, true, '')",
      "SELECT query_to_xmlschema('SELECT 1', true, true, '')",
      "SELECT cursor_to_xml('c', 1, true, true, '')",
      "SELECT table_to_xml('t', true, true, '')",
      "SELECT schema_to_xml('public', true, true, '')",
      "SELECT database_to_xml(true, true, '')",
      "SELECT lo_import('/etc/passwd')",
      "SELECT lo_export(1, '/tmp/x')",
      'SELECT lo_get(1)',
      "SELECT lo_put(1, 0, 'x')",
      "SELECT lo_from_bytea(0, 'x')",
      'SELECT lo_open(1, 262144)',
      'SELECT loread(0, 10)',
      "SELECT lowrite(0, 'x')",
      'SELECT lo_create(0)',
      'SELECT lo_unlink(1)',
      "SELECT set_config('search_path', 'x', false)",
      'SELECT pg_terminate_backend(1)',
    ]) {
      refused('postgres', sql);
    }
  });

  it('lets ordinary functions and names that are not calls through', () => {
    allowed('postgres', 'SELECT lower(a), log(2), "pg_read_file", \'pg_read_file(\' AS x, lo AS y FROM t');
    allowed('postgres', 'SELECT count(*) FROM "lo_things" WHERE "xml_col" IS NOT NULL');
    allowed('postgres', "SELECT xmlelement(name a, 'b'), to_char(now(), 'YYYY')");
    allowed('postgres', 'WITH lo_data(a) AS (SELECT 1) SELECT a AS "pg_read_file" FROM lo_data');
    allowed('mysql', "SELECT 'LOAD_FILE(' AS x, `load_file` FROM t");
    allowed('sqlite', 'SELECT [load_extension] FROM t');
  });

  it('refuses MySQL and SQLite file functions however they are quoted', () => {
    for (const sql of [
      "SELECT `LOAD_FILE`('/etc/passwd')",
      "SELECT load_file /* x */ ('/etc/passwd')",
      "SELECT /*!50000 LOAD_FILE*/('/etc/passwd')",
      'SELECT "LOAD_FILE"(\'/etc/passwd\')',
      "SELECT mysql.load_file('/etc/passwd')",
      "SELECT 1 INTO /* x */ OUTFILE '/tmp/x'",
    ]) {
      refused('mysql', sql);
    }
    for (const sql of [
      'SELECT "load_extension"(\'x\')',
      "SELECT [load_extension]('x')",
      "SELECT `load_extension`('x')",
      "SELECT readfile('/etc/passwd')",
      "SELECT writefile('/tmp/x', 'y')",
    ]) {
      refused('sqlite', sql);
    }
  });
});

describe('value conventions', () => {
  it('formats fractions, timestamps and times the same way for every engine', () => {
    expect(['', '0', '5', '123', '123000', '1234', '123456789'].map(fractionSuffix)).toEqual([
      '',
      '',
      '.500',
      '.123',
      '.123',
      '.123400',
      '.123456',
    ]);
    expect(isoFromSqlTimestamp('2024-01-02 03:04:05', false)).toBe('2024-01-02T03:04:05');
    expect(isoFromSqlTimestamp('2024-01-02 03:04:05.120+00', true)).toBe('2024-01-02T03:04:05.120Z');
    expect(isoFromSqlTimestamp('2024-01-02 01:30:00+05:30', true)).toBe('2024-01-01T20:00:00Z');
    expect(isoFromSqlTimestamp('2024-01-02 03:04', false)).toBe('2024-01-02T03:04:00');
    expect(isoFromSqlTimestamp('infinity', true)).toBe('infinity');
    expect(isoFromSqlTimestamp('0044-03-15 12:00:00 BC', false)).toBe('0044-03-15 12:00:00 BC');
    expect(isoFromSqlTime('23:59:59.5')).toBe('23:59:59.500');
    expect(isoFromEpochMicros(1_704_164_645_000_001n, true)).toBe('2024-01-02T03:04:05.000001Z');
    expect(isoFromEpochMicros(-1n, false)).toBe('1969-12-31T23:59:59.999999');
  });

  it('writes every instant from year 1 to 9999 as Date would, to the microsecond', () => {
    // The oracle: BigInt arithmetic and a Date per value, what the conversion did before its fast path.
    const oracle = (micros: bigint, tz: boolean) => {
      const sub = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
      const iso = new Date(Number((micros - sub) / 1_000_000n) * 1000).toISOString().slice(0, 19);
      const six = String(sub).padStart(6, '0');
      const fraction = sub === 0n ? '' : six.endsWith('000') ? `.${six.slice(0, 3)}` : `.${six}`;
      return `${iso}${fraction}${tz ? 'Z' : ''}`;
    };
    const min = -62_135_596_800_000_000n;
    const max = 253_402_300_799_999_999n;
    const safe = BigInt(Number.MAX_SAFE_INTEGER);
    const edges = [
      0n,
      -1n,
      1n,
      999n,
      1000n,
      86_399_999_999n,
      86_400_000_000n,
      -86_400_000_000n,
      min,
      max,
      safe,
      -safe,
      safe + 1n,
      -safe - 1n,
    ];
    const random = Array.from({ length: 20_000 }, (_, i) => {
      const span = i % 2 ? max - min : 2n * safe;
      const r = BigInt(Math.floor(Math.random() * 2 ** 52)) * BigInt(Math.floor(Math.random() * 2 ** 20));
      const micros = (i % 2 ? min : -safe) + (r % span);
      // Whole seconds and whole milliseconds as often as not: most stored timestamps are.
      return i % 3 === 0 ? micros - (micros % 1_000_000n) : i % 3 === 1 ? micros - (micros % 1000n) : micros;
    });
    for (const micros of [...edges, ...random]) {
      expect([micros, isoFromEpochMicros(micros, false)]).toEqual([micros, oracle(micros, false)]);
      expect(isoFromEpochMicros(micros, true)).toBe(oracle(micros, true));
    }
    expect(isoFromEpochMicros(min - 1n, false)).toBeNull();
    expect(isoFromEpochMicros(max + 1n, true)).toBeNull();
  });

  it('keeps integers exact and floats short', () => {
    expect(safeInteger('9007199254740991')).toBe(9007199254740991);
    expect(safeInteger('9007199254740993')).toBe('9007199254740993');
    expect(safeInteger(-5n)).toBe(-5);
    expect(float32Number(Math.fround(0.1))).toBe(0.1);
    expect(float32Number(NaN)).toBeNull();
  });

  it('maps database types to base types per engine', () => {
    expect(baseTypeFor('postgres', '_int4')).toBe('type/Array');
    expect(baseTypeFor('postgres', 'timestamptz')).toBe('type/DateTimeWithLocalTZ');
    expect(baseTypeFor('mysql', 'TIMESTAMP')).toBe('type/DateTimeWithLocalTZ');
    expect(baseTypeFor('mysql', 'BIGINT UNSIGNED')).toBe('type/BigInteger');
    expect(baseTypeFor('sqlite', 'NVARCHAR(20)')).toBe('type/Text');
    expect(baseTypeFor('sqlite', 'DATETIME')).toBe('type/DateTime');
    expect(baseTypeFor('duckdb', 'DECIMAL(18,3)')).toBe('type/Decimal');
    expect(baseTypeFor('duckdb', 'INTEGER[]')).toBe('type/Array');
    expect(baseTypeFor('duckdb', 'STRUCT(a INTEGER)')).toBe('type/*');
  });
});
