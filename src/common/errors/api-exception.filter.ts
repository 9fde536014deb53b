import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppLogger } from '../logging/app-logger';
import { ApiError } from './api-errors';

/**
 * The one place errors reach the wire. Domain errors keep their shape; Nest's own HTTP exceptions (bad JSON
 * body, unknown route, payload too large) map to the same shapes; anything else is a bug: a logged 500 with a
 * generic message, never a stack or SQL. The public and embed surfaces answer more tersely, as Metabase does.
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
    let { status, body } = this.toWire(exception, req);
    const surface = req.path.startsWith('/api/embed/') ? 'embed' : req.path.startsWith('/api/public/') ? 'public' : 'api';
    if (surface === 'embed') {
      body = typeof body === 'string' ? body : String(body.message ?? 'An error occurred.');
      status = 400;
    } else if (surface === 'public' && status !== 404) {
      status = 400;
      body = 'An error occurred.';
    }
    res.status(status);
    if (typeof body === 'string') res.type('text/plain; charset=utf-8').send(body);
    else res.json(body);
  }

  private toWire(exception: unknown, req: Request): { status: number; body: string | Record<string, unknown> } {
    if (exception instanceof ApiError) return { status: exception.status, body: exception.body() };
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) {
        return { status, body: req.path.startsWith('/api/') || req.path === '/api' ? 'API endpoint does not exist.' : 'Not found.' };
      }
      if (status < 500) return { status, body: { message: clientMessage(exception) } };
    }
    this.logger.error('Unhandled error', { err: exception, method: req.method, path: req.path });
    return { status: 500, body: { message: 'An unexpected error occurred.' } };
  }
}

function clientMessage(exception: HttpException): string {
  const status = exception.getStatus();
  if (status === 400) return 'The request body could not be parsed.';
  if (status === 413) return 'The request body is too large.';
  if (status === 415) return 'Unsupported media type.';
  return exception.message;
}
