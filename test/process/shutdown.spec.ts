import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { until } from '../support/until';

/**
 * SIGTERM is bounded: a download whose client stopped reading (the server's writes blocked, its warehouse
 * connection stuck sending) once kept a server from exiting. After SHUTDOWN_DRAIN_SECONDS the connection is cut
 * and the process exits 0.
 */
const root = path.resolve(__dirname, '..', '..');
const entry = path.join(root, 'dist', 'src', 'main.js');

describe('shutdown with a download that is not being read', () => {
  let proc: ChildProcess | undefined;
  let dir: string;
  let out = '';

  beforeAll(() => {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'build-if-needed.js')], { cwd: root, stdio: 'ignore' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-shutdown-'));
  }, 300_000);

  afterAll(() => {
    if (proc && proc.exitCode === null) proc.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('cuts it after the drain timeout and exits 0', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dir,
      LOG_FORMAT: 'json',
      SHUTDOWN_DRAIN_SECONDS: '2',
    };
    const p = spawn(process.execPath, [entry], {
      env: { ...env, ADMIN_EMAIL: 'ops@example.com', ADMIN_PASSWORD: 'Drain-pass-2026', LOAD_SAMPLE_DATABASE: 'true' },
    });
    proc = p;
    p.stdout.on('data', (b: Buffer) => (out += b.toString()));
    p.stderr.on('data', (b: Buffer) => (out += b.toString()));
    await until(() => /"url":"http:\/\/[^"]+"/.test(out), 30_000);
    const url = out.match(/"url":"(http:\/\/[^"]+)"/)![1];
    const login = await fetch(`${url}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'ops@example.com', password: 'Drain-pass-2026' }),
    });
    const session = ((await login.json()) as { id: string }).id;
    let db: number | undefined;
    await until(async () => {
      const list = (await (await fetch(`${url}/api/database`, { headers: { 'X-Metabase-Session': session } })).json()) as {
        data: Array<{ id: number; name: string }>;
      };
      db = list.data.find((d) => d.name === 'Sample Database')?.id;
      return db !== undefined;
    }, 30_000);
    const sql =
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000)' +
      " SELECT x, 'a fairly long text to fill the socket buffers quickly' AS pad FROM c";
    const form = new URLSearchParams({ query: JSON.stringify({ database: db, type: 'native', native: { query: sql } }) }).toString();

    // A client that reads the headers and then nothing more.
    let status = 0;
    const req = http.request(
      `${url}/api/dataset/csv`,
      { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Metabase-Session': session } },
      (res) => {
        status = res.statusCode ?? 0;
        res.pause();
        p.kill('SIGTERM');
      },
    );
    req.on('error', () => undefined);
    req.end(form);
    const started = Date.now();
    const code = await new Promise<number | null>((resolve) => p.on('exit', (c) => resolve(c)));
    const took = Date.now() - started;
    req.destroy();
    expect(status).toBe(200);
    expect(code).toBe(0);
    expect(took).toBeLessThan(15_000);
    expect(out).toMatch(/cut connections whose requests did not finish in time/);
  }, 120_000);
});
