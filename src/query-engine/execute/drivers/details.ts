import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Engine } from './driver';
import { DetailsError } from './errors';

/**
 * Connection details as users send them (Metabase's `details` map), validated per engine and reduced to the
 * fields our drivers read. Nothing else reaches a driver: no option strings, no connection URLs, no paths
 * outside the data directory.
 */
export interface ServerDetails {
  host: string;
  port: number;
  dbname: string;
  user: string;
  /** null: no password. Never read from the server's environment (PGPASSWORD, ~/.pgpass). */
  password: string | null;
  ssl: boolean;
  /** With ssl the server's certificate is checked; only an explicit `false` (kept only then) skips the check. */
  'ssl-verify'?: false;
  /** PEM certificate(s) of the CA to trust for the server's certificate, instead of the usual public CAs. */
  'ssl-root-cert'?: string;
}

export interface FileDetails {
  /** Canonical absolute path (symlinks resolved) inside the data directory or an allowed directory. */
  db: string;
}

export interface DetailsContext {
  dataDir: string;
  allowedDirs?: readonly string[];
}

/** Keys Metabase's UI sends that carry no driver option; accepted and dropped. */
const IGNORED_KEYS = new Set([
  'advanced-options',
  'let-user-control-scheduling',
  'schema-filters-type',
  'schema-filters-patterns',
  'json-unfolding',
]);

/** Keys we recognise but cannot honour when set; refused with a reason rather than silently ignored. */
const UNSUPPORTED_WHEN_SET: Record<string, string> = {
  'additional-options': 'Additional connection options are not supported.',
  'tunnel-enabled': 'SSH tunnels are not supported.',
  'ssl-use-client-auth': 'SSL client certificates are not supported.',
};

const DEFAULT_PORTS = { postgres: 5432, mysql: 3306 } as const;

export function validateDetails(engine: 'postgres' | 'mysql', details: unknown, ctx: DetailsContext): ServerDetails;
export function validateDetails(engine: 'sqlite' | 'duckdb', details: unknown, ctx: DetailsContext): FileDetails;
export function validateDetails(engine: Engine, details: unknown, ctx: DetailsContext): ServerDetails | FileDetails;
export function validateDetails(engine: Engine, details: unknown, ctx: DetailsContext): ServerDetails | FileDetails {
  if (!details || typeof details !== 'object' || Array.isArray(details)) {
    throw new DetailsError('details', 'details must be a map of connection settings.');
  }
  const d = details as Record<string, unknown>;
  const known =
    engine === 'postgres' || engine === 'mysql'
      ? ['host', 'port', 'dbname', 'user', 'password', 'ssl', 'ssl-mode', 'ssl-verify', 'ssl-root-cert']
      : ['db'];
  for (const [key, value] of Object.entries(d)) {
    if (known.includes(key) || IGNORED_KEYS.has(key)) continue;
    if (key in UNSUPPORTED_WHEN_SET) {
      if (value === undefined || value === null || value === false || value === '') continue;
      throw new DetailsError(key, UNSUPPORTED_WHEN_SET[key]);
    }
    throw new DetailsError(key, `${key} is not a supported connection setting for ${engine}.`);
  }
  return engine === 'postgres' || engine === 'mysql' ? serverDetails(engine, d) : fileDetails(d, ctx);
}

function serverDetails(engine: 'postgres' | 'mysql', d: Record<string, unknown>): ServerDetails {
  const host = requiredString(d, 'host');
  if (host.length > 255 || !/^[A-Za-z0-9.\-_:[\]%]+$/.test(host)) {
    throw new DetailsError('host', 'host must be a host name or an IP address.');
  }
  const verify = d['ssl-verify'] === undefined || d['ssl-verify'] === null ? true : optionalBoolean(d, 'ssl-verify');
  const rootCert = pemCertificate(d['ssl-root-cert']);
  return {
    host,
    port: port(d.port, DEFAULT_PORTS[engine]),
    dbname: requiredString(d, 'dbname'),
    user: requiredString(d, 'user'),
    password: optionalString(d, 'password'),
    ssl: optionalBoolean(d, 'ssl') || sslMode(d['ssl-mode']),
    ...(verify ? {} : { 'ssl-verify': false as const }),
    ...(rootCert ? { 'ssl-root-cert': rootCert } : {}),
  };
}

