import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';

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
 * A kind of content that lives in collections (cards, dashboards, timelines, snippets): its module registers one
 * at start-up, so the collections module lists them without importing the modules that store them.
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
}

@Injectable()
export class CollectionItemsRegistry {
  private readonly sources: CollectionItemSource[] = [];

  register(source: CollectionItemSource): void {
    this.sources.push(source);
  }

  all(): readonly CollectionItemSource[] {
    return this.sources;
  }
}
