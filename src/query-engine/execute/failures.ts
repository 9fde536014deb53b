import { QueryCompileError } from '../compile/contract';
import { placeAsSent, type ConvertedQuery } from '../mbql/mbql5';
import { InvalidQueryError } from '../mbql/validate';
import { ParameterError } from '../parameters/errors';
import { PreprocessError } from '../preprocess/context';
import type { StageName } from '../preprocess';
import { PoolTimeoutError, QueryCancelledError, QueryError, QueryTimeoutError, QueueTimeoutError, WarehouseError } from './drivers/errors';

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
  // No connection or query slot in time is the server's capacity, not the query's: it reaches the HTTP edge (503).
  if (e instanceof PoolTimeoutError || e instanceof QueueTimeoutError) return null;
  if (e instanceof WarehouseError) return { message: e.message, type: 'db' };
  if (e instanceof ParameterError)
    return { message: e.message, type: stage === 'substitute-parameters' ? 'missing-required-parameter' : 'invalid-parameter' };
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

/**
 * An error of a query sent in MBQL 5 as its sender knows the query: a place named by its legacy path
 * (`query.source-query.filter`, or `filter` in a compile error's message) becomes the place as it was sent
 * (`stages[1].filters[0]`, mbql5.ts placeAsSent). Anything else, and any error of a legacy query (no `places`), is
 * returned as it is. The stage mark is kept.
 */
export function asSent(e: unknown, places: ConvertedQuery['places'] | undefined): unknown {
  if (!places) return e;
  if (e instanceof InvalidQueryError) {
    const sent = placeAsSent(e.clause, places);
    return sent === e.clause ? e : restaged(new InvalidQueryError(e.reason, sent), e);
  }
  if ((e instanceof QueryCompileError || e instanceof PreprocessError) && e.at !== undefined) {
    // A saved question used as a source is not part of what was sent: its places are the card's (`card 5: query.filter`).
    const sent = e.at.startsWith('card ') ? e.at : placeAsSent(e.at, places);
    if (sent !== e.at || e.at.startsWith('card ')) e.message = withPlace(e.message, e.clause, sent);
  }
  return e;
}

/**
 * `message` naming `place` where it named `clause`: its ` in "<clause>"`, else its `"<clause>"` (`"limit" must be...`),
 * else ` in "<place>"` added at the end.
 */
export function withPlace(message: string, clause: string | undefined, place: string): string {
  if (clause !== undefined) {
    for (const named of [` in "${clause}"`, `"${clause}"`]) {
      const i = message.indexOf(named);
      if (i >= 0) return `${message.slice(0, i)}${named.startsWith(' in') ? ' in ' : ''}"${place}"${message.slice(i + named.length)}`;
    }
  }
  const end = message.endsWith('.') ? message.length - 1 : message.length;
  return `${message.slice(0, end)} in "${place}"${message.slice(end)}`;
}

function restaged<E>(e: E, from: unknown): E {
  const stage = failedStage(from);
  if (stage) markStage(e, stage);
  return e;
}
