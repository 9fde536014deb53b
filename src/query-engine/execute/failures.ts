import { QueryCompileError } from '../compile/contract';
import { InvalidQueryError } from '../mbql/validate';
import { ParameterError } from '../parameters/errors';
import { PreprocessError } from '../preprocess/context';
import type { StageName } from '../preprocess';
import { QueryCancelledError, QueryError, QueryTimeoutError, WarehouseError } from './drivers/errors';

/**
 * Which errors are the query's (or the warehouse's) fault and so answer the `failed` result shape, with the
 * message the user sees and Metabase's `error_type`. Anything else is a bug and propagates (a logged 500).
 * `stage`: where the run was (see failedStage), which tells a missing parameter from an invalid one.
 */
export function describeFailure(e: unknown, stage: string): { message: string; type: string } | null {
  if (e instanceof InvalidQueryError || e instanceof QueryCompileError) return { message: e.message, type: 'invalid-query' };
  if (e instanceof PreprocessError) return { message: e.message, type: 'invalid-query' };
  if (e instanceof QueryTimeoutError) return { message: e.message, type: 'timed-out' };
  if (e instanceof QueryCancelledError) return { message: e.message, type: 'cancelled' };
  if (e instanceof QueryError) return { message: e.message, type: 'db' };
  if (e instanceof WarehouseError) return { message: e.message, type: 'db' };
  if (e instanceof ParameterError) return { message: e.message, type: stage === 'substitute-parameters' ? 'missing-required-parameter' : 'invalid-parameter' };
  return null;
}

const STAGE = Symbol('query stage');

/**
 * Records on an error the stage it was raised in (the innermost one: a stage of a card inlined while compiling
 * keeps its own name). The message stays as it is: the wire shows it unchanged.
 */
export function markStage(e: unknown, stage: StageName): void {
  if (!e || typeof e !== 'object' || STAGE in e) return;
  try {
    Object.defineProperty(e, STAGE, { value: stage, enumerable: false });
  } catch {
    // A frozen error keeps no mark; it still propagates as it is.
  }
}

/** The stage an error was raised in, when it came out of the query pipeline. */
export function failedStage(e: unknown): StageName | undefined {
  return e && typeof e === 'object' && STAGE in e ? (e as { [STAGE]: StageName })[STAGE] : undefined;
}
