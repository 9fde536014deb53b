import type { ContentResolver, MetadataProvider } from '../metadata';
import type { DatasetQuery } from '../mbql/types';

/** What stages may consult. Everything about the app DB comes through the two resolvers. */
export interface PreprocessContext {
  metadata: MetadataProvider;
  content: ContentResolver;
  now: Date;
  /** Rows at most, from the query's constraints or the caller's default (2,000 for ad-hoc queries). */
  maxRows: number;
}

export type Stage = (query: DatasetQuery, ctx: PreprocessContext) => Promise<DatasetQuery> | DatasetQuery;

/**
 * Errors a stage raises because of the query itself; the processor reports which stage. `clause` is the place the
 * message names (`in "breakout"`), `at` its whole path in the query (`query.source-query.breakout[0]`), when known.
 */
export class PreprocessError extends Error {
  constructor(
    message: string,
    readonly clause?: string,
    public at?: string,
  ) {
    super(message);
    this.name = 'PreprocessError';
  }
}

/** Depth-first map over an inner query and every nested source query and join query. */
export async function mapInnerQueries<T extends object>(q: T, fn: (inner: T) => Promise<T> | T): Promise<T> {
  const inner = q as Record<string, unknown>;
  const out: Record<string, unknown> = { ...inner };
  if (inner['source-query']) out['source-query'] = await mapInnerQueries(inner['source-query'] as T, fn);
  if (Array.isArray(inner.joins)) {
    out.joins = await Promise.all(
      (inner.joins as Array<Record<string, unknown>>).map(async (j) => (j['source-query'] ? { ...j, 'source-query': await mapInnerQueries(j['source-query'] as T, fn) } : j)),
    );
  }
  return fn(out as T);
}
