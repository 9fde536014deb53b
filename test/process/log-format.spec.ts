import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { until } from '../support/until';

/**
 * The built server's log format as main.ts wires it: LOG_FORMAT=pretty gives readable one-line records (what a
 * terminal gets by default), JSON lines otherwise (a pipe, as in a container). Metrics on METRICS_PORT too.
 */
const root = path.resolve(__dirname, '..', '..');
const entry = path.join(root, 'dist', 'src', 'main.js');
/** Starting the server takes seconds, and half a minute or more on a loaded machine. */
const STARTED_WITHIN_MS = 150_000;

jest.setTimeout(300_000);

describe('log format of the server process', () => {
  const running = new Set<ChildProcess>();
  let dataDir: string;
  beforeAll(() => {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'build-if-needed.js')], { cwd: root, stdio: 'ignore' });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-logfmt-'));
  });
  afterAll(() => {
    running.forEach((p) => p.kill('SIGKILL'));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function start(env: Record<string, string>) {
    const proc = spawn(process.execPath, [entry], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOAD_SAMPLE_DATABASE: 'false', DATA_DIR: dataDir, ...env },
    });
    running.add(proc);
    let out = '';
    proc.stdout.on('data', (b: Buffer) => (out += b.toString()));
    proc.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const stopped = new Promise<number | null>((resolve) => proc.on('exit', (code) => (running.delete(proc), resolve(code))));
    return { proc, output: () => out, stopped };
  }

  it('writes readable one-line records with LOG_FORMAT=pretty', async () => {
    const s = start({ LOG_FORMAT: 'pretty', METRICS_PORT: '0' });
    await until(() => /INFO {2}Server started url=http:\/\/127\.0\.0\.1:\d+/.test(s.output()), STARTED_WITHIN_MS);
    const url = /Server started url=(http:\/\/127\.0\.0\.1:\d+)/.exec(s.output())![1];
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    // Pretty lines are written at once, not batched.
    await until(() => /^\d\d:\d\d:\d\d\.\d{3} INFO {2}GET \/api\/health 200 [\d.]+ ms request_id=\S+$/m.test(s.output()));
    const metricsUrl = /Metrics served url=(\S+)/.exec(s.output())![1];
    expect(await (await fetch(metricsUrl)).text()).toMatch(
      /^analytics_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} 1$/m,
    );
    s.proc.kill('SIGTERM');
    expect(await s.stopped).toBe(0);
    expect(
      s
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{')),
    ).toEqual([]);
  });

  it('writes JSON lines when stdout is not a terminal and nothing says otherwise', async () => {
    const s = start({});
    await until(() => s.output().includes('"msg":"Server started"'), STARTED_WITHIN_MS);
    s.proc.kill('SIGTERM');
    expect(await s.stopped).toBe(0);
    const lines = s.output().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines)
      expect(JSON.parse(line)).toMatchObject({ level: expect.any(String), time: expect.any(String), msg: expect.any(String) });
  });
});
