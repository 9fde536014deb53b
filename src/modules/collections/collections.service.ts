import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { CollectionAccessService } from './collection-access.service';
import { CollectionReader } from './collection-reader.service';
import { officialThenNameKey, sortByKey } from './collection-visibility';
import { ancestorView, CollectionView, rootAncestor, rootView } from './collection.view';
import { CollectionsRepository } from './collections.repository';
import { ancestorIds } from './location';

export interface ListOptions {
  namespace: string | null;
  archived: boolean;
  excludeOthersPersonal: boolean;
  personalOnly: boolean;
}

/** Reading collections: one, the Root, and the flat list. Writes are in CollectionWriteService. */
@Injectable()
export class CollectionsService {
  constructor(
    private readonly repo: CollectionsRepository,
    private readonly reader: CollectionReader,
    private readonly access: CollectionAccessService,
  ) {}

  /** GET /api/collection/:id: with the Root and the readable ancestors as `effective_ancestors`. */
  async get(user: AuthUser, id: number) {
    const c = await this.reader.require(id);
    await this.access.assertRead(user, c);
    const ancestors = await this.repo.findByIds(ancestorIds(c.location));
    const v = await this.reader.visible(user, [c], { context: ancestors });
    const byId = new Map(ancestors.map((a) => [a.id, a]));
    const effective_ancestors = [
      rootAncestor(await this.access.canWrite(user, null, c.namespace)),
      ...ancestorIds(c.location)
        .filter((a) => v.perms.has(a) && byId.has(a))
        .map((a) => ancestorView(byId.get(a)!, v.perms.get(a))),
    ];
    return { ...this.reader.view(c, v), effective_ancestors };
  }

  /** GET /api/collection/root: the virtual Root of a namespace. */
  async root(user: AuthUser, namespace: string | null) {
    return rootView(namespace, await this.access.canWrite(user, null, namespace));
  }

  /** GET /api/collection/: every collection the caller may read, the Root first when they may read it. */
  async list(user: AuthUser, o: ListOptions): Promise<Array<CollectionView | ReturnType<typeof rootView>>> {
    const only = user.isSuperuser ? undefined : await this.access.readableWhere(user, 'id', o.namespace);
    let rows = await this.repo.inNamespace({ namespace: o.namespace, archived: o.archived }, false, only);
    if (o.personalOnly) rows = rows.filter((c) => c.personal_owner_id !== null);
    const v = await this.reader.visible(user, rows, { excludeOthersPersonal: o.excludeOthersPersonal });
    const views = this.reader.views({ ...v, rows: sortByKey(v.rows, officialThenNameKey) });
    if (o.archived || o.personalOnly) return views;
    const rootPerm = await this.access.permission(user, null, o.namespace);
    return rootPerm ? [rootView(o.namespace, rootPerm === 'write'), ...views] : views;
  }
}
