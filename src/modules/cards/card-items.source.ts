import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CollectionAccessService, type CollectionItem, type CollectionItemSource, type ItemsQuery } from '../collections';
import { CardsRepository } from './cards.repository';
import { type CardListRow, type LastEdit } from '../../schema/card.rows';
import { CardsService } from './cards.service';
import { commonNameOf } from '../../common/views/wire-values';
import { isoTime } from '../../common/database/sql-time';
import { parseJson } from '../../common/database/stored-json';

/** The collection listing's `model` of each card type, and back. */
const MODEL_OF: Record<string, string> = { question: 'card', model: 'dataset', metric: 'metric' };
const TYPE_OF: Record<string, string> = { card: 'question', dataset: 'model', metric: 'metric' };
const CHUNK = 500;

/** Cards, models and metrics as items of GET /api/collection/:id/items (subscribed with subscribeItemSource). */
@Injectable()
export class CardItemsSource implements CollectionItemSource {
  readonly models = ['card', 'dataset', 'metric'] as const;

  constructor(
    private readonly cards: CardsRepository,
    private readonly access: CollectionAccessService,
    private readonly writes: CardsService,
  ) {}

  async items(q: ItemsQuery): Promise<CollectionItem[]> {
    const types = (q.models.length ? q.models.filter((m) => m in TYPE_OF) : Object.keys(TYPE_OF)).map((m) => TYPE_OF[m]);
    if (types.length === 0) return [];
    if (q.collectionId === null && !(await this.access.canRead(q.user, null, q.namespace))) return [];
    const pinned = q.pinnedState === 'is_pinned' ? true : q.pinnedState === 'is_not_pinned' ? false : undefined;
    const { rows, edits } = await this.cards.inCollection({
      archived: q.archived,
      types,
      collectionId: q.collectionId,
      ...(pinned === undefined ? {} : { pinned }),
    });
    return rows.map((r) => item(r, edits.get(r.id) ?? null));
  }

  async modelsIn(collectionIds: number[], archived: boolean): Promise<Map<number, Set<string>>> {
    const out = new Map<number, Set<string>>();
    if (collectionIds.length === 0) return out;
    for (const r of await this.cards.typesIn(collectionIds, archived)) {
      if (!out.has(r.collection_id)) out.set(r.collection_id, new Set());
      out.get(r.collection_id)!.add(MODEL_OF[r.type] ?? 'card');
    }
    return out;
  }

  /**
   * Archiving a collection archives the cards in it that are not archived yet; unarchiving it restores those, and
   * leaves the cards archived on their own before.
   */
  async archiveIn(tx: EntityManager, collectionIds: number[], archived: boolean): Promise<void> {
    await this.cards.archiveInCollections(tx, collectionIds, archived);
  }

  /** Deleting collections deletes their cards (archived or not), as CardsService deletes one. */
  async deleteIn(tx: EntityManager, collectionIds: number[]): Promise<void> {
    for (let i = 0; i < collectionIds.length; i += CHUNK) {
      const ids = await this.cards.idsInCollections(collectionIds.slice(i, i + CHUNK), tx);
      await this.writes.purge(tx, ids);
    }
  }

  async beforeDeleteIn(collectionIds: number[]): Promise<void> {
    for (let i = 0; i < collectionIds.length; i += CHUNK) {
      const ids = collectionIds.slice(i, i + CHUNK);
      await this.writes.beforePurge(await this.cards.idsInCollections(ids));
    }
  }
}

function item(r: CardListRow, edit: LastEdit | null): CollectionItem {
  const lastEditedAt = isoTime(edit?.timestamp ?? r.updated_at);
  return {
    id: r.id,
    model: MODEL_OF[r.type] ?? 'card',
    name: r.name,
    description: r.description,
    display: r.display,
    entity_id: r.entity_id,
    collection_id: r.collection_id,
    collection_position: r.collection_position,
    collection_preview: r.collection_preview,
    database_id: r.database_id,
    archived: r.archived,
    archived_directly: r.archived_directly,
    last_used_at: isoTime(r.last_used_at),
    dataset_query: r.type === 'model' ? parseJson(r.dataset_query, null) : undefined,
    moderated_status: null,
    fully_parameterized: true,
    last_edited_at: lastEditedAt,
    last_edited_by: edit ? commonNameOf(edit) : null,
    'last-edit-info': edit
      ? {
          id: edit.id,
          email: edit.email,
          first_name: edit.first_name,
          last_name: edit.last_name,
          timestamp: isoTime(edit.timestamp),
        }
      : null,
  };
}
