import Database from 'better-sqlite3';
import { Client } from 'pg';

/**
 * The app's environment for counting: settings are re-read when stale on the first request after
 * SETTINGS_REFRESH_SECONDS (every request reads some, for CORS), which would add one query to whichever request
 * comes first after a slow step of the test. (Test apps run no scheduler: test-app.ts sets SYNC_CHECK_SECONDS 0.)
 */
export const STEADY_SETTINGS = { SETTINGS_REFRESH_SECONDS: '3600' };

/** The cluster-events listener's own connection (its LISTEN and 15-second heartbeat are nobody's request). */
const BACKGROUND_CLIENTS = new Set(['analytics-server-events']);

/**
 * Counts the statements sent to the app database (and any other database this process talks to) while it is on:
 * on SQLite every run of a prepared better-sqlite3 statement, on Postgres every `query` of a pg client. Both
 * are where every path ends (the ORM, its query builder, AppSql's cached statements). A Postgres cursor's FETCH
 * reads further into a statement already counted (as iterating a SQLite statement does), so it is not one.
 */
export function countQueries(): { readonly count: number; readonly texts: readonly string[]; reset(): void; restore(): void } {
  let count = 0;
  /** The statements counted, for a test that asks which ones ran. */
  const texts: string[] = [];
  const scratch = new Database(':memory:');
  const statement = Object.getPrototypeOf(scratch.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>;
  scratch.close();
  const patched: Array<[Record<string, (...a: unknown[]) => unknown>, string, (...a: unknown[]) => unknown]> = [];
  const wrap = (proto: Record<string, (...a: unknown[]) => unknown>, method: string) => {
    const original = proto[method];
    patched.push([proto, method, original]);
    proto[method] = function (this: { connectionParameters?: { application_name?: string }; source?: string }, ...args: unknown[]) {
      if (!BACKGROUND_CLIENTS.has(this.connectionParameters?.application_name ?? '') && !isFetch(args[0])) {
        count++;
        texts.push(this.source ?? textOf(args[0]));
      }
      return original.apply(this, args);
    };
  };
  for (const m of ['all', 'get', 'run', 'iterate']) wrap(statement, m);
  wrap(Client.prototype as unknown as Record<string, (...a: unknown[]) => unknown>, 'query');
  return {
    get count() {
      return count;
    },
    texts,
    reset() {
      count = 0;
      texts.length = 0;
    },
    restore() {
      for (const [proto, method, original] of patched) proto[method] = original;
    },
  };
}

/** A pg query's text: given as a string or in a config object. */
function textOf(query: unknown): string {
  if (typeof query === 'string') return query;
  return (query as { text?: string } | null)?.text ?? '';
}

function isFetch(query: unknown): boolean {
  return typeof query === 'string' && query.startsWith('FETCH ');
}
