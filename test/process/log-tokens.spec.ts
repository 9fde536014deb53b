import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { until } from '../support/until';

/** What the built server writes to stdout for paths that carry an embed token: `<token>`, never the token. */
const root = path.resolve(__dirname, '..', '..');
const entry = path.join(root, 'dist', 'src', 'main.js');
const STARTED_WITHIN_MS = 150_000;
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyZXNvdXJjZSI6eyJxdWVzdGlvbiI6MX0sInBhcmFtcyI6e319.Zm9yZ2VkLXNpZ25hdHVyZS1vZi10aGUtdG9rZW4';

jest.setTimeout(300_000);

describe('embed tokens in the log of the server process', () => {
  let proc: ChildProcess | undefined;
  let dataDir: string;
  beforeAll(() => {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'build-if-needed.js')], { cwd: root, stdio: 'ignore' });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-logtokens-'));
  });
  afterAll(() => {
    proc?.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes <token> in the request lines of /embed/question/<jwt>.csv and the embed API', async () => {
    proc = spawn(process.execPath, [entry], {
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        PORT: '0',
        LOAD_SAMPLE_DATABASE: 'false',
        DATA_DIR: dataDir,
        LOG_FORMAT: 'pretty',
      },
    });
    let out = '';
    proc.stdout?.on('data', (b: Buffer) => (out += b.toString()));
    proc.stderr?.on('data', (b: Buffer) => (out += b.toString()));
    await until(() => /Server started url=http:\/\/127\.0\.0\.1:\d+/.test(out), STARTED_WITHIN_MS);
    const url = /Server started url=(http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1];
    for (const p of [
      `/embed/question/${JWT}.csv`,
      `/embed/dashboard/${JWT}.xlsx`,
      `/api/embed/card/${JWT}/query/csv`,
      `/api/embed/card/${JWT}.json`,
    ])
      await fetch(`${url}${p}`);
    // Pretty lines are written at once: wait for all four request lines.
    await until(() => (out.match(/ GET \S*<token>\S* \d{3} /g) ?? []).length === 4);
    expect(out).toContain('GET /embed/question/<token> ');
    expect(out).toContain('GET /api/embed/card/<token>/query/csv ');
    for (const part of JWT.split('.')) expect(out).not.toContain(part);
  });
});
