import { TRUE } from '../../common/database/sql';
import type { AuthUser } from '../../common/auth/current-user';
import { MessageError } from '../../common/errors/api-errors';
import type { CardRow } from '../../schema/card.rows';
import type { CollectionAccessService } from '../collections';
import type { CardAccessService } from './card-access.service';
import type { CardHydrator } from './card-hydrator';
import { CardSeriesService, SERIES_PAGE } from './card-series.service';
import type { CardsRepository } from './cards.repository';

/** CardSeriesService: which cards can share a card's chart, and the paging over candidates; candidates come from a mock. */
describe('CardSeriesService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const byMonth = ['field', 2, { 'temporal-unit': 'month' }];
  const byCategory = ['field', 3, null];
  const card = (id: number, display: string, query: Record<string, unknown>) =>
    ({
      id,
      display,
      dataset_query: JSON.stringify({ database: 1, type: 'query', query: { 'source-table': 1, ...query } }),
      result_metadata: null,
    }) as unknown as CardRow;
  const overTime = (id: number, display = 'line') => card(id, display, { aggregation: [['count']], breakout: [byMonth] });

  function setup(own: CardRow, candidates: CardRow[]) {
    const cards = {
      // Candidates newest first, at most 200 a batch, below the cursor: as the SQL reads them.
      seriesCandidates: jest.fn(async (f: { before: number | null; limit: number }) =>
        candidates.filter((c) => f.before === null || c.id < f.before).slice(0, f.limit),
      ),
    };
    const hydrator = { many: jest.fn(async (_c: AuthUser, rows: CardRow[]) => rows.map((r) => r.id)) };
    const service = new CardSeriesService(
      cards as unknown as CardsRepository,
      { readable: jest.fn().mockResolvedValue({ row: own }) } as unknown as CardAccessService,
      { readableWhere: jest.fn().mockResolvedValue(TRUE) } as unknown as CollectionAccessService,
      hydrator as unknown as CardHydrator,
    );
    return { service, cards };
  }

  it('offers cards of one aggregation and one breakout of the same kind, leaving out the card itself and those excluded', async () => {
    const candidates = [
      overTime(50, 'bar'),
      card(49, 'line', { aggregation: [['count'], ['sum', ['field', 4, null]]], breakout: [byMonth] }),
      card(48, 'line', { aggregation: [['count']], breakout: [byCategory] }),
      card(47, 'line', { aggregation: [['count']], breakout: [byMonth, byCategory] }),
      overTime(46),
      overTime(45),
      overTime(10),
    ];
    const ids = await setup(overTime(10), candidates).service.series(user, 10, { excludeIds: [45] });
    expect(ids).toEqual([50, 46]);
  });

  it('offers scalars to a scalar, and refuses displays that cannot take series', async () => {
    const scalar = (id: number) => card(id, 'scalar', { aggregation: [['count']] });
    await expect(setup(scalar(10), [scalar(20), overTime(19, 'scalar')]).service.series(user, 10, {})).resolves.toEqual([20]);
    const e = await setup(card(10, 'table', {}), [])
      .service.series(user, 10, {})
      .catch((x: unknown) => x);
    expect((e as MessageError).message).toBe("Can't get series for a card with display table.");
  });

  it('fills a page from as many batches as it takes, stopping once full', async () => {
    const unfit = Array.from({ length: 200 }, (_, i) => card(1000 - i, 'line', { aggregation: [['count']] }));
    const fit = Array.from({ length: 40 }, (_, i) => overTime(700 - i));
    const m = setup(overTime(1), [...unfit, ...fit]);
    const ids = await m.service.series(user, 1, {});
    expect(ids).toHaveLength(SERIES_PAGE);
    expect(ids[0]).toBe(700);
    expect(m.cards.seriesCandidates).toHaveBeenCalledTimes(2);
  });
});
