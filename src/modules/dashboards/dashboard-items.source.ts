import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CollectionAccessService } from '../collections/collection-access.service';
import type { CollectionItem, CollectionItemSource, ItemsQuery } from '../collections/collection-items.registry';
import { commonNameOf, isoTime } from '../cards/card-view';
import { lastEditView } from './dashboard-view';
import { DashboardsRepository } from './dashboards.repository';

const CHUNK = 500;

/** Dashboards as items of GET /api/collection/:id/items (registered with CollectionItemsRegistry). */
@Injectable()
export class DashboardItemsSource implements CollectionItemSource {
  readonly models = ['dashboard'] as const;

  constructor(
    private readonly repo: DashboardsRepository,
    private readonly access: CollectionAccessService,
  ) {}

  async items(q: ItemsQuery): Promise<CollectionItem[]> {
    if (q.models.length && !q.models.includes('dashboard')) return [];
    if (q.namespace !== null) return [];
    const params: unknown[] = [q.archived];
    const where = ['d.archived = $1'];
    if (q.collectionId === null) {
      if (!(await this.access.canRead(q.user, null, q.namespace))) return [];
      where.push('d.collection_id IS NULL');
    } else {
      where.push(`d.collection_id = $${params.push(q.collectionId)}`);
    }
    if (q.pinnedState === 'is_pinned') where.push('d.collection_position IS NOT NULL');
    if (q.pinnedState === 'is_not_pinned') where.push('d.collection_position IS NULL');
    const [rows, edits] = await Promise.all([this.repo.rows(where.join(' AND '), params), this.repo.lastEditsWhere(where.join(' AND '), params)]);
    return rows.map((r) => {
      const edit = edits.get(Number(r.id)) ?? null;
      return {
        id: Number(r.id),
        model: 'dashboard',
        name: r.name,
        description: r.description,
        entity_id: r.entity_id,
        collection_id: r.collection_id === null ? null : Number(r.collection_id),
        collection_position: r.collection_position === null ? null : Number(r.collection_position),
        archived: r.archived === true || r.archived === 1,
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
    const ids = this.repo.sql.pg ? 'collection_id = ANY($2::int[])' : 'collection_id IN (SELECT value FROM json_each($2))';
    const rows = await this.repo.sql.query<{ collection_id: number }>(`SELECT DISTINCT collection_id FROM report_dashboard WHERE archived = $1 AND ${ids}`, [
      archived,
      this.repo.sql.pg ? collectionIds : JSON.stringify(collectionIds),
    ]);
    for (const r of rows) out.set(Number(r.collection_id), new Set(['dashboard']));
    return out;
  }

  /** Archiving a collection archives its dashboards not archived yet; unarchiving restores those, not the ones archived on their own. */
  async archiveIn(tx: EntityManager, collectionIds: number[], archived: boolean): Promise<void> {
    for (let i = 0; i < collectionIds.length; i += CHUNK) {
      const ids = collectionIds.slice(i, i + CHUNK);
      const qb = tx.createQueryBuilder().update('report_dashboard').where('collection_id IN (:...ids)', { ids });
      if (archived) await qb.set({ archived: true, collection_position: null }).andWhere('archived = :no', { no: false }).execute();
      else await qb.set({ archived: false }).andWhere('archived_directly = :no', { no: false }).execute();
    }
  }
}
