import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import { CollectionAccessService } from './collection-access.service';
import { EventBus } from '../../common/events/event-bus';
import { modelsIn } from './collection-models';
import { CollectionReader } from './collection-reader.service';
import { buildTree, modelSets, officialThenNameKey, TreeNode } from './collection-visibility';
import { CollectionRow, CollectionsRepository } from './collections.repository';
import { childLocation, isWithin } from './location';

export interface TreeOptions {
  namespace: string | null;
  excludeArchived: boolean;
  excludeOthersPersonal: boolean;
  shallow: boolean;
  collectionId: number | null;
}

/** One node of the tree: the collection's own keys as Metabase's tree has them, and what the tree adds. */
export interface TreeNodeView {
  id: number;
  name: string;
  description: string | null;
  slug: string | null;
  location: string;
  effective_location: string;
  namespace: string | null;
  personal_owner_id: number | null;
  authority_level: string | null;
  archived: boolean;
  can_write: boolean;
  here: string[];
  below: string[];
  /** Shallow trees answer whether there are any. */
  children: TreeNodeView[] | boolean;
}

/**
 * GET /api/collection/tree: the readable collections of a namespace hung under their nearest readable ancestor,
 * with the item models at each node (`here`) and in its subtree (`below`). A fixed number of queries: the
 * namespace's rows, the caller's grants, `modelsIn` of each item source.
 */
@Injectable()
export class CollectionTreeService {
  constructor(
    private readonly repo: CollectionsRepository,
    private readonly reader: CollectionReader,
    private readonly access: CollectionAccessService,
    private readonly bus: EventBus,
  ) {}

  /**
   * The top-level nodes, each shaped only when it is read: the answer is written a subtree at a time and never held
   * whole (30,000 collections are 9 MB of JSON).
   */
  async tree(user: AuthUser, o: TreeOptions): Promise<Iterable<TreeNodeView>> {
    let start: CollectionRow | null = null;
    if (o.collectionId !== null) {
      start = await this.reader.require(o.collectionId);
      await this.access.assertRead(user, start);
    }
    const namespace = start ? start.namespace : o.namespace;
    // Non-admins read only what they may: the database leaves the rest out.
    const only = user.isSuperuser ? undefined : await this.access.readableWhere(user, 'id', namespace);
    let rows = await this.repo.inNamespace({ namespace, archived: o.excludeArchived ? false : undefined }, true, only);
    if (start) {
      const prefix = childLocation(start);
      rows = rows.filter((c) => isWithin(c.location, prefix));
    }
    // The sources look up their models while the caller's permissions are worked out (the rows are the readable ones
    // already, but for other users' personal trees that an admin may leave out).
    const modelsLookup = modelsIn(
      this.bus,
      rows.map((c) => c.id),
    );
    // Handled where it is awaited; this keeps a failure from counting as unhandled should visible() fail first.
    modelsLookup.catch(() => undefined);
    const v = await this.reader.visible(user, rows, { excludeOthersPersonal: o.excludeOthersPersonal });
    const models = await modelsLookup;
    const sets = modelSets(v.rows, models);
    const effective = this.reader.effective(v);
    const shape = (t: TreeNode<CollectionRow>, deep: boolean): TreeNodeView => {
      const c = t.node;
      return {
        id: c.id,
        name: c.name,
        description: c.description,
        slug: c.slug,
        location: c.location,
        effective_location: effective(c.location),
        namespace: c.namespace,
        personal_owner_id: c.personal_owner_id,
        authority_level: c.authority_level,
        archived: c.archived,
        can_write: (v.perms.get(c.id) as CollectionPerm) === 'write',
        here: sets.here(c.id),
        below: sets.below(c.id),
        children: deep ? t.children.map((ch) => shape(ch, true)) : t.children.length > 0,
      };
    };
    const roots = buildTree(v.rows, officialThenNameKey);
    return (function* () {
      for (const t of roots) yield shape(t, !o.shallow);
    })();
  }
}
