import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { LoggerService } from '@nestjs/common';
import pino from 'pino';
import type { LogLevel } from '../../config/app-config';
import { LogRingBuffer } from './log-ring-buffer';
import { requestContext } from './request-context';

/** Keys whose values never reach a log line, at any depth pino checks. */
const REDACT = [
  'password', 'old_password', 'token', 'jwt', 'secret', 'key', 'unmasked_key', 'value', 'authorization', 'cookie',
  'details.password', 'details.secret', 'headers.cookie', 'headers.authorization', 'headers["x-api-key"]',
  'headers["x-metabase-session"]', '*.password', '*.token', '*.jwt', '*.secret', '*.unmasked_key',
];

const PROCESS_UUID = randomUUID();

/**
 * Structured JSON logs with the request id of the current request, written to stdout (or only to memory in
 * tests) and kept in a ring buffer for the admin log viewer. Also serves as Nest's logger.
 */
export class AppLogger implements LoggerService {
  readonly buffer = new LogRingBuffer();
  private readonly pino: pino.Logger;

  constructor(level: LogLevel, target: 'stdout' | 'memory') {
    const ring = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        this.capture(chunk.toString());
        done();
      },
    });
    const streams: pino.StreamEntry[] = [{ level: 'trace', stream: ring }];
    if (target === 'stdout') streams.push({ level: 'trace', stream: pino.destination({ dest: 1, sync: false }) });
    this.pino = pino(
      {
        level,
        base: { pid: process.pid },
        redact: { paths: REDACT, censor: '[redacted]' },
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        mixin: () => {
          const ctx = requestContext.getStore();
          return ctx ? { request_id: ctx.requestId, user_id: ctx.userId } : {};
        },
        serializers: { err: pino.stdSerializers.err },
      },
      pino.multistream(streams),
    );
  }

  private capture(line: string): void {
    try {
      const o = JSON.parse(line) as Record<string, unknown>;
      const err = o.err as { stack?: string; message?: string } | undefined;
      this.buffer.push({
        timestamp: String(o.time),
        level: String(o.level).toUpperCase(),
        fqns: String(o.context ?? 'app'),
        msg: String(o.msg ?? ''),
        exception: err ? String(err.stack ?? err.message) : null,
        process_uuid: PROCESS_UUID,
        request_id: o.request_id as string | undefined,
      });
    } catch {
      /* a line we cannot parse is not worth failing a request for */
    }
  }

  info(msg: string, fields: Record<string, unknown> = {}): void {
    this.pino.info(fields, msg);
  }
  warning(msg: string, fields: Record<string, unknown> = {}): void {
    this.pino.warn(fields, msg);
  }
  /** Ours: (msg, fields). Nest's: (message, stack?, context?). */
  error(msg: unknown, fields: Record<string, unknown> | string = {}, context?: string): void {
    const obj = typeof fields === 'string' ? { stack: fields, context } : fields;
    this.pino.error(obj, String(msg));
  }
  debug(msg: string, fields: Record<string, unknown> = {}): void {
    this.pino.debug(fields, msg);
  }

  // Nest's LoggerService: (message, context) or (message, stack, context).
  log(message: unknown, context?: string): void {
    this.pino.info({ context }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.pino.warn({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.pino.trace({ context }, String(message));
  }
  fatal(message: unknown, context?: string): void {
    this.pino.fatal({ context }, String(message));
  }

  flush(): void {
    this.pino.flush();
  }
}
