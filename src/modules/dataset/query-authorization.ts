import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError } from '../../common/errors/api-errors';
import type { PlannedQuery } from '../../query-engine/execute/query-processor';
import type { DownloadAccess } from '../warehouse/database-permission.entity';

/**
 * A run authorized by a shared object that its guard has verified (a public link's UUID, a signed embed token), not
 * by anyone's permissions: the sharing module builds the query from that object, so no data, native or card-read
 * check applies, as in Metabase.
 */
export interface SharedAuthorization {
  shared: { via: 'public' | 'embed'; model: 'card' | 'dashboard'; id: number };
}

/** Who a query runs for: a signed-in user (their groups' permissions apply), or a verified shared object. */
export type QueryAuthorization = AuthUser | SharedAuthorization;

export function isShared(who: QueryAuthorization): who is SharedAuthorization {
  return 'shared' in who;
}

/** The user behind a run, when there is one (the execution log's executor). */
export function userOf(who: QueryAuthorization): AuthUser | null {
  return isShared(who) ? null : who;
}

/** The execution contexts of downloads (COMPAT.md "Query results"): the runs download permissions apply to. */
export const DOWNLOAD_CONTEXTS: readonly string[] = ['csv-download', 'xlsx-download', 'json-download'];

/** Rows a `limited` download holds at most (Metabase's "10 thousand rows"). */
export const LIMITED_DOWNLOAD_ROWS = 10_000;

/**
 * The row cap download permissions put on a run, checked once for every download path (ad-hoc, card and dashcard
 * exports all run through DatasetService): none for a run that is not a download or has no user behind it (public
 * links and embeds), nor for `full` (the export cap applies); LIMITED_DOWNLOAD_ROWS for `limited`; `none` is
 * refused with a 403, before anything of the file is written.
 */
export function downloadRowCap(who: QueryAuthorization, context: string, download: DownloadAccess): number | undefined {
  if (isShared(who) || !DOWNLOAD_CONTEXTS.includes(context)) return undefined;
  if (download === 'none') throw new ForbiddenError();
  return download === 'limited' ? LIMITED_DOWNLOAD_ROWS : undefined;
}

/** The query with its own `max-results` (if any) lowered to `cap`; without one, the run's default cap is lowered instead. */
export function withRowCap(planned: PlannedQuery, cap: number): PlannedQuery {
  const constraints = planned.query.constraints;
  const own = constraints?.['max-results'];
  if (own === undefined || own <= cap) return planned;
  return { ...planned, query: { ...planned.query, constraints: { ...constraints, 'max-results': cap } } };
}
