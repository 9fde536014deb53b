import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isQueryEngineError, type QueryEngineError } from '../../query-engine/errors';
import { AppLogger } from '../logging/app-logger';
import { loggablePath } from '../logging/loggable-path';
import { ApiError } from './api-errors';

/** How long a caller that met a full connection pool, or waited its longest for a query slot, is asked to wait before trying again. */
export const POOL_RETRY_AFTER_SECONDS = 5;

interface WireAnswer {
  status: number;
  body: string | Record<string, unknown>;
  /** Headers that belong to the status: they are left out when a surface answers with another one. */
  headers?: Record<string, string>;
  /** Answered as it is on the public surface too (ApiError.answeredPublicly). */
  publicly?: boolean;
}

/**
 * The one place errors reach the wire. Domain errors keep their shape; the query engine's errors are translated
 * by kind (domainAnswer); Nest's own HTTP exceptions (bad JSON body, unknown route, payload too large) map to the
 * same shapes; anything else is a bug: a logged 500 with a generic message, never a stack or SQL. The public and
 * embed surfaces answer more tersely, as Metabase does.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(@Inject(AppLogger) private readonly logger: AppLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    if (res.headersSent) {
      res.end();
      return;
    }
    const answer = this.toWire(exception, req);
    let { status, body } = answer;
    const surface = req.path.startsWith('/api/embed/') ? 'embed' : req.path.startsWith('/api/public/') ? 'public' : 'api';
    if (surface === 'embed') {
      body = typeof body === 'string' ? body : String(body.message ?? 'An error occurred.');
      status = 400;
    } else if (surface === 'public' && status !== 404 && !answer.publicly) {
      status = 400;
      body = 'An error occurred.';
    }
    res.status(status);
    if (status === answer.status) for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    if (typeof body === 'string') res.type('text/plain; charset=utf-8').send(body);
    else res.json(body);
  }

  private toWire(exception: unknown, req: Request): WireAnswer {
    if (exception instanceof ApiError) return { status: exception.status, body: exception.body(), publicly: exception.answeredPublicly };
    const domain = isQueryEngineError(exception) ? domainAnswer(exception) : null;
    if (domain) return domain;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) {
        return { status, body: req.path.startsWith('/api/') || req.path === '/api' ? 'API endpoint does not exist.' : 'Not found.' };
      }
      if (status < 500) return { status, body: { message: clientMessage(exception) } };
    }
    this.logger.error('Unhandled error', { err: exception, method: req.method, path: loggablePath(req.path) });
    return { status: 500, body: { message: 'An unexpected error occurred.' } };
  }
}

/**
 * The answer to each kind of query-engine error. A failure of the warehouse or of what the caller asked of it (an
 * invalid query, a parameter) is the caller's 400 with the message (which names what failed and never carries driver
 * internals); a pool with no free connection, or a query slot not given in time, is the server's capacity, a 503 the
 * caller may retry.
 */
function domainAnswer(e: QueryEngineError): WireAnswer | null {
  switch (e.kind) {
    case 'details':
      return { status: 400, body: { message: e.message, errors: { [e.field]: e.message } } };
    case 'connection':
    case 'query':
    case 'timeout':
    case 'cancelled':
    case 'parameter':
    case 'invalid-query':
      return { status: 400, body: { message: e.message } };
    case 'pool-timeout':
    case 'queue-timeout':
      return { status: 503, body: { message: e.message }, headers: { 'Retry-After': String(POOL_RETRY_AFTER_SECONDS) } };
    default:
      return unanswered(e);
  }
}

/** Compiles only when the switch above answers every kind; at run time an unanswered one is a logged 500. */
function unanswered(_e: never): null {
  return null;
}

function clientMessage(exception: HttpException): string {
  const status = exception.getStatus();
  if (status === 400) return 'The request body could not be parsed.';
  if (status === 413) return 'The request body is too large.';
  if (status === 415) return 'Unsupported media type.';
  return exception.message;
}
