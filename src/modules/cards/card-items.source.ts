import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CollectionAccessService } from '../collections/collection-access.service';
import type { CollectionItem, CollectionItemSource, ItemsQuery } from '../collections/collection-items.registry';
import { CardsRepository, type CardListRow, type LastEdit } from './cards.repository';
import { commonNameOf, isoTime } from './card-view';
import { parseJson } from '../../common/database/stored-json';

/** The collection listing's `model` of each card type, and back. */
const MODEL_OF: Record<string, string> = { question: 'card', model: 'dataset', metric: 'metric' };
const TYPE_OF: Record<string, string> = { card: 'question', dataset: 'model', metric: 'metric' };
const CHUNK = 500;

/** Cards, models and metrics as items of GET /api/collection/:id/items (registered with CollectionItemsRegistry). */
@Injectable()
export class CardItemsSource implements CollectionItemSource {
  readonly models = ['card', 'dataset', 'metric'] as const;

  constructor(
    private readonly cards: CardsRepository,
    private readonly access: CollectionAccessService,
  ) {}

  async items(q: ItemsQuery): Promise<CollectionItem[]> {
    const types = (q.models.length ? q.models.filter((m) => m in TYPE_OF) : Object.keys(TYPE_OF)).map((m) => TYPE_OF[m]);
    if (types.length === 0) return [];
    const params: unknown[] = [q.archived];
    const where = ['c.archived = $1', `c.type IN (${types.map((t) => `$${params.push(t)}`).join(', ')})`];
    if (q.collectionId === null) {
      if (!(await this.access.canRead(q.user, null, q.namespace))) return [];
      where.push('c.collection_id IS NULL');
    } else {
      where.push(`c.collection_id = $${params.push(q.collectionId)}`);
    }
    if (q.pinnedState === 'is_pinned') where.push('c.collection_position IS NOT NULL');
    if (q.pinnedState === 'is_not_pinned') where.push('c.collection_position IS NULL');
    const [rows, edits] = await Promise.all([this.cards.listRows(where.join(' AND '), params), this.cards.lastEditsWhere(where.join(' AND '), params)]);
    return rows.map((r) => item(r, edits.get(Number(r.id)) ?? null));
  }

  async modelsIn(collectionIds: number[], archived: boolean): Promise<Map<number, Set<string>>> {
    const out = new Map<number, Set<string>>();
    if (collectionIds.length === 0) return out;
    // One bound value holding every id (a Postgres array, a JSON list on SQLite): an index lookup per id, with no
    // limit on how many ids one statement takes.
    const ids = this.cards.sql.pg ? 'collection_id = ANY($2::int[])' : 'collection_id IN (SELECT value FROM json_each($2))';
    const rows = await this.cards.sql.query<{ collection_id: number; type: string }>(
      `SELECT DISTINCT collection_id, type FROM report_card WHERE archived = $1 AND ${ids}`,
      [archived, this.cards.sql.pg ? collectionIds : JSON.stringify(collectionIds)],
    );
    for (const r of rows) {
      const id = Number(r.collection_id);
      if (!out.has(id)) out.set(id, new Set());
      out.get(id)!.add(MODEL_OF[r.type] ?? 'card');
    }
    return out;
  }

  /**
   * Archiving a collection archives the cards in it that are not archived yet; unarchiving it restores those, and
   * leaves the cards archived on their own before.
   */
  async archiveIn(tx: EntityManager, collectionIds: number[], archived: boolean): Promise<void> {
    for (let i = 0; i < collectionIds.length; i += CHUNK) {
      const ids = collectionIds.slice(i, i + CHUNK);
      const qb = tx.createQueryBuilder().update('report_card').where('collection_id IN (:...ids)', { ids });
      if (archived) await qb.set({ archived: true, collection_position: null }).andWhere('archived = :no', { no: false }).execute();
      else await qb.set({ archived: false }).andWhere('archived_directly = :no', { no: false }).execute();
    }
  }
}

function item(r: CardListRow, edit: LastEdit | null): CollectionItem {
  const lastEditedAt = isoTime(edit?.timestamp ?? r.updated_at);
  return {
    id: Number(r.id),
    model: MODEL_OF[r.type] ?? 'card',
    name: r.name,
    description: r.description,
    display: r.display,
    entity_id: r.entity_id,
    collection_id: r.collection_id === null ? null : Number(r.collection_id),
    collection_position: r.collection_position === null ? null : Number(r.collection_position),
    collection_preview: r.collection_preview === true || r.collection_preview === 1,
    database_id: r.database_id === null ? null : Number(r.database_id),
    archived: r.archived === true || r.archived === 1,
    dataset_query: r.type === 'model' ? parseJson(r.dataset_query, null) : undefined,
    moderated_status: null,
    fully_parameterized: true,
    last_edited_at: lastEditedAt,
    last_edited_by: edit ? commonNameOf(edit) : null,
    'last-edit-info': edit ? { id: Number(edit.id), email: edit.email, first_name: edit.first_name, last_name: edit.last_name, timestamp: isoTime(edit.timestamp) } : null,
  };
}
