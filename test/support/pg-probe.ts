import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { E2eWarehouse } from './e2e-warehouses';

/**
 * A Postgres e2e warehouse seen from the database's side, for tests of how many queries run there and when:
 * - gates: a probe query waits at its gate (a shared transaction-level advisory lock) while the test holds it, so
 *   queries stay in flight for as long as the test needs, with no sleeps;
 * - running(tag): the probe statements with that tag running on the database now (pg_stat_activity), a count
 *   taken on the warehouse itself. Held at a closed gate, every execution that started is there to be counted.
 * The server runs queries in read-only transactions that end in ROLLBACK, so nothing a query writes or notifies
 * could count it afterwards; advisory locks are allowed there.
 */
export interface PgProbe {
  /** A native query that waits at `gate` (0 or 1) and answers `select` (default `1 AS n`); `tag`: letters, digits, `_`. */
  sql(tag: string, opts?: { select?: string; gate?: number }): string;
  /** Closes a gate: probe queries reaching it wait until open(). */
  close(gate?: number): Promise<void>;
  open(gate?: number): Promise<void>;
  /** Statements of the probe query tagged `tag` running (or waiting at a gate) on the database now. */
  running(tag: string): Promise<number>;
  end(): Promise<void>;
}

export async function pgProbe(wh: E2eWarehouse): Promise<PgProbe> {
  const d = wh.details as { host: string; port: number; dbname: string; user: string; password?: string };
  // Advisory locks are per database: the probe connects to the warehouse's own.
  const client = new Client({ host: d.host, port: d.port, database: d.dbname, user: d.user, password: d.password });
  await client.connect();
  const prefix = `probe_${randomBytes(4).toString('hex')}`;
  const base = randomBytes(4).readUInt32BE() % 1_000_000_000;
  const marker = (tag: string) => {
    if (!/^\w+$/.test(tag)) throw new Error(`a probe tag is letters, digits and _: ${tag}`);
    return `${prefix}_${tag}_end`;
  };
  return {
    sql: (tag, { select = '1 AS n', gate = 0 } = {}) =>
      `SELECT ${select} FROM (SELECT pg_advisory_xact_lock_shared(${base + gate}) AS waited) AS ${marker(tag)}`,
    close: async (gate = 0) => void (await client.query('SELECT pg_advisory_lock($1)', [base + gate])),
    open: async (gate = 0) => void (await client.query('SELECT pg_advisory_unlock($1)', [base + gate])),
    running: async (tag) => {
      // The marker goes as a bound value (this statement's own text never matches it), its `_` taken literally.
      const rows = await client.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid() AND query LIKE '%' || $1 || '%'`,
        [marker(tag).replace(/_/g, '\\_')],
      );
      return rows.rows[0].n as number;
    },
    end: () => client.end(),
  };
}
