import type { CardSource, ContentResolver, FieldMeta, MetadataProvider } from '../metadata';
import type { DatasetQuery, InnerQuery } from '../mbql/types';
import { addRowLimit } from './add-row-limit';
import { bucketDatetimes } from './bucket-datetimes';
import { InvalidQueryError } from '../mbql/validate';
import { PreprocessContext, PreprocessError } from './context';
import { expandSegmentsAndMetrics } from './expand-segments-metrics';
import { resolveSourceCards } from './resolve-source-cards';

/** Definitions the tests provide, as the content, metrics and segments issues will store them. */
const cards: Record<number, CardSource> = {
  1: { id: 1, databaseId: 7, query: { database: 7, type: 'query', query: { 'source-table': 10, filter: ['>', ['field', 100, null], 5] } } },
  2: { id: 2, databaseId: 7, query: { database: 7, type: 'query', query: { 'source-table': 'card__1', aggregation: [['count']] } } },
  3: { id: 3, databaseId: 7, query: { database: 7, type: 'native', native: { query: 'SELECT 1 AS one' } } },
  4: { id: 4, databaseId: 8, query: { database: 8, type: 'query', query: { 'source-table': 11 } } },
  5: { id: 5, databaseId: 7, query: { database: 7, type: 'query', query: { 'source-table': 'card__6' } } },
  6: { id: 6, databaseId: 7, query: { database: 7, type: 'query', query: { 'source-table': 'card__5' } } },
  // Malformed saved questions (stored before a check, or written by hand): refused as they are spliced in.
  20: { id: 20, databaseId: 7, query: { database: 7, type: 'query', query: { 'source-table': 10, aggregation: 'count' as never } } },
  21: { id: 21, databaseId: 7, query: { database: 7, type: 'query', query: { 'source-table': 'card__20' } } },
  22: {
    id: 22,
    databaseId: 7,
    query: { database: 7, type: 'query', query: { 'source-table': 10, filter: ['between', ['field', 100, null], 1] } },
  },
  23: { id: 23, databaseId: 7, query: { database: 7, type: 'native', native: { query: '  ' } } },
};
const content: ContentResolver = {
  card: async (id) => cards[id] ?? null,
  segment: async (id) =>
    ({
      1: { id: 1, tableId: 10, definition: { 'source-table': 10, filter: ['=', ['field', 101, null], 'Gizmo'] } as InnerQuery },
      2: {
        id: 2,
        tableId: 10,
        definition: { 'source-table': 10, filter: ['and', ['segment', 1], ['not-null', ['field', 102, null]]] } as InnerQuery,
      },
      3: { id: 3, tableId: 10, definition: { 'source-table': 10, filter: ['is-null'] } as unknown as InnerQuery },
    })[id] ?? null,
  metric: async (id) =>
    ({
      1: {
        id: 1,
        tableId: 10,
        name: 'Revenue',
        definition: { 'source-table': 10, aggregation: [['sum', ['field', 103, null]]] } as InnerQuery,
      },
      2: {
        id: 2,
        tableId: 10,
        name: 'Big orders',
        definition: { 'source-table': 10, aggregation: [['count']], filter: ['>', ['field', 103, null], 100] } as InnerQuery,
      },
      3: {
        id: 3,
        tableId: 10,
        name: 'Odd',
        definition: { 'source-table': 10, aggregation: [['avg', ['field', 103, null]]], filter: ['segment', 1] } as InnerQuery,
      },
      4: { id: 4, tableId: 10, name: 'Bad', definition: { 'source-table': 10, aggregation: [['sum']] } as unknown as InnerQuery },
      5: {
        id: 5,
        tableId: 10,
        name: 'Bad filter',
        definition: { 'source-table': 10, aggregation: [['count']], filter: ['nope', 1] } as unknown as InnerQuery,
      },
      6: {
        id: 6,
        tableId: 10,
        name: 'Running',
        definition: { 'source-table': 10, aggregation: [['cum-count']], filter: ['segment', 1] } as InnerQuery,
      },
      7: {
        id: 7,
        tableId: 10,
        name: 'Top',
        definition: { 'source-table': 10, aggregation: [['percentile', ['field', 103, null], 0.9]], filter: ['segment', 1] } as InnerQuery,
      },
    })[id] ?? null,
  snippet: async () => null,
};
const field = (id: number, baseType: string): FieldMeta => ({
  id,
  tableId: 10,
  name: `F${id}`,
  displayName: `F${id}`,
  baseType,
  effectiveType: baseType,
  semanticType: null,
  fkTargetFieldId: null,
  visibilityType: 'normal',
  coercionStrategy: null,
  fingerprint: null,
  position: 0,
});
const metadata: MetadataProvider = {
  database: async () => null,
  table: async () => null,
  tableFields: async () => [],
  field: async (id) => ({ 100: field(100, 'type/Integer'), 104: field(104, 'type/DateTime'), 105: field(105, 'type/Date') })[id] ?? null,
};
const ctx: PreprocessContext = { metadata, content, now: new Date('2025-06-15T12:00:00Z'), maxRows: 2000 };
const mbql = (query: InnerQuery): DatasetQuery => ({ database: 7, type: 'query', query });

