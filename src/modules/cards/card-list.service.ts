import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { BookmarksRepository } from '../bookmarks';
import { CollectionAccessService } from '../collections';
import type { CardFilter } from './cards.dto';
import { CardsRepository, type CardListFilter } from './cards.repository';

/** The filters that need `model_id`, and what it names. */
const NEEDS_MODEL: Partial<Record<CardFilter, 'database' | 'table' | 'card' | null>> = {
  database: 'database',
  table: 'table',
  using_model: 'card',
  using_metric: null,
  using_segment: null,
};

/** Cards per batch written: about 1.4 MB of JSON. */
const BATCH = 1000;

const NONE: AsyncIterable<string[]> = { [Symbol.asyncIterator]: async function* () {} };

/**
 * GET /api/card/: one query for the cards of a filter that the caller may read (the collection access condition is
 * part of its WHERE clause, the one of `can_write` part of its SELECT), streamed as the database produces it.
 */
@Injectable()
export class CardListService {
  constructor(
    private readonly cards: CardsRepository,
    private readonly access: CollectionAccessService,
    private readonly bookmarks: BookmarksRepository,
  ) {}

  /** The listing's cards as JSON texts, a batch at a time (see card-list-sql.ts and CardsRepository.listJson). */
  async list(caller: AuthUser, f: CardFilter = 'all', modelId?: number): Promise<AsyncIterable<string[]>> {
    if (f in NEEDS_MODEL) {
      if (modelId === undefined)
        throw ValidationError.of('model_id', `model_id is a required parameter when filter mode is '${f}'`, modelId);
      const kind = NEEDS_MODEL[f];
      if (kind && !(await this.cards.exists(kind, modelId))) throw new NotFoundError();
    }
    const [readable, writable] = await Promise.all([
      this.access.readableWhere(caller, 'c.collection_id'),
      this.access.writableWhere(caller, 'c.collection_id'),
    ]);
    const filter: CardListFilter = { archived: f === 'archived', readable, writable };
    switch (f) {
      case 'mine':
        filter.creatorId = caller.id;
        break;
      case 'bookmarked':
        filter.ids = [...(await this.bookmarks.bookmarkedIds(caller.id, 'card'))];
        if (filter.ids.length === 0) return NONE;
        break;
      case 'database':
        filter.databaseId = modelId;
        break;
      case 'table':
        filter.tableId = modelId;
        break;
      case 'using_model':
        filter.usingCard = modelId;
        break;
      case 'using_metric':
        filter.usingMetric = modelId;
        break;
      case 'using_segment':
        filter.usingSegment = modelId;
        break;
      case 'popular':
        filter.popular = true;
        break;
      case 'recent':
        // The cards the caller ran lately, latest first (the execution log stands for Metabase's view log).
        filter.ranBy = caller.id;
        break;
      default:
        break;
    }
    return this.cards.listJson(filter, BATCH);
  }
}
