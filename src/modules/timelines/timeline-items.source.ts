import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isoTime } from '../../common/database/sql-time';
import { CollectionAccessService, type CollectionItem, type CollectionItemSource, type ItemsQuery } from '../collections';
import { TimelinesRepository } from './timelines.repository';

/**
 * Timelines as items of GET /api/collection/:id/items (subscribed with subscribeItemSource), with the keys
 * Metabase lists them with. Timelines are never pinned. Archiving a collection archives its timelines with it.
 */
@Injectable()
export class TimelineItemsSource implements CollectionItemSource {
  readonly models = ['timeline'] as const;

  constructor(
    private readonly repo: TimelinesRepository,
    private readonly access: CollectionAccessService,
  ) {}

  async items(q: ItemsQuery): Promise<CollectionItem[]> {
    if (q.models.length && !q.models.includes('timeline')) return [];
    if (q.namespace !== null || q.pinnedState === 'is_pinned') return [];
    if (q.collectionId === null && !(await this.access.canRead(q.user, null))) return [];
    const rows = await this.repo.timelines({ collectionId: q.collectionId, archived: q.archived });
    return rows.map((r) => ({
      id: r.id,
      model: 'timeline',
      name: r.name,
      description: r.description,
      entity_id: r.entity_id,
      icon: r.icon,
      collection_id: r.collection_id,
      archived: r.archived,
      last_edited_at: isoTime(r.updated_at),
      last_edited_by: null,
    }));
  }

  async modelsIn(collectionIds: number[], archived: boolean): Promise<Map<number, Set<string>>> {
    const out = new Map<number, Set<string>>();
    for (const id of await this.repo.collectionsWithTimelines(collectionIds, archived)) out.set(id, new Set(['timeline']));
    return out;
  }

  archiveIn(tx: EntityManager, collectionIds: number[], archived: boolean): Promise<void> {
    return this.repo.archiveIn(tx, collectionIds, archived);
  }

  /** Deleting collections deletes their timelines with their events. */
  deleteIn(tx: EntityManager, collectionIds: number[]): Promise<void> {
    return this.repo.deleteIn(tx, collectionIds);
  }
}
