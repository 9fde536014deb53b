import type { AuthUser } from '../../common/auth/current-user';

/**
 * Who reads on behalf of a verified shared object (a public link's UUID, a signed embed token) in the services that
 * take a user: the look-ups around a shared card or dashboard (its dashcards, its parameters' values, the fields
 * behind them) run with full permissions, as Metabase's public endpoints do, because the guard has already decided
 * and SharedQueriesService / PublicFieldsService allow only what the shared object itself uses. Query runs do not use it:
 * they go through DatasetService as a SharedAuthorization (logged without an executor). Never given to a write path.
 */
export const SHARED_READER: Readonly<AuthUser> = Object.freeze({ id: 0, isSuperuser: true, groupIds: Object.freeze([]) as unknown as number[] });
