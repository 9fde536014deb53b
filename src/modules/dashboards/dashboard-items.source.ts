import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CollectionAccessService, type CollectionItem, type CollectionItemSource, type ItemsQuery } from '../collections';
import { commonNameOf } from '../../common/views/wire-values';
import { isoTime } from '../../common/database/sql-time';
import { lastEditView } from './dashboard-view';
import { DashboardWriteService } from './dashboard-write.service';
import { DashboardsRepository } from './dashboards.repository';

const CHUNK = 500;

/** Dashboards as items of GET /api/collection/:id/items (subscribed with subscribeItemSource). */
@Injectable()
export class DashboardItemsSource implements CollectionItemSource {
  readonly models = ['dashboard'] as const;

  constructor(
    private readonly repo: DashboardsRepository,
    private readonly access: CollectionAccessService,
    private readonly writes: DashboardWriteService,
  ) {}

  async items(q: ItemsQuery): Promise<CollectionItem[]> {
    if (q.models.length && !q.models.includes('dashboard')) return [];
    if (q.namespace !== null) return [];
    if (q.collectionId === null && !(await this.access.canRead(q.user, null, q.namespace))) return [];
    const pinned = q.pinnedState === 'is_pinned' ? true : q.pinnedState === 'is_not_pinned' ? false : undefined;
    const { rows, edits } = await this.repo.list({
      archived: q.archived,
      collectionId: q.collectionId,
      ...(pinned === undefined ? {} : { pinned }),
    });
    return rows.map((r) => {
      const edit = edits.get(r.id) ?? null;
      return {
        id: r.id,
        model: 'dashboard',
        name: r.name,
        description: r.description,
        entity_id: r.entity_id,
        collection_id: r.collection_id,
        collection_position: r.collection_position,
        archived: r.archived,
        archived_directly: r.archived_directly,
        last_used_at: isoTime(r.last_viewed_at),
        moderated_status: null,
        last_edited_at: isoTime(edit?.timestamp ?? r.updated_at),
        last_edited_by: edit ? commonNameOf(edit) : null,
        'last-edit-info': lastEditView(edit),
      };
    });
  }

  async modelsIn(collectionIds: number[], archived: boolean): Promise<Map<number, Set<string>>> {
    const out = new Map<number, Set<string>>();
    if (collectionIds.length === 0) return out;
    for (const id of await this.repo.collectionsHolding(collectionIds, archived)) out.set(id, new Set(['dashboard']));
    return out;
  }

  /** Archiving a collection archives its dashboards not archived yet; unarchiving restores those, not the ones archived on their own. */
  async archiveIn(tx: EntityManager, collectionIds: number[], archived: boolean): Promise<void> {
    await this.repo.archiveInCollections(tx, collectionIds, archived);
  }

  /** Deleting collections deletes their dashboards (archived or not), as DELETE /api/dashboard/:id does. */
  async deleteIn(tx: EntityManager, collectionIds: number[]): Promise<void> {
    for (let i = 0; i < collectionIds.length; i += CHUNK) {
      const ids = await this.repo.idsInCollections(collectionIds.slice(i, i + CHUNK), tx);
      for (const id of ids) await this.writes.purge(tx, id);
    }
  }
}
