import { QueryCompileError } from './compile/contract';
import { type AnyWarehouseError, isWarehouseError } from './execute/drivers/errors';
import { InvalidQueryError } from './mbql/validate';
import { ParameterError } from './parameters/errors';
import { PreprocessError } from './preprocess/context';

/**
 * The errors out of the query engine that are someone's to fix rather than bugs: the warehouse's (by their kind:
 * execute/drivers/errors.ts), a parameter value the caller must fix (`parameter`), and a query that is invalid or
 * cannot be compiled (`invalid-query`). Each declares its `kind`, so the HTTP edge answers every kind in one
 * exhaustive switch; anything else the engine throws is a bug.
 */
export type QueryEngineError = AnyWarehouseError | ParameterError | InvalidQueryError | QueryCompileError | PreprocessError;

/** Matches by class, never by name or `kind` alone: an error merely shaped like one is not one. */
export function isQueryEngineError(e: unknown): e is QueryEngineError {
  return (
    isWarehouseError(e) ||
    e instanceof ParameterError ||
    e instanceof InvalidQueryError ||
    e instanceof QueryCompileError ||
    e instanceof PreprocessError
  );
}
