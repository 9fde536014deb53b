import { isShared, type Reader } from '../../common/auth/shared-grant';
import { ForbiddenError } from '../../common/errors/api-errors';
import type { PlannedQuery } from '../../query-engine/execute/query-processor';
import type { DataAccess, DownloadAccess, NativeAccess } from '../../schema/database-permission.entity';

/** Whose query slots a run takes (QuerySlots): the user's, or those the anonymous viewers of a shared object share. */
export function slotOwner(who: Reader): number | string {
  return isShared(who) ? `${who.shared.via}:${who.shared.model}:${who.shared.id}` : who.id;
}

/**
 * Who may share a run of an identical query (SharedRuns): the viewers of one shared object (a public link or an
 * embed of one card or dashboard), or callers with the same permissions as the query cache tells them apart
 * (query-cache-key.ts): admins, or users of exactly the same groups with the same access to the database.
 */
export function sharingScope(who: Reader, access: { data: DataAccess; native: NativeAccess }): string {
  if (isShared(who)) return `shared:${slotOwner(who)}`;
  if (who.isSuperuser) return 'superuser';
  const groups = [...new Set(who.groupIds)].sort((a, b) => a - b).join(',');
  return `groups:${groups}:${access.data}:${access.native}`;
}

/** The execution contexts of downloads (Metabase's `csv-download`...): the runs download permissions apply to. */
export const DOWNLOAD_CONTEXTS: readonly string[] = ['csv-download', 'xlsx-download', 'json-download'];

/** Rows a `limited` download holds at most (Metabase's "10 thousand rows"). */
export const LIMITED_DOWNLOAD_ROWS = 10_000;

/**
 * The row cap download permissions put on a run, checked once for every download path (ad-hoc, card and dashcard
 * exports all run through DatasetService): none for a run that is not a download or has no user behind it (public
 * links and embeds), nor for `full` (the export cap applies); LIMITED_DOWNLOAD_ROWS for `limited`; `none` is
 * refused with a 403, before anything of the file is written.
 */
export function downloadRowCap(who: Reader, context: string, download: DownloadAccess): number | undefined {
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
