import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ApiError, ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { CollectionAccessService } from '../collections/collection-access.service';
import { MetadataAccess, tableView } from '../fields/metadata-access.service';
import { CardAccessService } from './card-access.service';
import { deriveQuery } from './card-query';
import { CardsRepository, type CardRow } from './cards.repository';

/** How many cards each list of the related answer holds at most (Metabase shows a handful). */
const RELATED_MAX = 5;

/**
 * Metabase's "related" answer for a card or an ad-hoc query (GET /api/card/:id/related, POST /api/card/related):
 * the table the query reads, metric cards and other questions on that table, the models it is built on. Segments
 * and legacy metrics arrive with their own issue; dashboards with theirs. What the caller may not read is left out.
 */
@Injectable()
export class CardRelatedService {
  constructor(
    private readonly cards: CardsRepository,
    private readonly access: CardAccessService,
    private readonly collections: CollectionAccessService,
    private readonly metadata: MetadataAccess,
  ) {}

  async forCard(caller: AuthUser, id: number) {
    const { row } = await this.access.readable(caller, id);
    return this.related(caller, row.table_id === null ? null : Number(row.table_id), row.source_card_id === null ? null : Number(row.source_card_id), Number(row.id));
  }

  async forQuery(caller: AuthUser, body: unknown) {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw ValidationError.of('query', MSG.map, body);
    const derived = deriveQuery(body);
    if (derived.database_id === null) throw ValidationError.of('database', MSG.positiveInt, (body as Record<string, unknown>).database);
    await this.access.assertMayQuery(caller, derived);
    return this.related(caller, derived.table_id, derived.source_card_id, null);
  }

  private async related(caller: AuthUser, tableId: number | null, sourceCardId: number | null, selfId: number | null) {
    const table = tableId === null ? null : await this.readableTable(caller, tableId);
    const onTable = table ? await this.readableCards(caller, 'c.table_id = $1 AND c.archived = $2', [tableId, false]) : [];
    const others = onTable.filter((c) => Number(c.id) !== selfId);
    const source = sourceCardId === null ? [] : await this.readableCards(caller, 'c.id = $1', [sourceCardId]);
    const brief = (c: CardRow) => ({ id: Number(c.id), name: c.name, description: c.description, display: c.display, type: c.type, collection_id: c.collection_id === null ? null : Number(c.collection_id) });
    const metrics = others.filter((c) => c.type === 'metric');
    return {
      table: table ? tableView(table) : null,
      metrics: metrics.slice(0, RELATED_MAX).map(brief),
      segments: [],
      dashboards: [],
      'dashboard-mates': [],
      'similar-questions': others.filter((c) => c.type === 'question').slice(0, RELATED_MAX).map(brief),
      'canonical-metric': metrics.length ? brief(metrics[0]) : null,
      models: source.filter((c) => c.type === 'model').map(brief),
      collections: [],
    };
  }

  private async readableTable(caller: AuthUser, tableId: number) {
    try {
      return (await this.metadata.table(caller, tableId, 'read')).table;
    } catch (e) {
      if (e instanceof ApiError && (e.status === 403 || e.status === 404)) return null;
      throw e;
    }
  }

  private async readableCards(caller: AuthUser, where: string, params: unknown[]): Promise<CardRow[]> {
    const cond = await this.collections.readableCondition(caller, 'c.collection_id', params.length + 1);
    return this.cards.rows(`${where} AND ${cond.sql}`, [...params, ...cond.params], 'c.view_count DESC, c.id', RELATED_MAX * 4);
  }
}
