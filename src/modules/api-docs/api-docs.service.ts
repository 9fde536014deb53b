import { INestApplication, Injectable } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { SESSION_COOKIE } from '../../common/auth/session-cookie';
import { versionInfo } from '../../common/version';
import { ACCESS_REFUSALS, ACCESS_SECURITY, ACCESS_TEXT } from './access-levels';
import { dtoSchema, Schema } from './dto-schemas';
import { RouteHandler, routeHandlers } from './route-access';

type Operation = OpenAPIObject['paths'][string]['get'] & object;

/**
 * The OpenAPI document of the running app: @nestjs/swagger reads the controllers, then each operation gets its
 * @Access level (`x-access`, a line of its description, its credentials) and a tag by resource, and the request
 * DTOs get their schemas from their validation rules. Built once, on first use; @nestjs/swagger is loaded then too
 * (it took a fifth of the server's start-up, for a page few open).
 */
@Injectable()
export class ApiDocsService {
  private app: INestApplication | null = null;
  private built: OpenAPIObject | null = null;

  constructor(private readonly modules: ModulesContainer) {}

  /** The app to document (app.factory hands it over: swagger scans the app object, not a module). */
  attach(app: INestApplication): void {
    this.app = app;
    this.built = null;
  }

  async document(): Promise<OpenAPIObject> {
    if (this.built) return this.built;
    if (!this.app) throw new Error('ApiDocsService: no app attached');
    const { DocumentBuilder, SwaggerModule } = await import('@nestjs/swagger');
    const config = new DocumentBuilder()
      .setTitle('analytics-server')
      .setDescription(
        'Self-hosted business-analytics server with a Metabase-compatible REST API. Every operation says who may call it ' +
          '(`x-access`: public, user, admin, public-sharing, embed, admin-preview, sso). Sign in with `POST /api/session` and ' +
          'send the session id as the `X-Metabase-Session` header (or the session cookie); API keys go in `X-API-Key`.',
      )
      .setVersion(versionInfo().tag)
      .addApiKey(
        { type: 'apiKey', in: 'header', name: 'X-Metabase-Session', description: 'A session id from POST /api/session' },
        'session',
      )
      .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }, 'session-cookie')
      .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key made by an admin' }, 'api-key')
      .build();
    const doc = SwaggerModule.createDocument(this.app, config, { autoTagControllers: false });
    const handlers = routeHandlers(this.modules);
    annotateAccess(doc, handlers);
    fillDtoSchemas(doc, handlers);
    this.built = doc;
    return doc;
  }
}

function operations(doc: OpenAPIObject): Array<{ path: string; method: string; op: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, unknown>)
      .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(method))
      .map(([method, op]) => ({ path, method, op: op as Operation })),
  );
}

/** The resource an operation belongs to: the path's first segment after /api (`card`, `dashboard`...). */
function tagOf(path: string): string {
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0) return 'server';
  return parts[0] === 'api' ? (parts[1] ?? 'server') : parts[0];
}

function annotateAccess(doc: OpenAPIObject, handlers: RouteHandler[]): void {
  const byId = new Map(handlers.map((h) => [h.operationId, h]));
  for (const { path, op } of operations(doc)) {
    // A handler with several paths has an operation per path, suffixed `[n]`.
    const handler = op.operationId ? byId.get(op.operationId.replace(/\[\d+\]$/, '')) : undefined;
    op.tags = [tagOf(path)];
    if (handler?.queryDto) addQueryParameters(op, handler.queryDto);
    if (!handler?.access) continue;
    const level = handler.access;
    (op as Record<string, unknown>)['x-access'] = level;
    op.description = [`**Access: ${level}** (${ACCESS_TEXT[level]}).`, op.description].filter(Boolean).join('\n\n');
    op.security = ACCESS_SECURITY[level];
    for (const [status, description] of Object.entries(ACCESS_REFUSALS[level])) op.responses[status] ??= { description };
  }
  doc.tags = [...new Set(operations(doc).flatMap(({ op }) => op.tags ?? []))].sort().map((name) => ({ name }));
}

/** A whole-`@Query()` DTO: swagger lists no parameters without @ApiProperty; its fields are them. */
function addQueryParameters(op: Operation, dto: NonNullable<RouteHandler['queryDto']>): void {
  const schema = dtoSchema(dto, {});
  const params = (op.parameters ??= []) as Array<{ name: string; in: string }>;
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (params.some((p) => p.in === 'query' && p.name === name)) continue;
    params.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: prop } as { name: string; in: string });
  }
}

/** Swagger names a DTO's schema after its class but, without @ApiProperty, leaves it empty: filled from its rules. */
function fillDtoSchemas(doc: OpenAPIObject, handlers: RouteHandler[]): void {
  const schemas = ((doc.components ??= {}).schemas ??= {});
  const classes = new Map(handlers.flatMap((h) => h.paramClasses).map((c) => [c.name, c]));
  for (const [name, schema] of Object.entries(schemas)) {
    const dto = classes.get(name);
    const props = (schema as Schema).properties;
    if (dto && (!props || Object.keys(props).length === 0)) schemas[name] = dtoSchema(dto, schemas as Record<string, Schema>);
  }
}
