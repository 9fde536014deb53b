import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { INestApplication, NestApplicationOptions } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import type { NextFunction, Request, Response } from 'express';
import { AppModule } from './app.module';
import { AppConfig } from './config/app-config';
import { AppLogger } from './common/logging/app-logger';
import { requestContext, type RequestContext } from './common/logging/request-context';
import { chain } from './common/http/chain';
import { formBody, jsonBody } from './common/http/request-body';
import { urlWithoutNul } from './common/http/request-url';
import { loggablePath } from './common/logging/loggable-path';
import { embeddingHttp } from './common/http/embedding-http';
import { SETTINGS_READER, type SettingsReader } from './common/settings/settings-reader';
import { MetricsService } from './modules/observability';
import { ApiDocsService } from './modules/api-docs';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * How a request finds its route: a literal path segment wins over a parameter (`/api/card/public` over
 * `/api/card/:id`), whatever the order in which modules and controllers declare them. src/app-routes.spec.ts keeps
 * every other overlap out of the route table.
 */
export const ROUTING = { routeResolutionStrategy: 'specificity' } as const satisfies NestApplicationOptions;

/** Builds the whole app; main.ts listens on it, tests drive it with supertest. */
export async function createApp(
  config: AppConfig,
  logger = new AppLogger(config.logLevel, config.logTarget, config.logFormat),
): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, logger), {
    logger,
    bodyParser: false,
    abortOnError: false,
    ...ROUTING,
  });
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // Express would hash every response body for an ETag: megabytes of query results per request, for no use here.
  app.set('etag', false);
  // First, so every request is timed: also those a later middleware answers (preflights, unparsable bodies).
  const timer = app.get(MetricsService).requestTimer(); // only while METRICS_PORT is set
  if (timer) app.use(timer);
  app.use(
    chain(
      urlWithoutNul(), // `%00` anywhere in the URL: 400, before it reaches a query of the app database
      jsonBody(), // `null` is no body; too large, too deep or not JSON: a 4xx naming the limit
      formBody(),
      cookieParser(),
      embeddingHttp(app.get<SettingsReader>(SETTINGS_READER)), // CORS, API keys from embedding clients, frame-ancestors
      // After the body parsers: they resume on the socket's async context, which would drop the request's.
      requestLogging(logger),
    ),
  );
  app.get(ApiDocsService).attach(app); // GET /api/docs documents this app
  return app;
}

/** One JSON line per request, with its id; the path only, since query strings may carry tokens (and without a token in the path). */
function requestLogging(logger: AppLogger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    const context: RequestContext = { requestId };
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.request(
        { method: req.method, path: loggablePath(req.path), status: res.statusCode, duration_ms: Math.round(ms * 10) / 10 },
        context,
      );
    });
    requestContext.run(context, next);
  };
}
