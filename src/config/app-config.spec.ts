import * as path from 'node:path';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('has working defaults: port 3000, SQLite under ./data', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.sqlitePath).toBe(path.resolve('data', 'app.db'));
    expect(c.maxSessionAgeMinutes).toBe(20160);
    expect(c).toMatchObject({ maxQueriesPerUser: 10, queryQueueTimeoutSeconds: 30, duckdbMemoryLimit: '2GB' });
    expect(c.duckdbThreads).toBeGreaterThanOrEqual(1);
    expect(c.duckdbThreads).toBeLessThanOrEqual(4);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer between 0 and 65535 (got "abc")'],
    [{ PORT: '70000' }, 'PORT must be an integer between 0 and 65535 (got "70000")'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite database)'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent (got "loud")'],
    [{ SITE_URL: 'ftp://x' }, 'SITE_URL must be an http(s) URL (got "ftp://x")'],
    [{ ENCRYPTION_KEY: 'short' }, 'ENCRYPTION_KEY must be at least 16 characters long'],
    [{ ADMIN_EMAIL: 'a@b.c' }, 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together'],
    [{ MAX_SESSION_AGE: '0' }, 'MAX_SESSION_AGE must be an integer between 1 and 5256000 (got "0")'],
    [{ LOAD_SAMPLE_DATABASE: 'maybe' }, 'LOAD_SAMPLE_DATABASE must be true or false (got "maybe")'],
    [{ DUCKDB_MEMORY_LIMIT: 'lots' }, 'DUCKDB_MEMORY_LIMIT must be a size such as 512MB or 2GB (got "lots")'],
    [{ DUCKDB_MEMORY_LIMIT: "1GB'; SET x" }, `DUCKDB_MEMORY_LIMIT must be a size such as 512MB or 2GB (got "1GB'; SET x")`],
    [{ DUCKDB_THREADS: '0' }, 'DUCKDB_THREADS must be an integer between 1 and 1024 (got "0")'],
    [{ MAX_QUERIES_PER_USER: '0' }, 'MAX_QUERIES_PER_USER must be an integer between 1 and 10000 (got "0")'],
    [{ QUERY_QUEUE_TIMEOUT_SECONDS: '0.5' }, 'QUERY_QUEUE_TIMEOUT_SECONDS must be an integer between 1 and 3600 (got "0.5")'],
    [{ LISTEN_BACKLOG: '0' }, 'LISTEN_BACKLOG must be an integer between 1 and 65535 (got "0")'],
    [{ KEEP_ALIVE_TIMEOUT_SECONDS: '1h' }, 'KEEP_ALIVE_TIMEOUT_SECONDS must be an integer between 1 and 3600 (got "1h")'],
    [{ MALLOC_TRIM_INTERVAL_SECONDS: '-1' }, 'MALLOC_TRIM_INTERVAL_SECONDS must be an integer between 0 and 3600 (got "-1")'],
  ])('refuses %j with one clear line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });

  it('logs JSON lines unless stdout is a terminal, and LOG_FORMAT overrides either way', () => {
    expect(loadConfig({}, false).logFormat).toBe('json');
    expect(loadConfig({}, true).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'PRETTY' }, false).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(new ConfigError('LOG_FORMAT must be json or pretty (got "xml")'));
  });

  it('listens with a backlog of 4096 and keeps idle connections 65 s (above a load balancer’s 60 s), both configurable', () => {
    expect(loadConfig({})).toMatchObject({ listenBacklog: 4096, keepAliveTimeoutSeconds: 65 });
    expect(loadConfig({ LISTEN_BACKLOG: '16384', KEEP_ALIVE_TIMEOUT_SECONDS: '620' })).toMatchObject({
      listenBacklog: 16384,
      keepAliveTimeoutSeconds: 620,
    });
  });

  it('takes a Postgres URL and normalizes the site URL', () => {
    const c = loadConfig({ DATABASE_URL: 'postgresql://u@h/db', SITE_URL: 'https://bi.example.com/' });
    expect(c.databaseUrl).toBe('postgresql://u@h/db');
    expect(c.siteUrl).toBe('https://bi.example.com');
  });
});

describe('query and sync timing', () => {
  it('defaults to a 20-minute query timeout and a one-minute sync check, both configurable', () => {
    expect(loadConfig({})).toMatchObject({ queryTimeoutSeconds: 1200, syncCheckSeconds: 60 });
    expect(loadConfig({ QUERY_TIMEOUT_SECONDS: '30', SYNC_CHECK_SECONDS: '0' })).toMatchObject({
      queryTimeoutSeconds: 30,
      syncCheckSeconds: 0,
    });
    expect(() => loadConfig({ QUERY_TIMEOUT_SECONDS: '0' })).toThrow(
      'QUERY_TIMEOUT_SECONDS must be an integer between 1 and 86400 (got "0")',
    );
  });

  it('trims the C heap every 10 s by default; 0 turns that off', () => {
    expect(loadConfig({}).mallocTrimSeconds).toBe(10);
    expect(loadConfig({ MALLOC_TRIM_INTERVAL_SECONDS: '0' }).mallocTrimSeconds).toBe(0);
  });
});
