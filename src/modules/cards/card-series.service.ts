import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { MessageError } from '../../common/errors/api-errors';
import { CollectionAccessService } from '../collections';
import { CardAccessService } from './card-access.service';
import { CardHydrator } from './card-hydrator';
import { legacyQuery } from './card-query';
import { CardsRepository } from './cards.repository';
import { type CardRow } from '../../schema/card.rows';
import { parseJson } from '../../common/database/stored-json';

/** Displays whose cards can share a chart, by family. */
const FAMILIES: Record<string, readonly string[]> = {
  line: ['line', 'area', 'bar', 'combo'],
  area: ['line', 'area', 'bar', 'combo'],
  bar: ['line', 'area', 'bar', 'combo'],
  combo: ['line', 'area', 'bar', 'combo'],
  scalar: ['scalar'],
};
/** Metabase pages the series picker 15 at a time. */
export const SERIES_PAGE = 15;
const BATCH = 200;

/** What a card draws: how many aggregations, and whether its one breakout is over time, a category, or absent. */
interface Shape {
  aggregations: number;
  breakouts: number;
  temporal: boolean;
}

function shapeOf(row: CardRow): Shape | null {
  const q = legacyQuery(parseJson<unknown>(row.dataset_query, null));
  if (!q || q.type !== 'query' || !q.query) return null;
  const inner = q.query;
  const breakout = inner.breakout ?? [];
  const first = breakout[0] as unknown[] | undefined;
  const opts = (first?.[2] ?? null) as Record<string, unknown> | null;
  const columns = parseJson<Array<{ base_type?: string; effective_type?: string }> | null>(row.result_metadata, null);
  const firstType = columns?.[0]?.effective_type ?? columns?.[0]?.base_type ?? '';
  const temporal = Boolean(opts?.['temporal-unit']) || /Date|Time/.test(firstType);
  return { aggregations: (inner.aggregation ?? []).length, breakouts: breakout.length, temporal };
}

/** One aggregation, and one breakout of the same kind (time or category) as the card's; none for a scalar. */
function compatible(card: Shape, other: Shape, display: string): boolean {
  if (other.aggregations !== 1) return false;
  if (display === 'scalar') return other.breakouts === 0;
  return other.breakouts === 1 && other.temporal === card.temporal;
}

/**
 * GET /api/card/:id/series: cards that can be drawn on the card's chart, newest first, paged by the id of the last
 * card of the previous page. Candidates are read in batches by id, filtered in SQL by display, name, type and what
 * the caller may read; only the query shape is checked per card, until a page is full.
 */
@Injectable()
export class CardSeriesService {
  constructor(
    private readonly cards: CardsRepository,
    private readonly access: CardAccessService,
    private readonly collections: CollectionAccessService,
    private readonly hydrator: CardHydrator,
  ) {}

  async series(caller: AuthUser, id: number, opts: { lastCursor?: number; query?: string; excludeIds?: number[] }) {
    const { row } = await this.access.readable(caller, id);
    const family = FAMILIES[row.display];
    const own = shapeOf(row);
    if (!family || !own) throw new MessageError(`Can't get series for a card with display ${row.display}.`);
    const excluded = new Set([id, ...(opts.excludeIds ?? [])]);
    const found: CardRow[] = [];
    let cursor = opts.lastCursor ?? null;
    while (found.length < SERIES_PAGE) {
      const batch = await this.candidates(caller, family, cursor, opts.query);
      for (const c of batch) {
        const shape = excluded.has(c.id) ? null : shapeOf(c);
        if (shape && compatible(own, shape, row.display)) found.push(c);
        if (found.length === SERIES_PAGE) break;
      }
      if (batch.length < BATCH) break;
      cursor = batch[batch.length - 1].id;
    }
    return this.hydrator.many(caller, found);
  }

  private async candidates(
    caller: AuthUser,
    family: readonly string[],
    cursor: number | null,
    query: string | undefined,
  ): Promise<CardRow[]> {
    return this.cards.seriesCandidates({
      displays: family,
      before: cursor,
      ...(query ? { nameContains: query } : {}),
      readable: await this.collections.readableWhere(caller, 'c.collection_id'),
      limit: BATCH,
    });
  }
}
