import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ApiError, ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { parseJson } from '../../common/database/stored-json';
import { CollectionAccessService } from '../collections';
import { comparableDefinition, type SegmentMetricKind, rankBySimilarity, type SegmentMetricView, segmentsMetricsOf } from '../content';
import { EventBus } from '../../common/events/event-bus';
import { MetadataAccess, tableView } from '../fields';
import { CardAccessService } from './card-access.service';
import { deriveQuery, legacyQuery } from './card-query';
import { CardsRepository } from './cards.repository';
import { type CardRow } from '../../schema/card.rows';

/** How many cards each list of the related answer holds at most (Metabase shows a handful). */
const RELATED_MAX = 5;

/**
 * Metabase's "related" answer for a card or an ad-hoc query (GET /api/card/:id/related, POST /api/card/related):
 * the table the query reads, its segments and legacy metrics most alike the query first (Metabase v0.48's related
 * API), then the metric cards on that table among the metrics; other questions on that table, the models it is built
 * on. Dashboards arrive with their issue. What the caller may not read is left out.
 */
@Injectable()
export class CardRelatedService {
  constructor(
    private readonly cards: CardsRepository,
    private readonly access: CardAccessService,
    private readonly collections: CollectionAccessService,
    private readonly metadata: MetadataAccess,
    private readonly bus: EventBus,
  ) {}

  async forCard(caller: AuthUser, id: number) {
    const { row } = await this.access.readable(caller, id);
    const query = parseJson<unknown>(row.dataset_query, null);
    return this.related(caller, row.table_id, row.source_card_id, row.id, query);
  }

  async forQuery(caller: AuthUser, body: unknown) {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw ValidationError.of('query', MSG.map, body);
    const derived = deriveQuery(body);
    if (derived.database_id === null) throw ValidationError.of('database', MSG.positiveInt, (body as Record<string, unknown>).database);
    await this.access.assertMayQuery(caller, derived);
    return this.related(caller, derived.table_id, derived.source_card_id, null, body);
  }

  private async related(caller: AuthUser, tableId: number | null, sourceCardId: number | null, selfId: number | null, query: unknown) {
    const table = tableId === null ? null : await this.readableTable(caller, tableId);
    const readable = await this.collections.readableWhere(caller, 'c.collection_id');
    const onTable = table && tableId !== null ? await this.cards.onTable(tableId, readable, RELATED_MAX * 4) : [];
    const others = onTable.filter((c) => c.id !== selfId);
    const source = sourceCardId === null ? [] : [await this.cards.readableById(sourceCardId, readable)].filter((c) => c !== null);
    const brief = (c: CardRow) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      display: c.display,
      type: c.type,
      collection_id: c.collection_id,
    });
    const metricCards = others.filter((c) => c.type === 'metric');
    const inner = innerQuery(query);
    const [segments, legacyMetrics] = table
      ? await Promise.all([this.segmentsMetricsLike('segment', table.id, inner), this.segmentsMetricsLike('metric', table.id, inner)])
      : [[], []];
    // Metabase's canonical metric: the legacy metric computing the query's own aggregation.
    const canonical =
      inner.aggregation === undefined ? undefined : legacyMetrics.find((m) => sameJson(aggregationOf(m), inner.aggregation));
    return {
      table: table ? tableView(table) : null,
      metrics: [...legacyMetrics, ...metricCards.map(brief)].slice(0, RELATED_MAX),
      segments: segments.slice(0, RELATED_MAX),
      dashboards: [],
      'dashboard-mates': [],
      'similar-questions': others
        .filter((c) => c.type === 'question')
        .slice(0, RELATED_MAX)
        .map(brief),
      'canonical-metric': canonical ?? (metricCards.length ? brief(metricCards[0]) : null),
      models: source.filter((c) => c.type === 'model').map(brief),
      collections: [],
    };
  }

  /** All the table's segments or legacy metrics, those most alike the query's breakout, aggregation, expressions and fields first. */
  private async segmentsMetricsLike(
    kind: SegmentMetricKind,
    tableId: number,
    inner: Record<string, unknown>,
  ): Promise<SegmentMetricView[]> {
    const list = (await segmentsMetricsOf(this.bus, kind, [tableId])).get(tableId) ?? [];
    const reference = [inner.breakout ?? null, inner.aggregation ?? null, inner.expressions ?? null, inner.fields ?? null];
    return rankBySimilarity(reference, list, (m) => comparableDefinition(kind, m.definition), list.length);
  }

  private async readableTable(caller: AuthUser, tableId: number) {
    try {
      return (await this.metadata.table(caller, tableId, 'read')).table;
    } catch (e) {
      if (e instanceof ApiError && (e.status === 403 || e.status === 404)) return null;
      throw e;
    }
  }
}

/** The top-level MBQL query of a card's dataset query (legacy or MBQL 5); empty for native queries and what does not normalize. */
function innerQuery(sent: unknown): Record<string, unknown> {
  const q = legacyQuery(sent);
  return q?.type === 'query' && q.query ? (q.query as unknown as Record<string, unknown>) : {};
}

function aggregationOf(m: SegmentMetricView): unknown {
  const d = m.definition;
  return d && typeof d === 'object' ? (d as Record<string, unknown>).aggregation : undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
