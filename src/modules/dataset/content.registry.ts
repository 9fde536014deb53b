import { Inject, Injectable } from '@nestjs/common';
import type { ContentResolver } from '../../query-engine/metadata';
import { CARD_STORE, CardStore } from '../content/card-store';
import { SnippetsService } from '../snippets/snippets.service';
import { QueryAuthorization, userOf } from './query-authorization';

/** What the modules storing segments and metrics hand the query engine. */
export interface ContentStores {
  segment: ContentResolver['segment'];
  metric: ContentResolver['metric'];
  /** The persistence module's look-up of a persisted model's table. */
  persisted: NonNullable<ContentResolver['persisted']>;
  /** Told when a card's query changed (the persistence module rebuilds a persisted model's stale table). */
  queryChanged: (cardId: number) => void;
}

/**
 * What queries may refer to besides tables. Snippets are stored now; saved questions come through the CARD_STORE
 * token. Segments and metrics are stored by modules that themselves run queries through this one, so instead of
 * importing them (a cycle) this registry lets them plug their stores in when they start. Until then a query naming
 * one is told by the resolving stage that it does not exist.
 */
@Injectable()
export class ContentRegistry {
  private stores: Partial<ContentStores> = {};

  constructor(
    private readonly snippets: SnippetsService,
    @Inject(CARD_STORE) private readonly cards: CardStore,
  ) {}

  provide(stores: Partial<ContentStores>): void {
    this.stores = { ...this.stores, ...stores };
  }

  /** A card's dataset_query was changed (after its transaction). */
  cardQueryChanged(cardId: number): void {
    this.stores.queryChanged?.(cardId);
  }

  /**
   * The query that runs a saved question: a persisted model run as it is (no parameters) reads its table, as in
   * Metabase, through a `card__` source that the engine's substitute-persisted-models stage turns into that read.
   * With parameters, or when no table is in use, the card's own query runs.
   */
  async cardRun(card: { id: number | string; type: string; database_id: number | string | null }, query: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (card.type !== 'model' || card.database_id === null || query.parameters !== undefined) return query;
    if (!(await this.stores.persisted?.(Number(card.id)))) return query;
    const { constraints, middleware } = query;
    return { database: Number(card.database_id), type: 'query', query: { 'source-table': `card__${card.id}` }, ...(constraints ? { constraints } : {}), ...(middleware ? { middleware } : {}) };
  }

  /** The resolver one query runs with: card look-ups check the user's access; a shared object's run reads its own cards. */
  resolverFor(caller: QueryAuthorization): ContentResolver {
    const { segment, metric, persisted } = this.stores;
    return {
      persisted: async (id) => (persisted ? persisted(id) : null),
      card: (id) => this.cards.source(id, userOf(caller)),
      segment: async (id) => (segment ? segment(id) : null),
      metric: async (id) => (metric ? metric(id) : null),
      snippet: async (nameOrId, databaseId) => {
        const s = await this.snippets.find(nameOrId);
        if (!s) return null;
        if (databaseId !== undefined) await this.snippets.recordUse(s.id, databaseId);
        return { id: s.id, name: s.name, content: s.content };
      },
    };
  }
}