describe('resolveSourceCards', () => {
  it('nests a saved question as the source query, recursively', async () => {
    const q = await resolveSourceCards(mbql({ 'source-table': 'card__2', limit: 3 }), ctx);
    expect(q.query).toEqual({
      limit: 3,
      'source-query': {
        aggregation: [['count']],
        'source-query': { 'source-table': 10, filter: ['>', ['field', 100, null], 5], 'qp/stage-is-from-source-card': 1 },
        'qp/stage-is-from-source-card': 2,
      },
    });
  });

  it('nests a native card as native SQL, also in joins', async () => {
    const q = await resolveSourceCards(
      mbql({ 'source-table': 10, joins: [{ alias: 'N', 'source-table': 'card__3', condition: ['=', 1, 1] }] }),
      ctx,
    );
    expect(q.query!.joins![0]).toEqual({ alias: 'N', condition: ['=', 1, 1], native: 'SELECT 1 AS one' });
  });

  it('refuses missing cards, cards of another database, and cycles', async () => {
    await expect(resolveSourceCards(mbql({ 'source-table': 'card__99' }), ctx)).rejects.toThrow(
      new PreprocessError('Card 99 does not exist.'),
    );
    await expect(resolveSourceCards(mbql({ 'source-table': 'card__4' }), ctx)).rejects.toThrow('Card 4 belongs to another database.');
    await expect(resolveSourceCards(mbql({ 'source-table': 'card__5' }), ctx)).rejects.toThrow(/refers to itself/);
  });

  it('validates each card as it is spliced in, naming the card', async () => {
    const refused = (query: InnerQuery) => resolveSourceCards(mbql(query), ctx);
    await expect(refused({ 'source-table': 'card__20' })).rejects.toThrow(
      new InvalidQueryError('must be a list.', 'card 20: query.aggregation'),
    );
    await expect(refused({ 'source-table': 'card__20' })).rejects.toThrow('Invalid query: card 20: query.aggregation: must be a list.');
    // the card that is wrong is named, however deep it is
    await expect(refused({ 'source-table': 'card__21' })).rejects.toThrow('Invalid query: card 20: query.aggregation: must be a list.');
    await expect(
      refused({ 'source-table': 10, joins: [{ alias: 'J', 'source-table': 'card__22', condition: ['=', 1, 1] }] }),
    ).rejects.toThrow('Invalid query: card 22: query.filter: wrong number of arguments to "between" (2; it takes 3).');
    await expect(refused({ 'source-table': 'card__23' })).rejects.toThrow(
      'Invalid query: card 23: native.query: a native query needs a non-blank `query` string.',
    );
  });

  it('leaves native queries and plain tables alone', async () => {
    const native: DatasetQuery = { database: 7, type: 'native', native: { query: 'SELECT 2' } };
    expect(await resolveSourceCards(native, ctx)).toBe(native);
    expect((await resolveSourceCards(mbql({ 'source-table': 10 }), ctx)).query).toEqual({ 'source-table': 10 });
  });
});

