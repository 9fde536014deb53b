import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { ConnectionError, DetailsError, createDriver, validateDetails, type Engine } from '../../src/query-engine/execute/drivers';
import { MYSQL_URL, PG_URL, availableEngines, serverAdmin } from '../support/warehouses';

// Made while jest collects the tests: the it.each tables below name these paths.
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wh-details-')));
const dataDir = path.join(root, 'data');
const outside = path.join(root, 'outside');
fs.mkdirSync(path.join(dataDir, 'sub'), { recursive: true });
fs.mkdirSync(outside);
new Database(path.join(dataDir, 'ok.db')).close();
new Database(path.join(outside, 'secret.db')).close();
fs.symlinkSync(path.join(outside, 'secret.db'), path.join(dataDir, 'link.db'));
fs.symlinkSync(outside, path.join(dataDir, 'escape'));
fs.symlinkSync(path.join(dataDir, 'ok.db'), path.join(dataDir, 'sub', 'inner-link.db'));

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function refusal(engine: Engine, details: unknown, allowedDirs?: string[]): DetailsError {
  try {
    validateDetails(engine, details, { dataDir, allowedDirs });
  } catch (e) {
    expect(e).toBeInstanceOf(DetailsError);
    return e as DetailsError;
  }
  throw new Error(`accepted ${JSON.stringify(details)}`);
}

describe.each(['sqlite', 'duckdb'] as const)('%s file details', (engine) => {
  it('accepts files inside the data directory, relative or absolute, and links that stay inside', () => {
    expect(validateDetails(engine, { db: 'ok.db' }, { dataDir })).toEqual({ db: path.join(dataDir, 'ok.db') });
    expect(validateDetails(engine, { db: path.join(dataDir, 'new.db') }, { dataDir }).db).toBe(path.join(dataDir, 'new.db'));
    expect(validateDetails(engine, { db: 'sub/inner-link.db' }, { dataDir }).db).toBe(path.join(dataDir, 'ok.db'));
    expect(validateDetails(engine, { db: path.join(outside, 'secret.db') }, { dataDir, allowedDirs: [outside] }).db).toBe(
      path.join(outside, 'secret.db'),
    );
  });

  it.each([
    ['a path outside the data directory', path.join(outside, 'secret.db')],
    ['.. traversal', '../outside/secret.db'],
    ['.. traversal hidden in an absolute path', path.join(dataDir, 'sub', '..', '..', 'outside', 'secret.db')],
    ['a symlinked file that points outside', 'link.db'],
    ['a symlinked directory that points outside', 'escape/secret.db'],
    ['a new file under a symlinked directory', 'escape/new.db'],
    ['the data directory itself', '.'],
    ['an in-memory database', ':memory:'],
    ['a URI', 'file:ok.db?mode=rwc'],
    ['a remote URI', 's3://bucket/x.duckdb'],
    ['a NUL byte', 'ok.db\u0000.txt'],
  ])('refuses %s', (_why, db) => {
    expect(refusal(engine, { db }).field).toBe('db');
  });

  it('refuses unknown options and missing paths, naming the field', () => {
    expect(refusal(engine, { db: 'ok.db', access_mode: 'READ_WRITE' }).field).toBe('access_mode');
    expect(refusal(engine, { db: 'ok.db', 'additional-options': 'x=1' }).field).toBe('additional-options');
    expect(refusal(engine, {}).field).toBe('db');
    expect(refusal(engine, { db: '  ' }).field).toBe('db');
    expect(refusal(engine, null).field).toBe('details');
  });

  it('refuses, when opening, a file swapped for a link since it was validated', async () => {
    const file = path.join(dataDir, `swap-${engine}.db`);
    new Database(file).close();
    const details = validateDetails(engine, { db: file }, { dataDir });
    fs.rmSync(file);
    fs.symlinkSync(path.join(outside, 'secret.db'), file);
    const driver = createDriver(engine, details);
    await expect(driver.testConnection()).rejects.toThrow(/now a link/);
    await driver.close();
  });

  it('says which file is missing or not a database', async () => {
    const driver = createDriver(engine, validateDetails(engine, { db: 'missing.db' }, { dataDir }));
    await expect(driver.testConnection()).rejects.toThrow(new ConnectionError(`File ${path.join(dataDir, 'missing.db')} does not exist.`));
    await driver.close();
    const garbage = path.join(dataDir, `garbage-${engine}.db`);
    fs.writeFileSync(garbage, 'not a database at all, just text '.repeat(200));
    const other = createDriver(engine, validateDetails(engine, { db: garbage }, { dataDir }));
    await expect(other.testConnection()).rejects.toThrow(
      new ConnectionError(`File ${garbage} is not a ${engine === 'sqlite' ? 'SQLite' : 'DuckDB'} database.`),
    );
    await other.close();
  });
});

