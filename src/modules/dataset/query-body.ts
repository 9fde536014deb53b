import { describeReceived, MessageError, ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { isMbql5Query } from '../../query-engine/mbql/mbql5';
import { normalizeDatasetQuery } from '../../query-engine/mbql/normalize';
import type { DatasetQuery } from '../../query-engine/mbql/types';
import { InvalidQueryError } from '../../query-engine/mbql/validate';

/**
 * The one first look every query endpoint takes at its body (/api/dataset, /native, /pivot, /duration,
 * /query_metadata, the exports): a map whose `database` is acceptable, in legacy MBQL or MBQL 5. What the query
 * says is left to normalization and validation (mbql/), which answer the invalid-query shape; only the wording of
 * a bad body differs per endpoint, as each keeps the message its clients know.
 */
export type BodyRule =
  /** POST /api/dataset, /duration, the exports: `database` may be nil, else an integer (Metabase's schema). */
  | 'dataset'
  /** POST /api/dataset/pivot: a positive integer, optional by the schema and then required. */
  | 'pivot'
  /** POST /api/dataset/native and /query_metadata: a positive integer, required. */
  | 'required';

export const DATABASE_REQUIRED = '`database` is required for all queries.';

export function checkQueryBody(body: unknown, rule: BodyRule): Record<string, unknown> {
  if (!isMap(body)) {
    if (rule === 'required') throw ValidationError.of('database', MSG.positiveInt, undefined);
    throw ValidationError.of('query', MSG.map, body);
  }
  const db = body.database;
  const absent = db === undefined || db === null;
  if (rule === 'dataset') {
    if (!absent && !Number.isInteger(db)) {
      throw new ValidationError(
        { database: 'value may be nil, or if non-nil, value must be an integer.' },
        { database: [describeReceived('value must be an integer', db)] },
      );
    }
  } else if (rule === 'pivot') {
    if (!absent && !isPositiveInt(db))
      throw new ValidationError({ database: `nullable ${MSG.positiveInt}` }, { database: [describeReceived(MSG.positiveInt, db)] });
    if (absent) throw new MessageError(DATABASE_REQUIRED);
  } else if (!isPositiveInt(db)) {
    throw ValidationError.of('database', MSG.positiveInt, db);
  }
  return body;
}

/** A whole dataset query: legacy (`type` with `query` or `native`) or MBQL 5 (`lib/type: mbql/query`). */
export function isDatasetQuery(q: unknown): boolean {
  return isMbql5Query(q) || (isMap(q) && 'type' in q && ('query' in q || 'native' in q));
}

/** Whether the query as sent is native SQL (for the log of a query that did not normalize). */
export function isNativeQuery(q: unknown): boolean {
  if (isMbql5Query(q)) {
    const stages = q.stages;
    return Array.isArray(stages) && stages.length === 1 && isMap(stages[0]) && stages[0]['lib/type'] === 'mbql.stage/native';
  }
  return isMap(q) && q.type === 'native';
}

/**
 * The dataset query of a body that is one, or that wraps one as `{database, query}` (/native, /duration,
 * /query_metadata): `query` an inner query, or a whole legacy or MBQL 5 query (which then runs on the body's database).
 */
export function datasetQueryOf(body: Record<string, unknown>): Record<string, unknown> {
  if (isMbql5Query(body)) return body;
  if (body.type === 'native') {
    if (!isMap(body.native)) throw ValidationError.of('native', MSG.map, body.native);
    return body;
  }
  const q = body.query;
  if (!isMap(q)) throw ValidationError.of('query', MSG.map, q);
  if (isDatasetQuery(q)) return { ...q, database: body.database ?? q.database };
  return typeof body.type === 'string' ? body : { database: body.database, type: 'query', query: q };
}

/**
 * POST /api/dataset/native: `{database, query, pretty?}` with `query` inner or whole, or the dataset query itself with
 * `pretty` (as Metabase's current clients send it, MBQL 5 included).
 */
export function nativeRequestOf(body: unknown): { query: Record<string, unknown>; sent: unknown; pretty: boolean } {
  const { pretty, ...rest } = checkQueryBody(body, 'required');
  if (pretty !== undefined && pretty !== null && typeof pretty !== 'boolean') throw ValidationError.of('pretty', MSG.boolean, pretty);
  if (!isDatasetQuery(rest) && (rest.query === undefined || rest.query === null)) throw ValidationError.of('query', MSG.map, rest.query);
  return { query: datasetQueryOf(rest), sent: isDatasetQuery(rest) ? rest : rest.query, pretty: pretty === true };
}

/** The normalized query (MBQL 5 converted), or the InvalidQueryError saying why it cannot be. */
export function normalizedOrError(q: unknown): DatasetQuery | InvalidQueryError {
  try {
    return normalizeDatasetQuery(q);
  } catch (e) {
    if (e instanceof InvalidQueryError) return e;
    throw e;
  }
}

function isPositiveInt(v: unknown): boolean {
  return Number.isInteger(v) && (v as number) > 0;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
