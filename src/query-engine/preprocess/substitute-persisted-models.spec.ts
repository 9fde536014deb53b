import type { CardSource, ContentResolver, MetadataProvider, PersistedSource } from '../metadata';
import type { DatasetQuery, InnerQuery } from '../mbql/types';
import { carriesSql } from './carries-sql';
import type { PreprocessContext } from './context';
import { resolveSourceCards } from './resolve-source-cards';
import { substitutePersistedModels } from './substitute-persisted-models';

const cards: Record<number, CardSource> = {
  1: { id: 1, databaseId: 7, query: { database: 7, type: 'query', query: { 'source-table': 10 } } },
  2: { id: 2, databaseId: 7, query: { database: 7, type: 'query', query: { 'source-table': 11 } } },
  3: { id: 3, databaseId: 8, query: { database: 8, type: 'query', query: { 'source-table': 12 } } },
  5: { id: 5, databaseId: 7, query: { database: 7, type: 'query', query: { 'source-table': 'card__1', aggregation: [['count']] } } },
};
const tables: Record<number, PersistedSource> = {
  1: { schema: 'analytics_cache_ab12cd34_7', table: 'model_1', columns: [{ name: 'id', base_type: 'type/Integer' }] },
  3: { schema: 'analytics_cache_ab12cd34_8', table: 'model_3', columns: [{ name: 'id', base_type: 'type/Integer' }] },
};

function context(engine: 'postgres' | 'mysql', read: number[]): PreprocessContext {
  const content: ContentResolver = {
    card: async (id) => (read.push(id), cards[id] ?? null),
    persisted: async (id) => tables[id] ?? null,
    segment: async () => null,
    metric: async () => null,
    snippet: async () => null,
  };
  const metadata = { database: async (id: number) => ({ id, engine, timezone: null }) } as unknown as MetadataProvider;
  return { metadata, content, now: new Date(), maxRows: 2000 };
}
const mbql = (query: InnerQuery): DatasetQuery => ({ database: 7, type: 'query', query });

describe('substitutePersistedModels', () => {
  it("reads a persisted model's table in place of its query, in the query and in joins, after the card read check", async () => {
    const read: number[] = [];
    const out = await substitutePersistedModels(
      mbql({
        'source-table': 'card__1',
        joins: [{ alias: 'j', 'source-table': 'card__1', condition: ['=', 1, 1] }],
        aggregation: [['count']],
      }),
      context('postgres', read),
    );
    expect(out.query).toEqual({
      native: 'SELECT * FROM "analytics_cache_ab12cd34_7"."model_1"',
      'native-columns': tables[1].columns,
      'qp/persisted-model': 1,
      joins: [
        {
          alias: 'j',
          native: 'SELECT * FROM "analytics_cache_ab12cd34_7"."model_1"',
          'native-columns': tables[1].columns,
          'qp/persisted-model': 1,
          condition: ['=', 1, 1],
        },
      ],
      aggregation: [['count']],
    });
    expect(read).toEqual([1, 1]);
    // The server's own read of the table needs no native-query permission.
    expect(carriesSql(out)).toBe(false);
  });

  it('quotes by the dialect, and leaves models without a table, of another database, and plain tables alone', async () => {
    const out = await substitutePersistedModels(mbql({ 'source-table': 'card__1' }), context('mysql', []));
    expect(out.query!.native).toBe('SELECT * FROM `analytics_cache_ab12cd34_7`.`model_1`');
    for (const source of ['card__2', 'card__3', 10]) {
      const q = mbql({ 'source-table': source });
      expect(await substitutePersistedModels(q, context('postgres', []))).toEqual(q);
    }
  });

  it("passes a forbidden card's refusal on", async () => {
    const ctx = context('postgres', []);
    ctx.content.card = async () => {
      throw new Error('forbidden');
    };
    await expect(substitutePersistedModels(mbql({ 'source-table': 'card__1' }), ctx)).rejects.toThrow('forbidden');
  });

  it('reads the table of a persisted model inside a card too (resolve-source-cards, a question on the model)', async () => {
    const ctx = context('postgres', []);
    const out = await resolveSourceCards(await substitutePersistedModels(mbql({ 'source-table': 'card__5' }), ctx), ctx);
    expect(out.query!['source-query']).toMatchObject({
      native: 'SELECT * FROM "analytics_cache_ab12cd34_7"."model_1"',
      'qp/persisted-model': 1,
      aggregation: [['count']],
    });
    expect(carriesSql(out)).toBe(false);
  });
});