describe('expandSegmentsAndMetrics', () => {
  it('replaces segments by their filters, nested segments and boolean clauses included', async () => {
    const q = await expandSegmentsAndMetrics(mbql({ 'source-table': 10, filter: ['or', ['segment', 2], ['not', ['segment', 1]]] }), ctx);
    expect(q.query!.filter).toEqual([
      'or',
      ['and', ['=', ['field', 101, null], 'Gizmo'], ['not-null', ['field', 102, null]]],
      ['not', ['=', ['field', 101, null], 'Gizmo']],
    ]);
  });

  it('replaces metrics by their aggregation, named after the metric, with their filter folded in', async () => {
    const q = await expandSegmentsAndMetrics(
      mbql({
        'source-table': 10,
        aggregation: [
          ['metric', 1],
          ['metric', 2],
        ],
      }),
      ctx,
    );
    expect(q.query!.aggregation).toEqual([
      ['aggregation-options', ['sum', ['field', 103, null]], { name: 'Revenue', 'display-name': 'Revenue' }],
      ['aggregation-options', ['count-where', ['>', ['field', 103, null], 100]], { name: 'Big orders', 'display-name': 'Big orders' }],
    ]);
  });

  it('expands inside source queries, and refuses what it cannot express', async () => {
    const q = await expandSegmentsAndMetrics(mbql({ 'source-query': { 'source-table': 10, filter: ['segment', 1] } }), ctx);
    expect(q.query!['source-query']!.filter).toEqual(['=', ['field', 101, null], 'Gizmo']);
    await expect(expandSegmentsAndMetrics(mbql({ 'source-table': 10, filter: ['segment', 9] }), ctx)).rejects.toThrow(
      'Segment 9 does not exist.',
    );
    await expect(expandSegmentsAndMetrics(mbql({ 'source-table': 10, aggregation: [['metric', 9]] }), ctx)).rejects.toThrow(
      'Metric 9 does not exist.',
    );
    await expect(expandSegmentsAndMetrics(mbql({ 'source-table': 10, aggregation: [['metric', 6]] }), ctx)).rejects.toThrow(
      'Metric 6: a filtered "cum-count" aggregation is not supported.',
    );
  });

  it("counts any other filtered metric over its filter's rows only, its value NULL elsewhere", async () => {
    const q = await expandSegmentsAndMetrics(mbql({ 'source-table': 10, aggregation: [['metric', 3], ['metric', 7], ['count']] }), ctx);
    const gizmo = ['=', ['field', 101, null], 'Gizmo'];
    expect(q.query!.aggregation).toEqual([
      ['aggregation-options', ['avg', ['case', [[gizmo, ['field', 103, null]]]]], { name: 'Odd', 'display-name': 'Odd' }],
      ['aggregation-options', ['percentile', ['case', [[gizmo, ['field', 103, null]]]], 0.9], { name: 'Top', 'display-name': 'Top' }],
      ['count'],
    ]);
  });

  it('validates what it splices in, naming the segment or metric', async () => {
    const expand = (query: InnerQuery) => expandSegmentsAndMetrics(mbql(query), ctx);
    await expect(expand({ 'source-table': 10, filter: ['not', ['segment', 3]] })).rejects.toThrow(
      new InvalidQueryError('"is-null" needs a field.', 'segment 3: filter'),
    );
    await expect(expand({ 'source-table': 10, aggregation: [['metric', 4]] })).rejects.toThrow(
      'Invalid query: metric 4: aggregation[0]: wrong number of arguments to "sum" (0; it takes 1 or more).',
    );
    await expect(expand({ 'source-table': 10, aggregation: [['metric', 5]] })).rejects.toThrow(
      'Invalid query: metric 5: filter: unknown clause "nope".',
    );
  });
});

describe('bucketDatetimes', () => {
  it('buckets temporal breakouts without a unit by day, and leaves the rest alone', async () => {
    const q = await bucketDatetimes(
      mbql({
        'source-table': 10,
        breakout: [
          ['field', 104, null],
          ['field', 105, { 'temporal-unit': 'month' }],
          ['field', 100, null],
          ['field', 'X', { 'base-type': 'type/DateTime' }],
        ],
      }),
      ctx,
    );
    expect(q.query!.breakout).toEqual([
      ['field', 104, { 'temporal-unit': 'day' }],
      ['field', 105, { 'temporal-unit': 'month' }],
      ['field', 100, null],
      ['field', 'X', { 'base-type': 'type/DateTime', 'temporal-unit': 'day' }],
    ]);
  });
});

describe('addRowLimit', () => {
  it('caps the outermost query at the row limit, keeping a smaller limit or page', async () => {
    expect((await addRowLimit(mbql({ 'source-table': 10 }), ctx)).query!.limit).toBe(2000);
    expect((await addRowLimit(mbql({ 'source-table': 10, limit: 5 }), ctx)).query!.limit).toBe(5);
    expect((await addRowLimit(mbql({ 'source-table': 10, limit: 50_000 }), ctx)).query!.limit).toBe(2000);
    expect((await addRowLimit(mbql({ 'source-table': 10, page: { page: 3, items: 10 } }), ctx)).query).toEqual({
      'source-table': 10,
      page: { page: 3, items: 10 },
    });
  });
});
