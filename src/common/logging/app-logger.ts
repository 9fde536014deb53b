import { randomUUID } from 'node:crypto';
import { LoggerService } from '@nestjs/common';
import pino from 'pino';
import type { LogLevel } from '../../config/app-config';
import { LogRingBuffer } from './log-ring-buffer';
import { prettyStream } from './pretty-line';
import { requestContext } from './request-context';

/** Keys whose values never reach a log line, at any depth pino checks. */
const REDACT = [
  'password',
  'old_password',
  'token',
  'jwt',
  'secret',
  'key',
  'unmasked_key',
  'value',
  'authorization',
  'cookie',
  'details.password',
  'details.secret',
  'headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-metabase-session"]',
  '*.password',
  '*.token',
  '*.jwt',
  '*.secret',
  '*.unmasked_key',
];

const PROCESS_UUID = randomUUID();

export interface RequestLine {
  method: string;
  path: string;
  status: number;
  duration_ms: number;
}

/**
 * Structured JSON logs with the request id of the current request, written to stdout (or only to memory in
 * tests) and kept in a ring buffer for the admin log viewer. Also serves as Nest's logger.
 */
export class AppLogger implements LoggerService {
  readonly buffer = new LogRingBuffer();
  private readonly pino: pino.Logger;
  /** For request lines only: see request(). */
  private readonly plain: pino.Logger;
  private readonly stdout: ReturnType<typeof pino.destination> | null;

  /**
   * `format` pretty: one readable line per record for a person at a terminal (written at once, colored when stdout
   * is a terminal); json: the lines a container's log collector parses.
   */
  constructor(level: LogLevel, target: 'stdout' | 'memory', format: 'json' | 'pretty' = 'json') {
    // JSON lines are gathered up to 4 kB (or 1 s) per write: a write per line cost a quarter of a millisecond of
    // every request here. flush() empties the buffer at once (start-up, shutdown).
    const batch = format === 'json' ? { minLength: 4096, periodicFlush: 1000 } : {};
    this.stdout = target === 'stdout' ? pino.destination({ dest: 1, sync: false, ...batch }) : null;
    // One stream is written to directly: a multistream costs a level check and a copy per line.
    const stream = this.stdout ? (format === 'pretty' ? prettyStream(this.stdout) : this.stdout) : pino.multistream([]);
    const common = {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label: string) => ({ level: label }) },
    };
    this.pino = pino(
      {
        ...common,
        redact: { paths: REDACT, censor: '[redacted]' },
        mixin: () => {
          const ctx = requestContext.getStore();
          return ctx ? { request_id: ctx.requestId, user_id: ctx.userId } : {};
        },
        serializers: { err: pino.stdSerializers.err },
      },
      stream,
    );
    this.plain = pino(common, stream);
  }

  /**
   * The line every request ends with. Its fields are the server's own (method, a loggable path, status, duration),
   * so it skips the redaction and the context look-up the other lines pay: on the cheapest requests those were a
   * tenth of the time.
   */
  request(fields: RequestLine, context: { requestId: string; userId?: number }): void {
    if (!this.plain.isLevelEnabled('info')) return;
    this.plain.info({ request_id: context.requestId, user_id: context.userId, ...fields }, 'request');
    this.remember('info', 'request', {}, context.requestId);
  }

  /**
   * The ring buffer keeps the message, not the fields, so nothing a redaction would hide can reach it; it is fed
   * directly rather than by parsing pino's output again (that cost more than the logging itself).
   */
  private remember(
    level: pino.Level,
    msg: string,
    fields: Record<string, unknown>,
    requestId = requestContext.getStore()?.requestId,
  ): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const err = fields.err as { stack?: string; message?: string } | undefined;
    const stack = typeof fields.stack === 'string' ? fields.stack : undefined;
    this.buffer.push({
      timestamp: new Date().toISOString(),
      level: level.toUpperCase(),
      fqns: String(fields.context ?? 'app'),
      msg,
      exception: err ? String(err.stack ?? err.message) : (stack ?? null),
      process_uuid: PROCESS_UUID,
      request_id: requestId,
    });
  }

  info(msg: string, fields: Record<string, unknown> = {}): void {
    this.pino.info(fields, msg);
    this.remember('info', msg, fields);
  }
  warning(msg: string, fields: Record<string, unknown> = {}): void {
    this.pino.warn(fields, msg);
    this.remember('warn', msg, fields);
  }
  /** Ours: (msg, fields). Nest's: (message, stack?, context?). */
  error(msg: unknown, fields: Record<string, unknown> | string = {}, context?: string): void {
    const obj = typeof fields === 'string' ? { stack: fields, context } : fields;
    this.pino.error(obj, String(msg));
    this.remember('error', String(msg), obj);
  }
  /** Whether debug lines are written: callers that build one at a cost can skip it. */
  debugEnabled(): boolean {
    return this.pino.isLevelEnabled('debug');
  }
  debug(msg: string, fields: Record<string, unknown> = {}): void {
    this.pino.debug(fields, msg);
    this.remember('debug', msg, fields);
  }

  // Nest's LoggerService: (message, context) or (message, stack, context).
  log(message: unknown, context?: string): void {
    this.info(String(message), { context });
  }
  warn(message: unknown, context?: string): void {
    this.warning(String(message), { context });
  }
  verbose(message: unknown, context?: string): void {
    this.pino.trace({ context }, String(message));
  }
  fatal(message: unknown, context?: string): void {
    this.pino.fatal({ context }, String(message));
    this.remember('fatal', String(message), { context });
  }

  /** Writes out what is buffered, synchronously: right before an exit nothing else would. */
  flush(): void {
    try {
      this.stdout?.flushSync();
    } catch {
      // A stdout that is gone (closed pipe) cannot take the last lines; nothing else to do with them.
    }
  }
}
