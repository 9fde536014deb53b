import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { NotFoundError } from '../../common/errors/api-errors';
import { CollectionAccessService, type CollectionPlace } from './collection-access.service';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import { effectiveLocation, effectiveLocations } from './collection-visibility';
import { collectionView, CollectionView } from './collection.view';
import { CollectionRow, CollectionsRepository } from './collections.repository';
import { topLevelId } from './location';

/** What a caller may see of a set of collections, worked out in a fixed number of queries. */
export interface Visible<R extends CollectionPlace = CollectionRow> {
  /** The readable rows, in the order given. */
  rows: R[];
  /** The caller's permission on each readable collection (ancestors passed in `context` included). */
  perms: Map<number, CollectionPerm>;
  /** Owner of each personal top-level collection among the rows' tops. */
  owners: Map<number, number>;
  /** The ids of those personal collections. */
  personalTops: Set<number>;
}

/**
 * Reading collections for a caller: the access service decides, this applies it to many rows at once and shapes
 * the answers (`can_write`, `effective_location`, `is_personal`).
 */
@Injectable()
export class CollectionReader {
  constructor(
    private readonly repo: CollectionsRepository,
    private readonly access: CollectionAccessService,
  ) {}

  async require(id: number): Promise<CollectionRow> {
    const c = await this.repo.findById(id);
    if (!c) throw new NotFoundError();
    return c;
  }

  /**
   * The rows the caller may read. `context` are further collections (ancestors of the rows) whose permissions the
   * effective locations need. `excludeOthersPersonal` drops other users' personal trees (admins see them otherwise).
   */
  async visible<R extends CollectionPlace = CollectionRow>(
    user: AuthUser,
    rows: R[],
    opts: { context?: CollectionPlace[]; excludeOthersPersonal?: boolean } = {},
  ): Promise<Visible<R>> {
    const all = opts.context?.length ? [...rows, ...opts.context] : rows;
    const perms = await this.access.forCollections(user, all);
    const owners = await this.personalOwners(all);
    const othersTree = (c: CollectionPlace) => {
      const owner = owners.get(topLevelId(c));
      return owner !== undefined && owner !== user.id;
    };
    if (opts.excludeOthersPersonal) for (const c of all) if (othersTree(c)) perms.delete(c.id);
    return { rows: rows.filter((c) => perms.has(c.id)), perms, owners, personalTops: new Set(owners.keys()) };
  }

  view(c: CollectionRow, v: Visible<CollectionPlace>): CollectionView {
    return collectionView(c, {
      canWrite: v.perms.get(c.id) === 'write',
      effectiveLocation: effectiveLocation(c.location, (id) => v.perms.has(id)),
      personalTops: v.personalTops,
    });
  }

  views(v: Visible): CollectionView[] {
    const effective = this.effective(v);
    return v.rows.map((c) =>
      collectionView(c, {
        canWrite: v.perms.get(c.id) === 'write',
        effectiveLocation: effective(c.location),
        personalTops: v.personalTops,
      }),
    );
  }

  /** The effective location of any location, for this caller (remembered per location). */
  effective(v: Visible<CollectionPlace>): (location: string) => string {
    return effectiveLocations((id) => v.perms.has(id));
  }

  /** The owners of the personal collections among the rows' top-level collections: from the rows, else one query. */
  private async personalOwners(rows: CollectionPlace[]): Promise<Map<number, number>> {
    const owners = new Map<number, number>();
    const known = new Set<number>();
    for (const c of rows) {
      known.add(c.id);
      if (c.personal_owner_id !== null) owners.set(c.id, c.personal_owner_id);
    }
    const missing = [...new Set(rows.map(topLevelId))].filter((id) => !known.has(id));
    for (let i = 0; i < missing.length; i += 1000) {
      for (const c of await this.repo.findByIds(missing.slice(i, i + 1000)))
        if (c.personal_owner_id !== null) owners.set(c.id, c.personal_owner_id);
    }
    return owners;
  }
}
