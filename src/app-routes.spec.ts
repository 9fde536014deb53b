import { Controller, Get, INestApplication, Module, RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, NestFactory } from '@nestjs/core';
import type { ResolvedRoute } from '@nestjs/core/router/interfaces/resolved-route.interface.js';
import { RouteConflictDetector } from '@nestjs/core/router/route-conflict-detector.js';
import { RouteSpecificitySorter } from '@nestjs/core/router/route-specificity-sorter.js';
import request from 'supertest';
import { ROUTING } from './app.factory';
import { AppModule } from './app.module';
import type { AppLogger } from './common/logging/app-logger';
import type { AppConfig } from './config/app-config';

/** One route as a controller declares it: method, full path (`/api/card/:id`), and who declares it. */
interface Route {
  method: RequestMethod;
  path: string;
  controller: string;
  handler: string;
}

type ModuleRef =
  Type<unknown> | { module: Type<unknown>; imports?: unknown[]; controllers?: Type<unknown>[] } | { forwardRef: () => unknown };

/** Every controller of the modules reachable from `roots` through their imports, read from the @Module metadata. */
function controllersOf(roots: unknown[]): Type<unknown>[] {
  const seen = new Set<unknown>();
  const controllers = new Set<Type<unknown>>();
  const visit = (ref: unknown): void => {
    const m = ref as ModuleRef;
    if (!m || seen.has(m)) return;
    seen.add(m);
    if ('forwardRef' in m) return visit(m.forwardRef());
    const cls = 'module' in m ? m.module : m;
    const declared = [
      ...((Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, cls) as Type<unknown>[] | undefined) ?? []),
      ...('module' in m ? (m.controllers ?? []) : []),
    ];
    declared.forEach((c) => controllers.add(c));
    const imports = [
      ...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, cls) as unknown[] | undefined) ?? []),
      ...('module' in m ? (m.imports ?? []) : []),
    ];
    imports.forEach(visit);
  };
  roots.forEach(visit);
  return [...controllers];
}

const joined = (...parts: string[]) => `/${parts.join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');

/** The route table the controllers declare: each @Controller path joined with each handler's @Get/@Post/... path. */
function routeTable(controllers: Type<unknown>[]): Route[] {
  const scanner = new MetadataScanner();
  return controllers.flatMap((ctor) => {
    const bases = [(Reflect.getMetadata(PATH_METADATA, ctor) as string | string[] | undefined) ?? '/'].flat();
    const proto = ctor.prototype as Record<string, object>;
    return scanner.getAllMethodNames(proto).flatMap((handler) => {
      const subs = Reflect.getMetadata(PATH_METADATA, proto[handler]) as string | string[] | undefined;
      if (subs === undefined) return [];
      const method = Reflect.getMetadata(METHOD_METADATA, proto[handler]) as RequestMethod;
      return bases.flatMap((base) => [subs].flat().map((sub) => ({ method, path: joined(base, sub), controller: ctor.name, handler })));
    });
  });
}

const label = (r: Route) => `${RequestMethod[r.method]} ${r.path} (${r.controller}.${r.handler})`;

/**
 * The pairs of routes that one request could reach both of. Allowed only inside one controller, and only where one
 * path is the more specific at the first segment where they differ (a literal where the other has a parameter):
 * the app registers the more specific one first (ROUTING), so neither the order of the modules nor that of the
 * handlers decides.
 */
function ambiguities(routes: Route[]): string[] {
  const found: string[] = [];
  routes.forEach((a, i) =>
    routes.slice(i + 1).forEach((b) => {
      if (a.method !== b.method && a.method !== RequestMethod.ALL && b.method !== RequestMethod.ALL) return;
      if (!RouteConflictDetector.pathsCanOverlap(a.path, b.path)) return;
      if (a.controller !== b.controller) {
        found.push(`${label(a)} and ${label(b)}: two controllers for one request`);
        return;
      }
      // Nest's own order: a tie keeps the order given, so then each comes first when given first.
      const first = (x: Route, y: Route) => RouteSpecificitySorter.sort([x, y] as unknown as ResolvedRoute[])[0] as unknown as Route;
      if (first(a, b) !== first(b, a)) found.push(`${label(a)} and ${label(b)}: neither is the more specific`);
    }),
  );
  return found;
}

describe('the route table', () => {
  const routes = routeTable(controllersOf([AppModule.forRoot({} as AppConfig, {} as AppLogger)]));

  it('is read from the controllers of every module of the app', () => {
    expect(routes.length).toBeGreaterThan(250);
    const paths = new Set(routes.map((r) => `${RequestMethod[r.method]} ${r.path}`));
    for (const known of ['GET /api/card/:id', 'POST /api/card/:cardId/persist', 'GET /api/dashboard/:id', 'GET /api/segment/:id', 'GET /'])
      expect(paths).toContain(known);
  });

  it('has no request that two controllers could both answer, nor two routes of one controller that tie', () => {
    expect(ambiguities(routes)).toEqual([]);
  });

  it('would report a path declared by two controllers, and two routes that differ only by the names of their parameters', () => {
    const route = (method: RequestMethod, path: string, controller: string, handler = 'h'): Route => ({
      method,
      path,
      controller,
      handler,
    });
    expect(
      ambiguities([
        route(RequestMethod.GET, '/api/card/:id', 'A'),
        route(RequestMethod.GET, '/api/card/public', 'B'),
        route(RequestMethod.GET, '/api/card/:cardId', 'A', 'other'),
        route(RequestMethod.POST, '/api/card/public', 'A'),
      ]),
    ).toEqual([
      'GET /api/card/:id (A.h) and GET /api/card/public (B.h): two controllers for one request',
      'GET /api/card/:id (A.h) and GET /api/card/:cardId (A.other): neither is the more specific',
      'GET /api/card/public (B.h) and GET /api/card/:cardId (A.other): two controllers for one request',
    ]);
    expect(ambiguities([route(RequestMethod.GET, '/api/card/:id', 'A'), route(RequestMethod.GET, '/api/card/public', 'A')])).toEqual([]);
  });
});

describe('ROUTING', () => {
  @Controller('things')
  class Things {
    @Get(':id')
    one() {
      return 'one';
    }

    @Get('public')
    shared() {
      return 'public';
    }
  }

  let app: INestApplication;
  beforeAll(async () => {
    @Module({ controllers: [Things] })
    class ThingsModule {}
    app = await NestFactory.create(ThingsModule, { logger: false, ...ROUTING });
    await app.init();
  });
  afterAll(() => app.close());

  it('lets a literal segment win over a parameter declared before it', async () => {
    expect((await request(app.getHttpServer()).get('/things/public').expect(200)).text).toBe('public');
    expect((await request(app.getHttpServer()).get('/things/7').expect(200)).text).toBe('one');
  });
});
