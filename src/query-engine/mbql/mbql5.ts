import { chain, isNativeStage, nativeOf, stageMap, type Places } from './mbql5-stages';
import { isLibKey, isMap } from './mbql5-syntax';
import type { DatasetQuery } from './types';
import { InvalidQueryError, validateInner } from './validate';

/**
 * MBQL 5 (what Metabase 0.50+ clients send: `{"lib/type": "mbql/query", database, stages}`) turned into the legacy
 * form that normalize.ts and everything after it understand: the stages, joins and lists of filters
 * (mbql5-stages.ts), each clause with Metabase's own desugarings where they are exact (mbql5-clauses.ts,
 * mbql5-relative-time.ts). What cannot be converted is an InvalidQueryError naming the place as the caller sent it
 * (`stages[1].filters[0]`). Pure: the input is not modified.
 */
export const MBQL5_QUERY = 'mbql/query';

export function isMbql5Query(q: unknown): q is Record<string, unknown> & { 'lib/type': typeof MBQL5_QUERY } {
  return isMap(q) && q['lib/type'] === MBQL5_QUERY;
}

/** A converted query, and where each legacy place came from (to name an error of a later check as it was sent). */
export interface ConvertedQuery {
  query: Record<string, unknown>;
  /** [legacy path prefix, MBQL 5 path prefix], longest legacy prefix first. */
  places: Places;
}

export function mbql5ToLegacy(raw: Record<string, unknown>): ConvertedQuery {
  const places: Places = [];
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (!isLibKey(k) && k !== 'stages') out[k] = v;
  const stages = raw.stages;
  if (!Array.isArray(stages) || stages.length === 0) throw new InvalidQueryError('must be a non-empty list of stages.', 'stages');
  const first = stageMap(stages[0], 'stages[0]');
  if (isNativeStage(first)) {
    if (stages.length > 1) {
      throw new InvalidQueryError(
        'a stage over a native stage is not supported: save the SQL as a question and use it as "source-card".',
        'stages[1]',
      );
    }
    out.type = 'native';
    out.native = nativeOf(first, 'stages[0]');
    places.push(['native', 'stages[0]']);
  } else {
    out.type = 'query';
    out.query = chain(stages, 'stages', 'query', places);
  }
  places.sort((a, b) => b[0].length - a[0].length);
  return { query: out, places };
}

/**
 * Checks the structure of a converted query once normalized (validate.ts), naming a problem's place as it was sent:
 * later checks would name the legacy place (`query.source-query.filter`), which the caller never wrote.
 */
export function checkConverted(q: DatasetQuery, places: ConvertedQuery['places']): void {
  if (q.type !== 'query' || !q.query) return;
  try {
    validateInner(q.query, 'query');
  } catch (e) {
    if (!(e instanceof InvalidQueryError)) throw e;
    const reason = e.message.slice(`Invalid query: ${e.clause}: `.length);
    throw new InvalidQueryError(reason, placeAsSent(e.clause, places));
  }
}

/** `path` of an InvalidQueryError about the converted query, as the MBQL 5 caller knows it. */
export function placeAsSent(path: string, places: ConvertedQuery['places']): string {
  for (const [legacy, sent] of places) {
    if (path === legacy) return sent;
    if (path.startsWith(legacy) && (path[legacy.length] === '.' || path[legacy.length] === '[')) return sent + path.slice(legacy.length);
  }
  return path;
}
