/**
 * One pino JSON record as a line a person reads in a terminal: time, level, message, then the fields as
 * key=value. A request line reads as `GET /path 200 1.2 ms`. An error's stack follows on indented lines.
 */
const LEVEL_COLORS: Record<string, number> = { trace: 90, debug: 36, info: 32, warn: 33, error: 31, fatal: 35 };
/** Fields every line has or that the line shows in its own place. */
const SHOWN_ELSEWHERE = new Set(['time', 'level', 'msg', 'pid', 'hostname', 'err', 'stack']);
const REQUEST_FIELDS = new Set(['method', 'path', 'status', 'duration_ms']);

export function prettyLine(record: Record<string, unknown>, colors = false): string {
  const level = String(record.level ?? 'info');
  const paint = (code: number, s: string) => (colors ? `\x1b[${code}m${s}\x1b[0m` : s);
  const time = typeof record.time === 'string' ? (/T(\d\d:\d\d:\d\d(\.\d+)?)/.exec(record.time)?.[1] ?? record.time) : '';
  const parts = [paint(90, time), paint(LEVEL_COLORS[level] ?? 0, level.toUpperCase().padEnd(5))];
  const isRequest = record.msg === 'request' && typeof record.method === 'string';
  if (isRequest) {
    parts.push(
      `${record.method} ${String(record.path)} ${paint(statusColor(record.status), String(record.status))}` +
        ` ${String(record.duration_ms)} ms`,
    );
  } else {
    parts.push(String(record.msg ?? ''));
  }
  for (const [key, value] of Object.entries(record)) {
    if (SHOWN_ELSEWHERE.has(key) || value === undefined || (isRequest && REQUEST_FIELDS.has(key))) continue;
    parts.push(`${paint(90, key + '=')}${formatValue(value)}`);
  }
  let line = parts.filter((p) => p !== '').join(' ');
  const err = record.err as { type?: string; message?: string; stack?: string } | undefined;
  if (err && typeof err === 'object') {
    line += ` ${paint(90, 'err=')}${formatValue(`${err.type ?? 'Error'}: ${err.message ?? ''}`)}`;
    if (err.stack) line += indentStack(err.stack);
  }
  if (typeof record.stack === 'string') line += indentStack(record.stack);
  return line + '\n';
}

function statusColor(status: unknown): number {
  const n = Number(status);
  return n >= 500 ? 31 : n >= 400 ? 33 : 32;
}

/** Plain words stay bare; anything with spaces, quotes or `=` is quoted; objects are compact JSON. */
function formatValue(value: unknown): string {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/** The stack minus its first line (the message, already shown), indented under the line. */
function indentStack(stack: string): string {
  const frames = stack
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '');
  return frames.length ? '\n' + frames.map((l) => `    ${l.trim()}`).join('\n') : '';
}

/** Turns each JSON line pino writes into a pretty one on `out`. */
export function prettyStream(
  out: { write(s: string): unknown },
  colors = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
): { write(line: string): void } {
  return {
    write(line: string) {
      try {
        out.write(prettyLine(JSON.parse(line) as Record<string, unknown>, colors));
      } catch {
        out.write(line); // not JSON (never expected): shown as it came
      }
    },
  };
}