/**
 * Metabase's ssl-mode. Every mode that encrypts checks the server's certificate (against `ssl-root-cert` when
 * given): a connection that can be intercepted would hand the warehouse password to whoever intercepts it.
 */
function sslMode(v: unknown): boolean {
  if (v === undefined || v === null || v === 'disable' || v === 'allow' || v === 'prefer') return false;
  if (v === 'require' || v === 'verify-ca' || v === 'verify-full') return true;
  throw new DetailsError('ssl-mode', 'ssl-mode must be disable, allow, prefer, require, verify-ca or verify-full.');
}

/**
 * One or more PEM certificates. The whitespace before the first is matched once, outside the repetition, so that no
 * run of whitespace can be split between two repetitions (that ambiguity made a failing match exponential).
 */
const PEM_CERTIFICATE = /^\s*(?:-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----\s*)+$/;

function pemCertificate(v: unknown): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || v.length > 65_536 || !PEM_CERTIFICATE.test(v)) {
    throw new DetailsError('ssl-root-cert', 'ssl-root-cert must be one or more PEM certificates (-----BEGIN CERTIFICATE-----).');
  }
  return v.trim();
}

/**
 * TLS options for a warehouse client: undefined without ssl. The certificate is verified (chain and host name)
 * unless the details say `ssl-verify: false`; `ssl-root-cert` replaces the public CAs.
 */
export function tlsOptions(d: ServerDetails): { rejectUnauthorized: boolean; ca?: string } | undefined {
  if (!d.ssl) return undefined;
  return { rejectUnauthorized: d['ssl-verify'] !== false, ...(d['ssl-root-cert'] ? { ca: d['ssl-root-cert'] } : {}) };
}

function fileDetails(d: Record<string, unknown>, ctx: DetailsContext): FileDetails {
  const raw = requiredString(d, 'db');
  if (raw.includes('\0')) throw new DetailsError('db', 'db must be a file path.');
  if (raw.startsWith(':') || /^[A-Za-z][A-Za-z0-9+.-]+:/.test(raw)) {
    throw new DetailsError('db', 'db must be a file path, not an in-memory database or a URI.');
  }
  const dataDir = canonical(path.resolve(ctx.dataDir));
  const roots = [dataDir, ...(ctx.allowedDirs ?? []).map((dir) => canonical(path.resolve(dir)))];
  const resolved = canonical(path.resolve(dataDir, raw));
  if (!roots.some((root) => isInside(resolved, root))) {
    throw new DetailsError('db', `db must be a file inside the data directory (${dataDir}).`);
  }
  if (fs.existsSync(resolved) && !fs.statSync(resolved).isFile()) {
    throw new DetailsError('db', `${resolved} is not a file.`);
  }
  return { db: resolved };
}

/** realpath of the path, or of its nearest existing ancestor joined with the rest, so symlinks cannot escape. */
export function canonical(p: string): string {
  let existing = p;
  const rest: string[] = [];
  while (!fs.existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  return path.join(fs.realpathSync(existing), ...rest);
}

function isInside(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function requiredString(d: Record<string, unknown>, key: string): string {
  const v = d[key];
  if (typeof v !== 'string' || !v.trim()) throw new DetailsError(key, `${key} is required and must be a non-blank string.`);
  return v.trim();
}

function optionalString(d: Record<string, unknown>, key: string): string | null {
  const v = d[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new DetailsError(key, `${key} must be a string.`);
  return v;
}

function optionalBoolean(d: Record<string, unknown>, key: string): boolean {
  const v = d[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw new DetailsError(key, `${key} must be true or false.`);
  return v;
}

function port(v: unknown, fallback: number): number {
  if (v === undefined || v === null || v === '') return fallback;
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 65535) {
    throw new DetailsError('port', 'port must be an integer between 1 and 65535.');
  }
  return n;
}
