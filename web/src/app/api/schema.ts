import type { components, paths } from './generated/openapi';

/**
 * Types of the server's API from its OpenAPI document (generated/openapi.ts, made by `npm run gen:api-types` from
 * /api/docs/openapi.json; test/web/api-types.spec.ts fails when it is stale). The document describes what the server
 * accepts (request bodies from the DTOs' validation rules, query parameters); responses it leaves undescribed, so
 * each resource file types the part of a response it reads (see web/README.md).
 */
export type Dto<Name extends keyof components['schemas']> = components['schemas'][Name];

type Operation<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];

/** The query parameters of an operation, e.g. `QueryOf<'/api/collection/tree', 'get'>`. */
export type QueryOf<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
