import pino from 'pino';
import { prettyLine, prettyStream } from './pretty-line';

describe('prettyLine', () => {
  it('shows a request as method, path, status and duration, with the other fields after', () => {
    const line = prettyLine({
      level: 'info',
      time: '2026-11-24T02:50:01.123Z',
      pid: 7,
      msg: 'request',
      method: 'GET',
      path: '/api/card/1',
      status: 200,
      duration_ms: 3.4,
      request_id: 'abc',
    });
    expect(line).toBe('02:50:01.123 INFO  GET /api/card/1 200 3.4 ms request_id=abc\n');
  });

  it('quotes values with spaces, prints objects as JSON and leaves out pid and hostname', () => {
    const line = prettyLine({
      level: 'warn',
      time: '2026-11-24T02:50:01.123Z',
      pid: 7,
      hostname: 'h',
      msg: 'Sync failed',
      database: 'My DB',
      ids: [1, 2],
      ok: false,
      none: null,
    });
    expect(line).toBe('02:50:01.123 WARN  Sync failed database="My DB" ids=[1,2] ok=false none=null\n');
  });

  it('puts an error after the line and its stack frames on indented lines below', () => {
    const line = prettyLine({
      level: 'error',
      time: '2026-11-24T02:50:01.123Z',
      msg: 'Unhandled error',
      err: { type: 'TypeError', message: 'x is undefined', stack: 'TypeError: x is undefined\n    at f (a.js:1:2)\n    at g (b.js:3:4)' },
    });
    expect(line).toBe('02:50:01.123 ERROR Unhandled error err="TypeError: x is undefined"\n    at f (a.js:1:2)\n    at g (b.js:3:4)\n');
  });

  it('colors the level and status only when asked', () => {
    const record = {
      level: 'error',
      time: '2026-11-24T02:50:01.123Z',
      msg: 'request',
      method: 'POST',
      path: '/api/x',
      status: 500,
      duration_ms: 1,
    };
    expect(prettyLine(record, true)).toContain('\x1b[31mERROR\x1b[0m');
    expect(prettyLine(record, true)).toContain('\x1b[31m500\x1b[0m');
    expect(prettyLine(record, false)).not.toContain('\x1b[');
  });
});

describe('prettyStream', () => {
  it('turns what pino writes into pretty lines, redactions included', () => {
    const written: string[] = [];
    const stream = prettyStream({ write: (s: string) => written.push(s) }, false);
    const logger = pino(
      {
        base: { pid: 1 },
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        redact: { paths: ['password'], censor: '[redacted]' },
      },
      stream,
    );
    logger.info({ user: 'ada', password: 'hunter2' }, 'Login');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  Login user=ada password=\[redacted\]\n$/);
  });

  it('passes a line that is not JSON through unchanged', () => {
    const written: string[] = [];
    prettyStream({ write: (s: string) => written.push(s) }, false).write('plain text\n');
    expect(written).toEqual(['plain text\n']);
  });
});