describe.each(['postgres', 'mysql'] as const)('%s server details', (engine) => {
  const good = { host: 'db.example', dbname: 'shop', user: 'ana' };

  it('normalizes host, port, dbname, user, password and ssl', () => {
    expect(validateDetails(engine, { ...good, port: '6543', password: 'pw', ssl: true }, { dataDir })).toEqual({
      host: 'db.example',
      port: 6543,
      dbname: 'shop',
      user: 'ana',
      password: 'pw',
      ssl: true,
    });
    expect(validateDetails(engine, { ...good, 'advanced-options': false }, { dataDir }).port).toBe(engine === 'postgres' ? 5432 : 3306);
    expect(validateDetails(engine, { ...good, 'ssl-mode': 'require' }, { dataDir }).ssl).toBe(true);
  });

  it.each([
    ['host', { ...good, host: ' ' }],
    ['host', { ...good, host: 'db.example;sslmode=disable' }],
    ['host', { ...good, host: '/var/run/postgresql' }],
    ['port', { ...good, port: 0 }],
    ['port', { ...good, port: 70000 }],
    ['port', { ...good, port: '54x' }],
    ['dbname', { ...good, dbname: '' }],
    ['user', { host: 'db.example', dbname: 'shop' }],
    ['password', { ...good, password: 5 }],
    ['ssl', { ...good, ssl: 'yes' }],
    ['additional-options', { ...good, 'additional-options': 'allowLoadLocalInfile=true' }],
    ['tunnel-enabled', { ...good, 'tunnel-enabled': true }],
    ['localInfile', { ...good, localInfile: true }],
    ['connectionString', { ...good, connectionString: 'postgres://x' }],
    ['ssl-mode', { ...good, 'ssl-mode': 'verify-everything' }],
    ['ssl-verify', { ...good, ssl: true, 'ssl-verify': 'no' }],
    ['ssl-root-cert', { ...good, ssl: true, 'ssl-root-cert': '/etc/ssl/certs/ca.pem' }],
    ['ssl-root-cert', { ...good, ssl: true, 'ssl-root-cert': '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' }],
  ])('refuses a bad %s', (field, details) => {
    expect(refusal(engine, details).field).toBe(field);
  });
});

describe.each(availableEngines(['postgres', 'mysql']) as ('postgres' | 'mysql')[])('%s connection errors', (engine) => {
  const server = new URL(engine === 'postgres' ? PG_URL : MYSQL_URL);
  const base = { host: server.hostname, port: Number(server.port) || undefined, user: decodeURIComponent(server.username) || 'root' };
  const connect = (details: Record<string, unknown>) =>
    createDriver(engine, validateDetails(engine, details, { dataDir }), { connectTimeoutMs: 2000 }).testConnection();

  it('says when nothing listens on the port', async () => {
    await expect(connect({ ...base, port: 1, dbname: 'x' })).rejects.toThrow(
      new ConnectionError(`Could not connect to host ${server.hostname}:1: connection refused.`),
    );
  });

  it('says when the host is unknown', async () => {
    await expect(connect({ ...base, host: 'no-such-host.invalid', dbname: 'x' })).rejects.toThrow(
      /^Could not connect to host no-such-host\.invalid:\d+: (unknown host|timed out)\.$/,
    );
  });

  it('says when the database does not exist', async () => {
    await expect(connect({ ...base, dbname: 'no_such_db_wh' })).rejects.toThrow(
      new ConnectionError('Database "no_such_db_wh" does not exist.'),
    );
  });

  it('says when the password is wrong, or the user unknown', async () => {
    if (engine === 'mysql') {
      const admin = serverAdmin('mysql');
      const user = `wh_${process.pid}`;
      await admin(`CREATE USER IF NOT EXISTS '${user}'@'%' IDENTIFIED BY 'right-password'`);
      try {
        await expect(connect({ ...base, user, password: 'wrong', dbname: 'test' })).rejects.toThrow(
          new ConnectionError(`Password authentication failed for user "${user}".`),
        );
      } finally {
        await admin(`DROP USER IF EXISTS '${user}'@'%'`);
      }
    } else {
      // The local test server trusts every password, so an unknown role stands in for a refused login.
      await expect(connect({ ...base, user: 'no_such_role_wh', password: 'x', dbname: 'postgres' })).rejects.toThrow(
        /^Could not connect to host .*: role "no_such_role_wh" does not exist$/,
      );
    }
  });
});
