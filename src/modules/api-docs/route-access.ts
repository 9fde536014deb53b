import { RequestMethod } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { ACCESS_KEY, AccessLevel } from '../../common/auth/access.decorator';

/** One route handler of a controller, as the OpenAPI document names it. */
export interface RouteHandler {
  /** `Controller_method`: @nestjs/swagger's default operationId. */
  operationId: string;
  method: string;
  /** The controller's and the handler's paths joined (`api/card/:id`). */
  path: string;
  access: AccessLevel | undefined;
  /** Classes among the handler's parameter types (body and query DTOs). */
  paramClasses: Array<new (...args: never[]) => unknown>;
  /** The DTO of a whole `@Query()`, whose fields are the query-string parameters. */
  queryDto?: new (...args: never[]) => unknown;
}

type Ctor = new (...args: never[]) => unknown;

const BUILT_INS = new Set<unknown>([String, Number, Boolean, Object, Array, Promise, Function]);

/**
 * Every route handler of every controller, read from Nest's metadata like the route-access test does, with its
 * @Access level.
 */
export function routeHandlers(modules: ModulesContainer): RouteHandler[] {
  const reflector = new Reflector();
  const scanner = new MetadataScanner();
  const controllers = [...modules.values()].flatMap((m) => [...m.controllers.values()]);
  return controllers.flatMap((wrapper) => {
    const ctor = wrapper.metatype as (new (...args: never[]) => unknown) | null;
    if (!ctor) return [];
    const proto = ctor.prototype as Record<string, unknown>;
    return scanner.getAllMethodNames(proto).flatMap((name) => {
      const handler = proto[name] as object;
      const sub = Reflect.getMetadata('path', handler) as string | string[] | undefined;
      if (sub === undefined) return [];
      const base = (Reflect.getMetadata('path', ctor) as string | undefined) ?? '/';
      const types = (Reflect.getMetadata('design:paramtypes', proto, name) as unknown[] | undefined) ?? [];
      const args =
        (Reflect.getMetadata(ROUTE_ARGS_METADATA, ctor, name) as Record<string, { index: number; data?: unknown }> | undefined) ?? {};
      const wholeQuery = Object.entries(args).find(([key, a]) => key.startsWith(`${RouteParamtypes.QUERY}:`) && a.data === undefined)?.[1];
      const queryType = wholeQuery ? types[wholeQuery.index] : undefined;
      return [
        {
          operationId: `${ctor.name}_${name}`,
          method: RequestMethod[Reflect.getMetadata('method', handler) as number],
          path: [base, ...[sub].flat()]
            .join('/')
            .replace(/\/+/g, '/')
            .replace(/^\/|\/$/g, ''),
          access: reflector.getAllAndOverride<AccessLevel | undefined>(ACCESS_KEY, [handler as never, ctor]),
          paramClasses: types.filter((t): t is Ctor => typeof t === 'function' && !BUILT_INS.has(t)),
          queryDto: typeof queryType === 'function' && !BUILT_INS.has(queryType) ? (queryType as Ctor) : undefined,
        },
      ];
    });
  });
}
