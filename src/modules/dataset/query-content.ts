import { Injectable } from '@nestjs/common';
import { EventBus } from '../../common/events/event-bus';
import type { ContentResolver } from '../../query-engine/metadata';
import { CardSourceQuery, SegmentMetricDefinitionQuery, PersistedTableQuery } from '../content';
import { SnippetsService } from '../snippets';
import { type Reader, userOf } from '../../common/auth/shared-grant';

/**
 * What queries may refer to besides tables. Snippets are stored by a module below this one; saved questions,
 * persisted models' tables, segments and metrics by modules that themselves run queries through this one, so they
 * are asked through the event bus (the content module's queries). A query naming content nobody answers for is
 * told by the resolving stage that it does not exist.
 */
@Injectable()
export class QueryContent {
  constructor(
    private readonly snippets: SnippetsService,
    private readonly bus: EventBus,
  ) {}

  /**
   * The query that runs a saved question: a persisted model run as it is (no parameters) reads its table, as in
   * Metabase, through a `card__` source that the engine's substitute-persisted-models stage turns into that read.
   * With parameters, or when no table is in use, the card's own query runs.
   */
  async cardRun(
    card: { id: number | string; type: string; database_id: number | string | null },
    query: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    if (card.type !== 'model' || card.database_id === null || query.parameters !== undefined) return query;
    if (!(await this.persisted(Number(card.id)))) return query;
    const { constraints, middleware } = query;
    return {
      database: Number(card.database_id),
      type: 'query',
      query: { 'source-table': `card__${card.id}` },
      ...(constraints ? { constraints } : {}),
      ...(middleware ? { middleware } : {}),
    };
  }

  /** The resolver one query runs with: card look-ups check the user's access; a shared object's run reads its own cards. */
  resolverFor(caller: Reader): ContentResolver {
    return {
      persisted: (id) => this.persisted(id),
      card: async (id) => (await this.bus.askOne(new CardSourceQuery(id, userOf(caller)))) ?? null,
      segment: async (id) => {
        const s = await this.bus.askOne(new SegmentMetricDefinitionQuery('segment', id));
        return s ? { id: s.id, tableId: s.tableId, definition: s.definition } : null;
      },
      metric: async (id) => (await this.bus.askOne(new SegmentMetricDefinitionQuery('metric', id))) ?? null,
      snippet: async (nameOrId, databaseId) => {
        const s = await this.snippets.find(nameOrId);
        if (!s) return null;
        if (databaseId !== undefined) await this.snippets.recordUse(s.id, databaseId);
        return { id: s.id, name: s.name, content: s.content };
      },
    };
  }

  private async persisted(cardId: number) {
    return (await this.bus.askOne(new PersistedTableQuery(cardId))) ?? null;
  }
}
