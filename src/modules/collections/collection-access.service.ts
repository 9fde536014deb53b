import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { AppSql } from '../../common/database/app-sql';
import { ForbiddenError } from '../../common/errors/api-errors';
import type { CollectionPerm } from './collection-permission.entity';
import { childLocation, subtreeRange, topLevelId } from './location';

/** What an access check needs of a collection; null stands for the Root collection. */
export interface CollectionPlace {
  id: number;
  location: string;
  personal_owner_id: number | null;
  namespace?: string | null;
}

/** A SQL condition with its values, numbered from the `$n` the caller passed in. */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

const rank = (p: CollectionPerm | null | undefined): number => (p === 'write' ? 2 : p === 'read' ? 1 : 0);
const best = (a: CollectionPerm | null, b: CollectionPerm | null): CollectionPerm | null => (rank(a) >= rank(b) ? a : b);

/**
 * The one place that decides what a user may do with a collection and its items. Superusers may do everything.
 * Others get the best grant of their groups on the collection (Root included), and write access to their own
 * personal collection and everything under it; nobody but superusers sees another user's personal collections.
 *
 * Checks of one object are indexed lookups; listings use `readableCondition` in their own SQL, or `forCollections`
 * to answer `can_write` for a page in one query.
 */
@Injectable()
export class CollectionAccessService {
  private readonly sql: AppSql;

  constructor(db: DataSource) {
    this.sql = new AppSql(db);
  }

  /** The caller's permission on a collection (null: Root of `namespace`). */
  async permission(user: AuthUser, c: CollectionPlace | null, namespace: string | null = null): Promise<CollectionPerm | null> {
    if (user.isSuperuser) return 'write';
    if (c && (await this.isOwnPersonal(user, c))) return 'write';
    if (c && this.isOthersPersonalTop(c, user)) return null;
    if (user.groupIds.length === 0) return null;
    const groups = user.groupIds.map((_, i) => `$${i + 1}`).join(', ');
    const rows = c
      ? await this.sql.query<{ perm: CollectionPerm }>(`SELECT perm FROM collection_permission WHERE group_id IN (${groups}) AND collection_id = $${user.groupIds.length + 1}`, [...user.groupIds, c.id])
      : await this.sql.query<{ perm: CollectionPerm }>(
        `SELECT perm FROM collection_permission WHERE group_id IN (${groups}) AND collection_id IS NULL AND ${namespace === null ? 'namespace IS NULL' : `namespace = $${user.groupIds.length + 1}`}`,
        namespace === null ? user.groupIds : [...user.groupIds, namespace],
      );
    return rows.reduce<CollectionPerm | null>((acc, r) => best(acc, r.perm), null);
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
    // Up to a few thousand ids an IN list of index lookups beats reading every grant of the groups.
    const granted = await this.grantsOf(user, cs.length > 2000 ? null : cs.map((c) => c.id));
    for (const c of cs) {
      if (own !== null && topLevelId(c) === own) out.set(c.id, 'write');
      else if (!this.isOthersPersonalTop(c, user) && granted.has(c.id)) out.set(c.id, granted.get(c.id)!);
    }
    return out;
  }

  /**
   * A condition on `column` (a collection id column, null meaning Root) that holds for the collections the caller may
   * read, for a listing's own WHERE clause. Its values are numbered from `$firstParam`.
   */
  async readableCondition(user: AuthUser, column: string, firstParam: number, namespace: string | null = null): Promise<SqlCondition> {
    if (user.isSuperuser) return { sql: 'TRUE', params: [] };
    const params: unknown[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${firstParam + params.length - 1}`;
    };
    const parts: string[] = [];
    if (await this.canRead(user, null, namespace)) parts.push(`${column} IS NULL`);
    if (user.groupIds.length) {
      const groups = user.groupIds.map((g) => p(g)).join(', ');
      parts.push(`${column} IN (SELECT collection_id FROM collection_permission WHERE group_id IN (${groups}) AND collection_id IS NOT NULL)`);
    }
    const own = await this.personalCollection(user.id);
    if (own) {
      const [lo, hi] = subtreeRange(childLocation(own));
      parts.push(`${column} IN (SELECT id FROM collection WHERE id = ${p(own.id)} OR (location >= ${p(lo)} AND location < ${p(hi)}))`);
    }
    return { sql: parts.length ? `(${parts.join(' OR ')})` : 'FALSE', params };
  }

  /** The id of the user's personal collection (every user has one). */
  async personalCollectionId(userId: number): Promise<number | null> {
    return (await this.personalCollection(userId))?.id ?? null;
  }

  /** Each user's personal collection id, in one query. */
  async personalCollectionIds(userIds: number[]): Promise<Map<number, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.sql.query<{ id: number; personal_owner_id: number }>(
      `SELECT id, personal_owner_id FROM collection WHERE personal_owner_id IN (${userIds.map((_, i) => `$${i + 1}`).join(', ')})`,
      userIds,
    );
    return new Map(rows.map((r) => [Number(r.personal_owner_id), Number(r.id)]));
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
    const top = topLevelId(c);
    const rows = await this.sql.query<{ personal_owner_id: number | null }>('SELECT personal_owner_id FROM collection WHERE id = $1', [top]);
    const owner = rows[0]?.personal_owner_id ?? null;
    return owner !== null && Number(owner) === user.id;
  }

  private async personalCollection(userId: number): Promise<{ id: number; location: string } | null> {
    const rows = await this.sql.query<{ id: number; location: string }>('SELECT id, location FROM collection WHERE personal_owner_id = $1', [userId]);
    if (!rows[0]) return null;
    return { id: Number(rows[0].id), location: rows[0].location };
  }

  /** The caller's groups' best grant per collection: on `ids`, or on every collection when null. */
  private async grantsOf(user: AuthUser, ids: number[] | null): Promise<Map<number, CollectionPerm>> {
    const out = new Map<number, CollectionPerm>();
    if (user.groupIds.length === 0 || (ids && ids.length === 0)) return out;
    const groups = user.groupIds.map((_, i) => `$${i + 1}`).join(', ');
    const idList = ids ? ` AND collection_id IN (${ids.map((_, i) => `$${user.groupIds.length + i + 1}`).join(', ')})` : ' AND collection_id IS NOT NULL';
    // 'write' sorts after 'read': MAX is the best grant, one row per collection however many groups hold one.
    const rows = await this.sql.query<{ collection_id: number; perm: CollectionPerm }>(
      `SELECT collection_id, MAX(perm) AS perm FROM collection_permission WHERE group_id IN (${groups})${idList} GROUP BY collection_id`,
      ids ? [...user.groupIds, ...ids] : user.groupIds,
    );
    for (const r of rows) out.set(Number(r.collection_id), best(out.get(Number(r.collection_id)) ?? null, r.perm)!);
    return out;
  }
}
