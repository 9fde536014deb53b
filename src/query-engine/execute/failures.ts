import { QueryCompileError } from '../compile/contract';
import { InvalidQueryError } from '../mbql/validate';
import { PreprocessError } from '../preprocess/context';
import { QueryCancelledError, QueryError, QueryTimeoutError, WarehouseError } from './drivers/errors';

/**
 * Which errors are the query's (or the warehouse's) fault and so answer the `failed` result shape, with the
 * message the user sees and Metabase's `error_type`. Anything else is a bug and propagates (a logged 500).
 */
export function describeFailure(e: unknown, stage: string): { message: string; type: string } | null {
  if (e instanceof InvalidQueryError || e instanceof QueryCompileError) return { message: e.message, type: 'invalid-query' };
  if (e instanceof PreprocessError) return { message: e.message, type: 'invalid-query' };
  if (e instanceof QueryTimeoutError) return { message: e.message, type: 'timed-out' };
  if (e instanceof QueryCancelledError) return { message: e.message, type: 'cancelled' };
  if (e instanceof QueryError) return { message: e.message, type: 'db' };
  if (e instanceof WarehouseError) return { message: e.message, type: 'db' };
  if (e instanceof Error && e.name === 'ParameterError') return { message: e.message, type: stage === 'substitute-parameters' ? 'missing-required-parameter' : 'invalid-parameter' };
  return null;
}
