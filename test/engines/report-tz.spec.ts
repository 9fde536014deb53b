import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { compilerFor } from '../../src/query-engine/compile';
import { QueryCompileError } from '../../src/query-engine/compile/contract';
import { reportTz, SqliteExecutor } from '../../src/query-engine/execute/drivers/sqlite-executor';
import { QueryError } from '../../src/query-engine/execute/drivers/errors';
import { convertsToNamedZone } from '../../src/query-engine/execute/drivers/mysql.driver';
import type { InnerQuery } from '../../src/query-engine/mbql/types';
import { SNAPSHOT_FINGERPRINTS, sampleSnapshot } from './query-cases/metadata';
import { O, ORDERS } from './query-cases/types';

describe('report_tz (the SQLite report time zone function)', () => {
  it('follows the DST changes of America/New_York', () => {
    const ny = (ts: string) => reportTz(ts, 'America/New_York');
    expect(ny('2024-03-10 06:59:59')).toBe('2024-03-10 01:59:59');
    expect(ny('2024-03-10 07:00:00')).toBe('2024-03-10 03:00:00');
    expect(ny('2024-11-03 05:30:00')).toBe('2024-11-03 01:30:00');
    expect(ny('2024-11-03 06:30:00')).toBe('2024-11-03 01:30:00');
    expect(ny('2024-11-03 07:00:00')).toBe('2024-11-03 02:00:00');
    expect(ny('2024-01-01 04:59:59')).toBe('2023-12-31 23:59:59');
  });

  it('handles half-hour zones, ISO text, offsets and fractions', () => {
    expect(reportTz('2024-01-01 18:30:00', 'Asia/Kolkata')).toBe('2024-01-02 00:00:00');
    expect(reportTz('2024-01-01T00:00:00Z', 'Asia/Kolkata')).toBe('2024-01-01 05:30:00');
    expect(reportTz('2024-01-01 00:00:00+05:30', 'UTC')).toBe('2023-12-31 18:30:00');
    expect(reportTz('2024-06-01 12:00:00.250', 'UTC')).toBe('2024-06-01 12:00:00.250');
    expect(reportTz('2024-06-01', 'Asia/Kolkata')).toBe('2024-06-01 05:30:00');
  });

  it('gives NULL for NULL and for text that is no timestamp, and refuses unknown zones', () => {
    expect(reportTz(null, 'America/New_York')).toBeNull();
    expect(reportTz('not a date', 'America/New_York')).toBeNull();
    expect(() => reportTz('2024-01-01 00:00:00', 'Mars/Olympus')).toThrow(/unknown time zone/);
  });

  it('is registered in the SQLite worker', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-tz-'));
    const file = path.join(dir, 'x.db');
    new Database(file).close();
    const ex = await SqliteExecutor.start(file, false);
    try {
      const r = await ex.run({
        sql: "SELECT report_tz('2024-03-10 07:00:00', ?), report_tz(NULL, 'UTC')",
        params: ['America/New_York'],
        readOnly: true,
      });
      expect(r.rows).toEqual([['2024-03-10 03:00:00', null]]);
      await expect(ex.run({ sql: "SELECT report_tz('2024-03-10 07:00:00', 'Nowhere/Else')", params: [], readOnly: true })).rejects.toThrow(
        QueryError,
      );
    } finally {
      ex.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('report time zone names reach SQL only after validation', () => {
  const query = { 'source-table': ORDERS, breakout: [O('CREATED_AT', { 'temporal-unit': 'day' })], aggregation: [['count']] } as InnerQuery;
  it.each(['sqlite', 'postgres', 'duckdb', 'mysql'] as const)('refuses a hostile zone on %s', (engine) => {
    for (const zone of ["UTC') OR 1=1 --", "America/New_York'", 'Not/AZone', '../../etc']) {
      expect(() => compilerFor(engine).compile(query, sampleSnapshot(engine, null, SNAPSHOT_FINGERPRINTS), { timezone: zone })).toThrow(
        QueryCompileError,
      );
    }
  });
});

describe('MySQL named zone conversions (refused by the driver without the time zone tables)', () => {
  it('recognizes the conversion the MySQL dialect writes, and only that', () => {
    const query = {
      'source-table': ORDERS,
      breakout: [O('CREATED_AT', { 'temporal-unit': 'hour-of-day' })],
      aggregation: [['count']],
    } as InnerQuery;
    const compile = (timezone: string | null) =>
      compilerFor('mysql').compile(query, sampleSnapshot('mysql', null, SNAPSHOT_FINGERPRINTS), { timezone }).sql;
    expect(convertsToNamedZone(compile('America/New_York'))).toBe(true);
    expect(convertsToNamedZone(compile('Asia/Kolkata'))).toBe(true);
    expect(convertsToNamedZone(compile(null))).toBe(false);
    expect(convertsToNamedZone(compile('UTC'))).toBe(false);
    expect(convertsToNamedZone("SELECT CONVERT_TZ(x, '+00:00', '+05:30') FROM t")).toBe(false);
  });
});
