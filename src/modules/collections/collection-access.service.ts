import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { inList, or, raw, sql, TRUE, type Sql } from '../../common/database/sql';
import { ForbiddenError } from '../../common/errors/api-errors';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import { CollectionAccessRepository } from './collection-access.repository';
import type { GrantTable } from './grant-table';
import { childLocation, subtreeRange, topLevelId } from './location';

/** What an access check needs of a collection; null stands for the Root collection. */
export interface CollectionPlace {
  id: number;
  location: string;
  personal_owner_id: number | null;
  namespace?: string | null;
}

const lo = (c: { id: number; location: string }) => subtreeRange(childLocation(c))[0];
const hi = (c: { id: number; location: string }) => subtreeRange(childLocation(c))[1];
const rank = (p: CollectionPerm | null | undefined): number => (p === 'write' ? 2 : p === 'read' ? 1 : 0);
const best = (a: CollectionPerm | null, b: CollectionPerm | null): CollectionPerm | null => (rank(a) >= rank(b) ? a : b);

/**
 * The one place that decides what a user may do with a collection and its items. Superusers may do everything.
 * Others get the best grant of their groups on the collection (Root included), and write access to their own
 * personal collection and everything under it; nobody but superusers sees another user's personal collections.
 *
 * Checks of one object are indexed lookups; listings use `readableWhere` in their own SQL, or `forCollections`
 * to answer `can_write` for a page in one query.
 */
@Injectable()
export class CollectionAccessService {
  constructor(private readonly grants: CollectionAccessRepository) {}

  /** The caller's permission on a collection (null: Root of `namespace`). */
  async permission(user: AuthUser, c: CollectionPlace | null, namespace: string | null = null): Promise<CollectionPerm | null> {
    if (user.isSuperuser) return 'write';
    if (c && (await this.isOwnPersonal(user, c))) return 'write';
    if (c && this.isOthersPersonalTop(c, user)) return null;
    if (user.groupIds.length === 0) return null;
    const perms = await this.grants.grantsOn(user.groupIds, c?.id ?? null, namespace);
    return perms.reduce<CollectionPerm | null>((acc, perm) => best(acc, perm), null);
  }

  async canRead(user: AuthUser, c: CollectionPlace | null, namespace: string | null = null): Promise<boolean> {
    return rank(await this.permission(user, c, namespace)) >= 1;
  }

  async canWrite(user: AuthUser, c: CollectionPlace | null, namespace: string | null = null): Promise<boolean> {
    return rank(await this.permission(user, c, namespace)) >= 2;
  }

  async assertRead(user: AuthUser, c: CollectionPlace | null, namespace: string | null = null): Promise<void> {
    if (!(await this.canRead(user, c, namespace))) throw new ForbiddenError();
  }

  async assertWrite(user: AuthUser, c: CollectionPlace | null, namespace: string | null = null): Promise<void> {
    if (!(await this.canWrite(user, c, namespace))) throw new ForbiddenError();
  }

  /**
   * The caller's permission on each of many collections, in at most three queries whatever their number: for
   * `can_write` on a listing. Ids missing from the answer may not be read.
   */
  async forCollections(user: AuthUser, cs: CollectionPlace[]): Promise<Map<number, CollectionPerm>> {
    const out = new Map<number, CollectionPerm>();
    if (user.isSuperuser) {
      for (const c of cs) out.set(c.id, 'write');
      return out;
    }
    const own = await this.personalCollectionId(user.id);
    const granted = await this.grantsOf(user, cs);
    for (const c of cs) {
      if (own !== null && topLevelId(c) === own) out.set(c.id, 'write');
      else if (!this.isOthersPersonalTop(c, user)) {
        const perm = granted?.perm(c.id);
        if (perm) out.set(c.id, perm);
      }
    }
    return out;
  }

  /**
   * A condition on `column` (a collection id column, null meaning Root) that holds for the collections the caller may
   * read, for a listing's own WHERE clause (composable: sql.ts).
   */
  async readableWhere(user: AuthUser, column: string, namespace: string | null = null): Promise<Sql> {
    if (user.isSuperuser) return TRUE;
    const col = raw(column);
    const own = await this.personalCollection(user.id);
    return or(
      (await this.canRead(user, null, namespace)) && sql`${col} IS NULL`,
      user.groupIds.length > 0 &&
        sql`${col} IN (SELECT collection_id FROM collection_permission
          WHERE ${inList(raw('group_id'), user.groupIds)} AND collection_id IS NOT NULL)`,
      own && sql`${col} IN (SELECT id FROM collection WHERE id = ${own.id} OR (location >= ${lo(own)} AND location < ${hi(own)}))`,
    );
  }

  /**
   * A condition on `column` that holds for the collections the caller may change (what forCollections answers
   * `write` for): for `can_write` in a listing's own SELECT.
   */
  async writableWhere(user: AuthUser, column: string): Promise<Sql> {
    if (user.isSuperuser) return TRUE;
    const col = raw(column);
    const own = await this.personalCollection(user.id);
    return or(
      (await this.canWrite(user, null)) && sql`${col} IS NULL`,
      user.groupIds.length > 0 &&
        sql`${col} IN (SELECT collection_id FROM collection_permission
          WHERE ${inList(raw('group_id'), user.groupIds)} AND collection_id IS NOT NULL AND perm = 'write')`,
      own && sql`${col} IN (SELECT id FROM collection WHERE id = ${own.id} OR (location >= ${lo(own)} AND location < ${hi(own)}))`,
    );
  }

  /** The id of the user's personal collection (every user has one). */
  async personalCollectionId(userId: number): Promise<number | null> {
    return (await this.personalCollection(userId))?.id ?? null;
  }

  /** Each user's personal collection id, in one query. */
  personalCollectionIds(userIds: number[]): Promise<Map<number, number>> {
    return this.grants.personalCollectionIds(userIds);
  }

  /**
   * Grants never exist inside personal trees (new collections there copy none, and the graph refuses them), so a
   * collection under another user's personal collection has no grant to find: only its top needs a rule.
   */
  private isOthersPersonalTop(c: CollectionPlace, user: AuthUser): boolean {
    return c.personal_owner_id !== null && c.personal_owner_id !== user.id;
  }

  private async isOwnPersonal(user: AuthUser, c: CollectionPlace): Promise<boolean> {
    if (c.personal_owner_id !== null) return c.personal_owner_id === user.id;
    if (c.location === '/') return false;
    return (await this.grants.ownerOf(topLevelId(c))) === user.id;
  }

  private personalCollection(userId: number): Promise<{ id: number; location: string } | null> {
    return this.grants.personalCollection(userId);
  }

  /**
   * The caller's groups' best grants on `cs`. Up to a few thousand an IN list of index lookups beats reading every
   * grant of the groups; past that, every grant of the groups, kept for the next listing.
   */
  private async grantsOf(user: AuthUser, cs: CollectionPlace[]): Promise<GrantTable | null> {
    if (user.groupIds.length === 0 || cs.length === 0) return null;
    if (cs.length > 2000) return this.grants.allBestGrants(user.groupIds);
    return this.grants.bestGrants(
      user.groupIds,
      cs.map((c) => c.id),
    );
  }
}
