import type { InnerQuery } from '../mbql/types';
import type { ClauseContext } from './clause-context';
import type { CompiledColumn } from './contract';
import type { FieldResolver } from './fields';

/** One compiled query level: its SELECT and its result columns. */
export interface LevelResult {
  sql: string;
  columns: CompiledColumn[];
}

/** One entry of a SELECT list: `direct` for a plain stored column (no function around it). */
export interface SelectItem {
  sql: string;
  col: CompiledColumn;
  direct: boolean;
}

/**
 * What the parts of one level's compile (level-sources.ts, select-fields.ts, ordering.ts) see of the level (level.ts):
 * its query and path, the clause being compiled (which they set, for messages), its field resolution, and how a
 * place and a nested source query are compiled.
 */
export interface LevelScope extends ClauseContext {
  clause: string;
  readonly query: InnerQuery;
  /** This level's path in the whole query: `query`, `query.source-query`, `query.joins[0].source-query`... */
  readonly path: string;
  readonly fields: FieldResolver;
  /** Runs `fn` compiling the place `at`, so that a compile error raised in it and not placed yet names it. */
  within<T>(at: string, fn: () => T): T;
  /** A filter or join condition at `at`: each part of a top-level `and` as a place of its own. */
  placedFilter(f: unknown, at: string): string;
  /** A source query of this level (or of one of its joins), compiled as a level of its own at `path`. */
  subquery(q: InnerQuery, path: string, depth: number): LevelResult;
}
