import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { CollectionAccessService } from './collection-access.service';
import { CollectionItemsRegistry } from './collection-items.registry';
import { modelsIn } from './collection-models';
import { CollectionReader } from './collection-reader.service';
import { belowSets, buildTree, byOfficialThenName, TreeNode } from './collection-visibility';
import type { CollectionView } from './collection.view';
import { CollectionRow, CollectionsRepository } from './collections.repository';
import { childLocation, isWithin } from './location';

export interface TreeOptions {
  namespace: string | null;
  excludeArchived: boolean;
  excludeOthersPersonal: boolean;
  shallow: boolean;
  collectionId: number | null;
}

export type TreeNodeView = CollectionView & { here: string[]; below: string[]; children: TreeNodeView[] | boolean };

/**
 * GET /api/collection/tree: the readable collections of a namespace hung under their nearest readable ancestor,
 * with the item models at each node (`here`) and in its subtree (`below`). A fixed number of queries: the
 * namespace's rows, the caller's grants, one `modelsIn` per item source.
 */
@Injectable()
export class CollectionTreeService {
  constructor(
    private readonly repo: CollectionsRepository,
    private readonly reader: CollectionReader,
    private readonly access: CollectionAccessService,
    private readonly registry: CollectionItemsRegistry,
  ) {}

  async tree(user: AuthUser, o: TreeOptions): Promise<TreeNodeView[]> {
    let start: CollectionRow | null = null;
    if (o.collectionId !== null) {
      start = await this.reader.require(o.collectionId);
      await this.access.assertRead(user, start);
    }
    const namespace = start ? start.namespace : o.namespace;
    let rows = await this.repo.inNamespace({ namespace, archived: o.excludeArchived ? false : undefined });
    if (start) {
      const prefix = childLocation(start);
      rows = rows.filter((c) => isWithin(c.location, prefix));
    }
    const v = await this.reader.visible(user, rows, { excludeOthersPersonal: o.excludeOthersPersonal });
    const models = await modelsIn(this.registry.all(), v.rows.map((c) => c.id));
    const here = (id: number) => models.get(id) ?? new Set<string>();
    const below = belowSets(v.rows, here);
    const views = new Map(this.reader.views(v).map((view) => [view.id, view]));
    const shape = (t: TreeNode<CollectionRow>, deep: boolean): TreeNodeView => ({
      ...views.get(t.node.id)!,
      here: [...here(t.node.id)].sort(),
      below: [...below.get(t.node.id)!].sort(),
      children: deep ? t.children.map((c) => shape(c, true)) : t.children.length > 0,
    });
    return buildTree(v.rows, byOfficialThenName).map((t) => shape(t, !o.shallow));
  }
}
