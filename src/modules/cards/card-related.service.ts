import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ApiError, ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { parseJson } from '../../common/database/stored-json';
import { CollectionAccessService } from '../collections/collection-access.service';
import { MACRO_STORE, type MacroKind, type MacroStore, type TableMacro } from '../content/macro-store';
import { MetadataAccess, tableView } from '../fields/metadata-access.service';
import { comparableDefinition, rankBySimilarity } from '../legacy-metrics/macro-similarity';
import { CardAccessService } from './card-access.service';
import { deriveQuery, legacyQuery } from './card-query';
import { CardsRepository, type CardRow } from './cards.repository';

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
    @Inject(MACRO_STORE) private readonly macros: MacroStore,
  ) {}

  async forCard(caller: AuthUser, id: number) {
    const { row } = await this.access.readable(caller, id);
    const query = parseJson<unknown>(row.dataset_query, null);
    return this.related(caller, row.table_id === null ? null : Number(row.table_id), row.source_card_id === null ? null : Number(row.source_card_id), Number(row.id), query);
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
    const onTable = table ? await this.readableCards(caller, 'c.table_id = $1 AND c.archived = $2', [tableId, false]) : [];
    const others = onTable.filter((c) => Number(c.id) !== selfId);
    const source = sourceCardId === null ? [] : await this.readableCards(caller, 'c.id = $1', [sourceCardId]);
    const brief = (c: CardRow) => ({ id: Number(c.id), name: c.name, description: c.description, display: c.display, type: c.type, collection_id: c.collection_id === null ? null : Number(c.collection_id) });
    const metricCards = others.filter((c) => c.type === 'metric');
    const inner = innerQuery(query);
    const [segments, legacyMetrics] = table ? await Promise.all([this.macrosLike('segment', table.id, inner), this.macrosLike('metric', table.id, inner)]) : [[], []];
    // Metabase's canonical metric: the legacy metric computing the query's own aggregation.
    const canonical = inner.aggregation === undefined ? undefined : legacyMetrics.find((m) => sameJson(aggregationOf(m), inner.aggregation));
    return {
      table: table ? tableView(table) : null,
      metrics: [...legacyMetrics, ...metricCards.map(brief)].slice(0, RELATED_MAX),
      segments: segments.slice(0, RELATED_MAX),
      dashboards: [],
      'dashboard-mates': [],
      'similar-questions': others.filter((c) => c.type === 'question').slice(0, RELATED_MAX).map(brief),
      'canonical-metric': canonical ?? (metricCards.length ? brief(metricCards[0]) : null),
      models: source.filter((c) => c.type === 'model').map(brief),
      collections: [],
    };
  }

  /** All the table's segments or legacy metrics, those most alike the query's breakout, aggregation, expressions and fields first. */
  private async macrosLike(kind: MacroKind, tableId: number, inner: Record<string, unknown>): Promise<TableMacro[]> {
    const list = (await this.macros.onTables(kind, [tableId])).get(tableId) ?? [];
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

  private async readableCards(caller: AuthUser, where: string, params: unknown[]): Promise<CardRow[]> {
    const cond = await this.collections.readableCondition(caller, 'c.collection_id', params.length + 1);
    return this.cards.rows(`${where} AND ${cond.sql}`, [...params, ...cond.params], 'c.view_count DESC, c.id', RELATED_MAX * 4);
  }
}

/** The top-level MBQL query of a card's dataset query (legacy or MBQL 5); empty for native queries and what does not normalize. */
function innerQuery(sent: unknown): Record<string, unknown> {
  const q = legacyQuery(sent);
  return q?.type === 'query' && q.query ? (q.query as unknown as Record<string, unknown>) : {};
}

function aggregationOf(m: TableMacro): unknown {
  const d = m.definition;
  return d && typeof d === 'object' ? (d as Record<string, unknown>).aggregation : undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
