import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { CollectionAccessService } from './collection-access.service';
import { EventBus } from '../../common/events/event-bus';
import { CollectionItem, CollectionItemsQuery } from './collection-item-source';
import { modelsIn, modelsOfNamespace } from './collection-models';
import { CollectionReader } from './collection-reader.service';
import { effectiveParentId, modelSets } from './collection-visibility';
import { CollectionRow, CollectionsRepository } from './collections.repository';
import { ancestorIds, childLocation } from './location';
import { compareItems, SortOptions } from './item-order';
import { withItemKeys } from './item-keys';

export interface ItemsOptions extends SortOptions {
  namespace: string | null;
  models: string[];
  archived: boolean;
  pinnedState: 'all' | 'is_pinned' | 'is_not_pinned';
  limit?: number;
  offset?: number;
}

/**
 * GET /api/collection/:id/items and root/items: the collections that show inside (the caller's effective children,
 * with `here` and `below`) and every item source's items (CollectionItemsQuery), merged, sorted and paged here.
 */
@Injectable()
export class CollectionItemsService {
  constructor(
    private readonly repo: CollectionsRepository,
    private readonly reader: CollectionReader,
    private readonly access: CollectionAccessService,
    private readonly bus: EventBus,
  ) {}

  async items(user: AuthUser, id: number | null, o: ItemsOptions) {
    const place = id === null ? null : await this.reader.require(id);
    if (place) await this.access.assertRead(user, place);
    const namespace = place ? place.namespace : o.namespace;
    const allowed = modelsOfNamespace(namespace);
    const models = (o.models.length ? allowed.filter((m) => o.models.includes(m)) : allowed).sort();
    const data: CollectionItem[] = [];
    if (models.includes('collection') && o.pinnedState !== 'is_pinned')
      data.push(...(await this.collectionItems(user, place, namespace, o.archived)));
    const query = { user, collectionId: place?.id ?? null, namespace, models, archived: o.archived, pinnedState: o.pinnedState };
    for (const items of await this.bus.ask(new CollectionItemsQuery(query))) data.push(...items);
    data.sort((a, b) => compareItems(a, b, o));
    const offset = o.offset ?? 0;
    const page = o.limit !== undefined ? data.slice(offset, offset + o.limit) : data.slice(offset);
    const canWrite = page.length > 0 && (await this.access.canWrite(user, place, namespace));
    const ctx = { canWrite, parentArchived: place?.archived ?? false, isSuperuser: user.isSuperuser };
    return {
      total: data.length,
      data: page.map((item) => withItemKeys(item, ctx)),
      models,
      limit: o.limit ?? null,
      offset: o.offset ?? null,
    };
  }

  /**
   * The collections whose nearest readable ancestor is `place` (or none, at the Root; personal ones are left to
   * their owners' entry), with `here` and `below`. The subtree is read where each collection sits only (one index range scan),
   * the caller's permissions on it in one or two more queries, the full rows of the children shown in one more.
   */
  private async collectionItems(
    user: AuthUser,
    place: CollectionRow | null,
    namespace: string | null,
    archived: boolean,
  ): Promise<CollectionItem[]> {
    const below = place ? await this.repo.subtreeShapes(childLocation(place), namespace) : await this.repo.shapesInNamespace(namespace);
    const ancestors = place ? [place, ...(await this.repo.findByIds(ancestorIds(place.location)))] : [];
    const v = await this.reader.visible(user, below, { context: ancestors });
    const byId = new Map(v.rows.map((c) => [c.id, c]));
    const shown = (cid: number) => byId.get(cid)?.archived === archived;
    const prefix = place ? childLocation(place).length - 1 : 0;
    const rows = v.rows.filter((c) => c.archived === archived);
    const children = rows.filter(
      (c) => effectiveParentId(c.location.slice(prefix), shown) === null && (place !== null || c.personal_owner_id === null),
    );
    // `here` and `below` of each child: models of the unarchived items in it, and `collection` where sub-collections show.
    const live = v.rows.filter((c) => !c.archived);
    const models = await modelsIn(
      this.bus,
      live.map((c) => c.id),
    );
    const isLive = (cid: number) => byId.get(cid)?.archived === false;
    for (const c of live) {
      const p = effectiveParentId(c.location, isLive);
      if (p !== null) (models.get(p) ?? models.set(p, new Set()).get(p)!).add('collection');
    }
    const sets = modelSets(live, models);
    const full: CollectionRow[] = [];
    for (let i = 0; i < children.length; i += 5000)
      full.push(...(await this.repo.findByIds(children.slice(i, i + 5000).map((ch) => ch.id))));
    return full.map((c) => ({
      ...this.reader.view(c, v),
      model: 'collection',
      collection_id: place?.id ?? null,
      archived_directly: c.archived_directly,
      here: sets.here(c.id),
      below: sets.below(c.id),
      last_edited_at: null,
      last_edited_by: null,
    }));
  }
}
