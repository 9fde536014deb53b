import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { until } from '../support/until';

/**
 * The built server as a user runs it: `node dist/src/main.js` with no configuration but DATA_DIR. Boots on SQLite,
 * serves the setup token, keeps its data across a restart, and exits cleanly on SIGTERM.
 */
const root = path.resolve(__dirname, '..', '..');
const entry = path.join(root, 'dist', 'src', 'main.js');

const running = new Set<ChildProcess>();

function start(env: Record<string, string>): Promise<{ proc: ChildProcess; url: string; output: () => string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [entry], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOAD_SAMPLE_DATABASE: 'false', ...env },
    });
    running.add(proc);
    proc.on('exit', () => running.delete(proc));
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = out.match(/"url":"(http:\/\/[^"]+)"/);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, url: m[1], output: () => out });
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

function stop(proc: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    proc.removeAllListeners('exit');
    proc.on('exit', (code) => {
      running.delete(proc);
      resolve(code);
    });
    proc.kill('SIGTERM');
  });
}

describe('the server process', () => {
  let dataDir: string;
  beforeAll(() => {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'build-if-needed.js')], { cwd: root, stdio: 'ignore' });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-proc-'));
  });
  afterAll(() => {
    running.forEach((p) => p.kill('SIGKILL'));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('boots with defaults, keeps its data across a restart, and shuts down on SIGTERM', async () => {
    const first = await start({ DATA_DIR: dataDir });
    const props = (await (await fetch(`${first.url}/api/session/properties`)).json()) as Record<string, string>;
    expect(props['setup-token']).toMatch(/^[0-9a-f-]{36}$/);
    const setup = await fetch(`${first.url}/api/setup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        token: props['setup-token'],
        user: { email: 'a@example.com', password: 'Sturdy-pass-42', first_name: 'A' },
        prefs: { site_name: 'Kept' },
      }),
    });
    expect(setup.status).toBe(200);
    const lines = first
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(0);
    expect(JSON.parse(lines[lines.length - 1]).level).toBeDefined();
    expect(await stop(first.proc)).toBe(0);
    // Log lines are written in batches; after the stop they are all out, the setup request's included.
    expect(first.output()).toContain('"path":"/api/setup"');
    expect(first.output()).not.toContain('Sturdy-pass-42');

    const second = await start({ DATA_DIR: dataDir });
    const again = (await (await fetch(`${second.url}/api/session/properties`)).json()) as Record<string, string>;
    expect(again['setup-token']).toBeUndefined();
    expect(again['site-name']).toBe('Kept');
    const login = await fetch(`${second.url}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'a@example.com', password: 'Sturdy-pass-42' }),
    });
    expect(login.status).toBe(200);
    expect(await stop(second.proc)).toBe(0);
  });

  it('answers a query still running when SIGTERM arrives, then exits 0', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-drain-'));
    const s = await start({
      DATA_DIR: dir,
      ADMIN_EMAIL: 'ops@example.com',
      ADMIN_PASSWORD: 'Drain-pass-2026',
      LOAD_SAMPLE_DATABASE: 'true',
    });
    try {
      const login = await fetch(`${s.url}/api/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'ops@example.com', password: 'Drain-pass-2026' }),
      });
      const headers = { 'Content-Type': 'application/json', 'X-Metabase-Session': ((await login.json()) as { id: string }).id };
      let db: number | undefined;
      for (let i = 0; i < 200 && db === undefined; i++) {
        const list = (await (await fetch(`${s.url}/api/database`, { headers })).json()) as { data: Array<{ id: number; name: string }> };
        db = list.data.find((d) => d.name === 'Sample Database')?.id;
        if (db === undefined) await new Promise((r) => setTimeout(r, 100));
      }
      const slow = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 6000000) SELECT count(*) AS n FROM c';
      const answer = fetch(`${s.url}/api/dataset`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ database: db, type: 'native', native: { query: slow } }),
      });
      const busy = async () => {
        const pools = (await (await fetch(`${s.url}/api/util/diagnostic_info/connection_pool_info`, { headers })).json()) as {
          'connection-pools': Record<string, { numBusyConnections: number }>;
        };
        return pools['connection-pools'][`db-${db}`]?.numBusyConnections ?? 0;
      };
      await until(async () => (await busy()) > 0, 30_000);
      const exited = stop(s.proc);
      const res = await answer;
      expect(res.status).toBe(202);
      expect((await res.json()) as { status: string; data: { rows: unknown[][] } }).toMatchObject({
        status: 'completed',
        data: { rows: [[6000000]] },
      });
      expect(await exited).toBe(0);
    } finally {
      if (s.proc.exitCode === null) s.proc.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("holds a burst of connections while it cannot accept them (a listen backlog above Node's 511)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-backlog-'));
    const s = await start({ DATA_DIR: dir });
    const { hostname, port } = new URL(s.url);
    // Linux caps the backlog at net.core.somaxconn (4096 on kernels since 5.4, 128 before).
    const cap = fs.existsSync('/proc/sys/net/core/somaxconn') ? Number(fs.readFileSync('/proc/sys/net/core/somaxconn', 'utf8')) : 4096;
    const burst = Math.min(1000, cap);
    const sockets: net.Socket[] = [];
    let connected = 0;
    // Stopped, the server accepts nothing: every connection that completes waits in the kernel's queue for it.
    process.kill(s.proc.pid!, 'SIGSTOP');
    try {
      for (let i = 0; i < burst; i++) {
        const socket = net.connect(Number(port), hostname, () => connected++);
        socket.on('error', () => undefined);
        sockets.push(socket);
      }
      await until(() => connected === burst, 15_000);
    } finally {
      process.kill(s.proc.pid!, 'SIGCONT');
      sockets.forEach((socket) => socket.destroy());
    }
    expect(connected).toBe(burst);
    const health = await fetch(`${s.url}/api/health`);
    expect(health.status).toBe(200);
    await stop(s.proc);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('hands the memory freed in the C heap back to the OS on its own (MALLOC_TRIM_INTERVAL_SECONDS)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-trim-'));
    const s = await start({ DATA_DIR: dir, MALLOC_TRIM_INTERVAL_SECONDS: '1', LOG_LEVEL: 'debug' });
    try {
      // Answers whose Buffers glibc keeps once they are freed.
      for (let i = 0; i < 200; i++) await (await fetch(`${s.url}/api/session/properties`)).arrayBuffer();
      await until(() => s.output().includes('Gave freed C heap memory back'), 30_000);
      expect(
        JSON.parse(
          s
            .output()
            .split('\n')
            .find((l) => l.includes('Gave freed C heap memory back'))!,
        ),
      ).toMatchObject({
        freed_mb: expect.any(Number),
        took_ms: expect.any(Number),
      });
    } finally {
      await stop(s.proc);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a bad configuration with one clear line', () => {
    let stderr = '';
    try {
      execFileSync(process.execPath, [entry], {
        env: { PATH: process.env.PATH ?? '', PORT: 'eighty' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    } catch (e) {
      stderr = String((e as { stderr: Buffer }).stderr);
    }
    expect(stderr.trim()).toBe('Configuration error: PORT must be an integer between 0 and 65535 (got "eighty")');
  });

  it('creates the first admin from ADMIN_EMAIL and ADMIN_PASSWORD', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-admin-'));
    const s = await start({ DATA_DIR: dir, ADMIN_EMAIL: 'Boss@Example.com', ADMIN_PASSWORD: 'Container-pass-77' });
    try {
      const props = (await (await fetch(`${s.url}/api/session/properties`)).json()) as Record<string, string>;
      expect(props['setup-token']).toBeUndefined();
      const login = await fetch(`${s.url}/api/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'boss@example.com', password: 'Container-pass-77' }),
      });
      expect(login.status).toBe(200);
    } finally {
      await stop(s.proc);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
