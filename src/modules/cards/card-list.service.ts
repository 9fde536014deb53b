import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { BookmarksRepository } from '../bookmarks/bookmarks.repository';
import { CollectionAccessService } from '../collections/collection-access.service';
import { CardHydrator } from './card-hydrator';
import type { CardFilter } from './cards.dto';
import { CardsRepository } from './cards.repository';

/** The filters that need `model_id`, and what it names. */
const NEEDS_MODEL: Partial<Record<CardFilter, 'database' | 'table' | 'card' | null>> = {
  database: 'database',
  table: 'table',
  using_model: 'card',
  using_metric: null,
  using_segment: null,
};

/**
 * GET /api/card/: one query for the cards of a filter that the caller may read (the collection access condition is
 * part of its WHERE clause), then `can_write` for all of them in at most three more, whatever their number.
 */
@Injectable()
export class CardListService {
  constructor(
    private readonly cards: CardsRepository,
    private readonly access: CollectionAccessService,
    private readonly bookmarks: BookmarksRepository,
    private readonly hydrator: CardHydrator,
  ) {}

  /** The listing's JSON text (see card-list-sql.ts). */
  async list(caller: AuthUser, f: CardFilter = 'all', modelId?: number): Promise<string> {
    const params: unknown[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const where: string[] = [];
    let order = 'c.name, c.id';
    if (f in NEEDS_MODEL) {
      if (modelId === undefined) throw ValidationError.of('model_id', `model_id is a required parameter when filter mode is '${f}'`, modelId);
      await this.assertExists(NEEDS_MODEL[f] ?? null, modelId);
    }
    where.push(`c.archived = ${p(f === 'archived')}`);
    switch (f) {
      case 'mine':
        where.push(`c.creator_id = ${p(caller.id)}`);
        break;
      case 'bookmarked': {
        const ids = [...(await this.bookmarks.bookmarkedIds(caller.id, 'card'))];
        if (ids.length === 0) return '[]';
        where.push(`c.id IN (${ids.map((id) => p(id)).join(', ')})`);
        break;
      }
      case 'database':
        where.push(`c.database_id = ${p(modelId)}`);
        break;
      case 'table':
        where.push(`c.table_id = ${p(modelId)}`);
        break;
      case 'using_model':
        where.push(`c.id IN (SELECT card_id FROM card_reference WHERE kind = 'card' AND ref_id = ${p(modelId)})`);
        break;
      case 'using_metric':
        where.push(`c.id IN (SELECT card_id FROM card_reference WHERE kind IN ('metric', 'card') AND ref_id = ${p(modelId)})`);
        break;
      case 'using_segment':
        where.push(`c.id IN (SELECT card_id FROM card_reference WHERE kind = 'segment' AND ref_id = ${p(modelId)})`);
        break;
      case 'popular':
        order = 'c.view_count DESC, c.name, c.id';
        break;
      case 'recent': {
        // The cards the caller ran lately, latest first (the execution log stands for Metabase's view log).
        const me = p(caller.id);
        where.push(`c.id IN (SELECT card_id FROM query_execution WHERE executor_id = ${me} AND card_id IS NOT NULL)`);
        order = `(SELECT MAX(q.started_at) FROM query_execution q WHERE q.card_id = c.id AND q.executor_id = ${me}) DESC, c.id`;
        break;
      }
      default:
        break;
    }
    const readable = await this.access.readableCondition(caller, 'c.collection_id', params.length + 1);
    where.push(readable.sql);
    params.push(...readable.params);
    const rows = await this.cards.jsonRows(where.join(' AND '), params, order);
    return this.hydrator.listJson(caller, rows);
  }

  private async assertExists(kind: 'database' | 'table' | 'card' | null, id: number): Promise<void> {
    if (kind === null) return;
    const table = kind === 'database' ? 'metabase_database' : kind === 'table' ? 'metabase_table' : 'report_card';
    const found = await this.cards.sql.query(`SELECT id FROM ${table} WHERE id = $1`, [id]);
    if (found.length === 0) throw new NotFoundError();
  }
}
