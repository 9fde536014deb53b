import type { ContentResolver, MetadataProvider } from '../metadata';
import { levelPath } from '../mbql/places';
import type { DatasetQuery, NativeQuery, ParameterValue } from '../mbql/types';
import type { SqlParam } from '../types';
import type { RowPolicies } from './row-policy-types';

/** What stages may consult. Everything about the app DB comes through the two resolvers. */
export interface PreprocessContext {
  metadata: MetadataProvider;
  content: ContentResolver;
  now: Date;
  /** Rows at most, from the query's constraints or the caller's default (2,000 for ad-hoc queries). */
  maxRows: number;
  /** The caller's row security policies (absent: none apply, as for admins and shared objects). */
  policies?: RowPolicies;
  /**
   * Fills in a native query's template tags for the query's database, as a native query's are: a row security
   * policy's SQL question stands in for its table inside a structured query. Absent where nothing is compiled.
   */
  nativeSql?: (native: NativeQuery, parameters: ParameterValue[]) => Promise<{ sql: string; params: SqlParam[] }>;
}

export type Stage = (query: DatasetQuery, ctx: PreprocessContext) => Promise<DatasetQuery> | DatasetQuery;

/**
 * Errors a stage raises because of the query itself; the processor reports which stage. `clause` is the place the
 * message names (`in "breakout"`), `at` its whole path in the query (`query.source-query.breakout[0]`), when known.
 */
export class PreprocessError extends Error {
  readonly kind = 'invalid-query';

  constructor(
    message: string,
    readonly clause?: string,
    public at?: string,
  ) {
    super(message);
    this.name = 'PreprocessError';
  }
}

/**
 * Depth-first map over an inner query and every nested source query and join query; `fn` is told each level's path
 * (`query.joins[0].source-query`: mbql/places.ts levelPath), from `path`, the path of `q`.
 */
export async function mapInnerQueries<T extends object>(q: T, fn: (inner: T, path: string) => Promise<T> | T, path = 'query'): Promise<T> {
  const inner = q as Record<string, unknown>;
  const out: Record<string, unknown> = { ...inner };
  const sub = (level: unknown, parent: string) => mapInnerQueries(level as T, fn, levelPath(level as object, parent, 'source-query'));
  if (inner['source-query']) out['source-query'] = await sub(inner['source-query'], path);
  if (Array.isArray(inner.joins)) {
    out.joins = await Promise.all(
      (inner.joins as Array<Record<string, unknown>>).map(async (j, i) =>
        j['source-query'] ? { ...j, 'source-query': await sub(j['source-query'], `${path}.joins[${i}]`) } : j,
      ),
    );
  }
  return fn(out as T, path);
}
