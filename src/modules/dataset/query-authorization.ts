import type { AuthUser } from '../../common/auth/current-user';

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
