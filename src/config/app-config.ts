import * as os from 'node:os';
import * as path from 'node:path';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
const LOG_LEVELS: LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

export interface AppConfig {
  port: number;
  host: string;
  /**
   * Connections the kernel may hold for the server while it is busy, before it drops new ones (Node's default is 511;
   * a crowd opening a browser's 6 connections each overflows that). Linux caps it at net.core.somaxconn.
   */
  listenBacklog: number;
  /**
   * How long an idle keep-alive connection stays open. Behind a load balancer that pools connections this must be
   * longer than the balancer's idle timeout, or the balancer sends requests onto connections being closed (502s).
   */
  keepAliveTimeoutSeconds: number;
  dataDir: string;
  /** Postgres URL of the app database; undefined means SQLite at `dataDir/app.db`. */
  databaseUrl?: string;
  /** File of the SQLite app database (ignored with `databaseUrl`). */
  sqlitePath: string;
  siteUrl?: string;
  encryptionKey?: string;
  logLevel: LogLevel;
  /** `stdout` in production; tests keep logs in the in-memory ring buffer only. */
  logTarget: 'stdout' | 'memory';
  /** `json` lines (containers, log shippers) or `pretty` one-line text; by default pretty only when stdout is a terminal. */
  logFormat: 'json' | 'pretty';
  adminEmail?: string;
  adminPassword?: string;
  maxSessionAgeMinutes: number;
  /** How often an instance re-reads settings changed by another instance. */
  settingsRefreshSeconds: number;
  /**
   * Value of Express `trust proxy`: which hops may set X-Forwarded-For. Loopback only by default: trusting whole
   * private ranges would let any client on the same network pick its own address (and dodge login throttling).
   */
  trustProxy: string;
  /** Folders where SQLite/DuckDB warehouse files may live, besides `dataDir`. */
  allowedFileDirs: string[];
  /** Generate and connect the Sample Database on the first start. */
  loadSampleDatabase: boolean;
  /** How often the sync scheduler looks for databases due a sync; 0 turns scheduled syncs off. */
  syncCheckSeconds: number;
  /** On SIGTERM, requests in flight get this long to finish; then their connections are cut and the process exits. */
  shutdownDrainSeconds: number;
  /**
   * On SIGTERM, GET /api/health answers 503 this long before the listener closes (behind a load balancer: longer than
   * it takes to mark the instance down).
   */
  shutdownDelaySeconds: number;
  /** Warehouse queries are cancelled after this long. */
  queryTimeoutSeconds: number;
  /** Warehouse queries one user may have running at once on one database of this instance; more wait their turn. */
  maxQueriesPerUser: number;
  /** Query requests of one user this instance works on at once (request-admission.ts); more wait their turn. */
  maxQueryRequestsPerUser: number;
  /** How long a query waits for its turn (a query slot) before it is answered 503. */
  queryQueueTimeoutSeconds: number;
  /** DuckDB warehouses: memory_limit of each database's instance (DuckDB's size syntax, e.g. `2GB`). */
  duckdbMemoryLimit: string;
  /** DuckDB warehouses: worker threads of each database's instance. */
  duckdbThreads: number;
  /** How often freed C heap memory is handed back to the OS (malloc-trim.ts); 0 turns that off. */
  mallocTrimSeconds: number;
  /** Port of the Prometheus metrics server (GET /metrics); undefined (METRICS_PORT unset) turns metrics off. */
  metricsPort?: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  }
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

function httpUrl(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return raw.replace(/\/+$/, '');
  } catch {
    /* reported below */
  }
  throw new ConfigError(`${name} must be an http(s) URL (got "${raw}")`);
}

function memorySize(env: Env, name: string, fallback: string): string {
  const raw = (env[name] || fallback).trim();
  if (/^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(raw)) return raw;
  throw new ConfigError(`${name} must be a size such as 512MB or 2GB (got "${raw}")`);
}

/** Parses and validates the process environment once, at boot. */
export function loadConfig(env: Env = process.env, stdoutIsTty = Boolean(process.stdout.isTTY)): AppConfig {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\/.+/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite database)');
  }
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  }
  const encryptionKey = env.ENCRYPTION_KEY || undefined;
  if (encryptionKey !== undefined && encryptionKey.length < 16) {
    throw new ConfigError('ENCRYPTION_KEY must be at least 16 characters long');
  }
  const adminEmail = env.ADMIN_EMAIL || undefined;
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if (Boolean(adminEmail) !== Boolean(adminPassword)) {
    throw new ConfigError('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if (adminEmail && !/^[^\s@]+@[^\s@]+$/.test(adminEmail)) {
    throw new ConfigError(`ADMIN_EMAIL must be an email address (got "${adminEmail}")`);
  }
  const logTarget = env.LOG_TARGET === 'memory' ? 'memory' : 'stdout';
  const logFormat = (env.LOG_FORMAT || (stdoutIsTty ? 'pretty' : 'json')).toLowerCase();
  if (logFormat !== 'json' && logFormat !== 'pretty') {
    throw new ConfigError(`LOG_FORMAT must be json or pretty (got "${env.LOG_FORMAT}")`);
  }
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    listenBacklog: int(env, 'LISTEN_BACKLOG', 4096, 1, 65535),
    keepAliveTimeoutSeconds: int(env, 'KEEP_ALIVE_TIMEOUT_SECONDS', 65, 1, 3600),
    dataDir,
    databaseUrl,
    sqlitePath: path.join(dataDir, 'app.db'),
    siteUrl: httpUrl(env, 'SITE_URL'),
    encryptionKey,
    logLevel,
    logTarget,
    logFormat,
    adminEmail: adminEmail?.toLowerCase(),
    adminPassword,
    maxSessionAgeMinutes: int(env, 'MAX_SESSION_AGE', 20160, 1, 5_256_000),
    settingsRefreshSeconds: int(env, 'SETTINGS_REFRESH_SECONDS', 3, 1, 3600),
    trustProxy: env.TRUST_PROXY || 'loopback',
    allowedFileDirs: (env.ALLOWED_FILE_DIRS || '')
      .split(':')
      .filter(Boolean)
      .map((d) => path.resolve(d)),
    loadSampleDatabase: bool(env, 'LOAD_SAMPLE_DATABASE', true),
    syncCheckSeconds: int(env, 'SYNC_CHECK_SECONDS', 60, 0, 86_400),
    shutdownDrainSeconds: int(env, 'SHUTDOWN_DRAIN_SECONDS', 20, 0, 3600),
    shutdownDelaySeconds: int(env, 'SHUTDOWN_DELAY_SECONDS', 0, 0, 600),
    queryTimeoutSeconds: int(env, 'QUERY_TIMEOUT_SECONDS', 1200, 1, 86_400),
    maxQueriesPerUser: int(env, 'MAX_QUERIES_PER_USER', 10, 1, 10_000),
    maxQueryRequestsPerUser: int(env, 'MAX_QUERY_REQUESTS_PER_USER', 10, 1, 10_000),
    queryQueueTimeoutSeconds: int(env, 'QUERY_QUEUE_TIMEOUT_SECONDS', 30, 1, 3600),
    duckdbMemoryLimit: memorySize(env, 'DUCKDB_MEMORY_LIMIT', '2GB'),
    duckdbThreads: int(env, 'DUCKDB_THREADS', Math.min(4, os.availableParallelism()), 1, 1024),
    mallocTrimSeconds: int(env, 'MALLOC_TRIM_INTERVAL_SECONDS', 10, 0, 3600),
    metricsPort: env.METRICS_PORT ? int(env, 'METRICS_PORT', 0, 0, 65535) : undefined,
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
