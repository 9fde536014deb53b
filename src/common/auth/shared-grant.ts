import type { AuthUser } from './current-user';

/** The one card or dashboard a public link's UUID or a signed embed token names, as its guard verified it. */
export interface SharedScope {
  via: 'public' | 'embed';
  model: 'card' | 'dashboard';
  id: number;
}

/**
 * What the `public-sharing` and `embed` guards hand on (the controller's @SharedObject() extends it): a read
 * authorized by a verified shared object, not by anyone's permissions. It reaches that object (a dashboard: the
 * cards on it), the cards and fields its query and parameters use, and nothing else; it is never a user, never
 * an admin, and no write takes it.
 */
export interface SharedGrant {
  readonly shared: SharedScope;
}

/** Who reads: a signed-in user (their groups' permissions apply), or a shared object's grant. */
export type Reader = AuthUser | SharedGrant;

export function isShared(who: Reader): who is SharedGrant {
  return 'shared' in who && typeof (who as SharedGrant).shared === 'object' && (who as SharedGrant).shared !== null;
}

/** The user behind a read, when there is one. */
export function userOf(who: Reader): AuthUser | null {
  return isShared(who) ? null : who;
}

/** A signed-in superuser; a grant never is one. */
export function isAdmin(who: Reader): boolean {
  return !isShared(who) && who.isSuperuser === true;
}

/** Whether the grant names this very card or dashboard. */
export function grantNames(grant: SharedGrant, model: SharedScope['model'], id: number): boolean {
  return grant.shared.model === model && grant.shared.id === id;
}
