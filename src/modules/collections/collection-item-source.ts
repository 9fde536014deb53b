import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { BusQuery, type EventBus } from '../../common/events/event-bus';
import { CollectionsArchived, CollectionsDeleted, CollectionsDeleting } from './collection-events';

/** The query of one page of GET /api/collection/:id/items (and root/items), as each item source receives it. */
export interface ItemsQuery {
  user: AuthUser;
  /** null: the Root collection. */
  collectionId: number | null;
  namespace: string | null;
  /** The `models` asked for (all a source answers when empty). */
  models: string[];
  archived: boolean;
  pinnedState: 'all' | 'is_pinned' | 'is_not_pinned';
}

/** One row of a collection listing, with what sorting and paging need. */
export interface CollectionItem {
  id: number;
  model: string;
  name: string;
  /** For `sort_column=last_edited_at` (and `last_edited_by`, the editor's name). */
  last_edited_at: string | null;
  last_edited_by: string | null;
  [key: string]: unknown;
}

/**
 * A kind of content that lives in collections (cards, dashboards, timelines): its module subscribes one to the
 * event bus at start-up (`subscribeItemSource`), so the collections module lists, archives and deletes them without
 * importing the modules that store them.
 */
export interface CollectionItemSource {
  /** The `models` values this source answers, e.g. `card`, `dataset`, `metric`. */
  readonly models: readonly string[];
  /** Every item of the collection the caller may see, unsorted; the collections module sorts and pages. */
  items(q: ItemsQuery): Promise<CollectionItem[]>;
  /** Which `models` occur in each of `collectionIds` (for the tree's `here` and `below`). */
  modelsIn(collectionIds: number[], archived: boolean): Promise<Map<number, Set<string>>>;
  /** Archives (or unarchives) the items of these collections with them, inside the collection update's `tx`. */
  archiveIn(tx: EntityManager, collectionIds: number[], archived: boolean): Promise<void>;
  /**
   * Deletes the items of these collections for good, with what hangs on them (revisions, bookmarks, search terms),
   * inside the collection deletion's `tx`: a failure leaves everything as it was.
   */
  deleteIn(tx: EntityManager, collectionIds: number[]): Promise<void>;
  /** What must happen outside the app database before `deleteIn` (a persisted model's table), run before the transaction. */
  beforeDeleteIn?(collectionIds: number[]): Promise<void>;
}

/** The items of one collection page: each source answers those of its models among `query.models`. */
export class CollectionItemsQuery extends BusQuery<CollectionItem[]> {
  constructor(readonly query: ItemsQuery) {
    super();
  }
}

/** Which item models occur in each of `collectionIds`: each source answers for its own. */
export class CollectionModelsQuery extends BusQuery<Map<number, Set<string>>> {
  constructor(
    readonly collectionIds: number[],
    readonly archived: boolean,
  ) {
    super();
  }
}

/** Subscribes a kind of collection item to the collection module's queries and events. */
export function subscribeItemSource(bus: EventBus, source: CollectionItemSource): void {
  bus.answer(CollectionItemsQuery, async ({ query }) => {
    const models = source.models.filter((m) => query.models.includes(m));
    return models.length === 0 ? [] : source.items({ ...query, models });
  });
  bus.answer(CollectionModelsQuery, (q) => source.modelsIn(q.collectionIds, q.archived));
  bus.on(CollectionsArchived, (e) => source.archiveIn(e.tx, e.collectionIds, e.archived));
  bus.on(CollectionsDeleted, (e) => source.deleteIn(e.tx, e.collectionIds));
  const before = source.beforeDeleteIn?.bind(source);
  if (before) bus.on(CollectionsDeleting, (e) => before(e.collectionIds));
}
