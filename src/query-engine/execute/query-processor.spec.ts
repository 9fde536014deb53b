import type { CardSource, ContentResolver, FieldMeta, MetadataProvider, TableMeta } from '../metadata';
import { PIPELINE } from '../preprocess';
import { PreprocessError } from '../preprocess/context';
import { failedStage } from './failures';
import { QueryProcessor } from './query-processor';

const table: TableMeta = { id: 10, dbId: 1, schema: null, name: 'ORDERS', displayName: 'Orders' };
const field: FieldMeta = {
  id: 100,
  tableId: 10,
  name: 'TOTAL',
  displayName: 'Total',
  baseType: 'type/Float',
  effectiveType: 'type/Float',
  semanticType: null,
  fkTargetFieldId: null,
  visibilityType: 'normal',
  coercionStrategy: null,
  fingerprint: null,
  position: 0,
};
const created: FieldMeta = {
  ...field,
  id: 101,
  name: 'CREATED_AT',
  displayName: 'Created At',
  baseType: 'type/DateTime',
  effectiveType: 'type/DateTime',
  position: 1,
};
const metadata: MetadataProvider = {
  database: async () => ({ id: 1, engine: 'sqlite', timezone: null }),
  table: async (id) => (id === 10 ? table : null),
  field: async (id) => [field, created].find((f) => f.id === id) ?? null,
  tableFields: async (id) => (id === 10 ? [field, created] : []),
};
const cards: Record<number, CardSource> = {
  5: {
    id: 5,
    databaseId: 1,
    query: {
      database: 1,
      type: 'query',
      query: { 'source-table': 10, fields: [['field', 100, null]], filter: ['time-interval', ['field', 101, null], -1, 'day'] },
    },
  },
  6: {
    id: 6,
    databaseId: 1,
    query: { database: 1, type: 'query', query: { 'source-table': 10, filter: ['<', ['field', 101, null], 'x'] } },
  },
};
const content: ContentResolver = {
  card: async (id) => cards[id] ?? null,
  segment: async () => null,
  metric: async () => null,
  snippet: async () => null,
};

function processor() {
  const lines: Array<{ msg: string; fields: Record<string, unknown> }> = [];
  const p = new QueryProcessor({
    metadata,
    content,
    database: async (id) => (id === 1 ? { meta: { id: 1, engine: 'sqlite', timezone: null }, driver: null as never } : null),
    log: (msg, fields) => lines.push({ msg, fields }),
  });
  return { p, lines };
}

describe('the query pipeline', () => {
  it('is one ordered list of stages', () => {
    expect(PIPELINE.map((s) => `${s.phase}:${s.name}`)).toEqual([
      'plan:normalize',
      'plan:validate',
      'preprocess:substitute-persisted-models',
      'preprocess:resolve-source-cards',
      'preprocess:expand-segments-and-metrics',
      'preprocess:substitute-parameters',
      'preprocess:resolve-fields',
      'preprocess:add-implicit-joins',
      'preprocess:apply-row-policies',
      'preprocess:bucket-datetimes',
      'preprocess:add-row-limit',
    ]);
  });

  it('times every stage in a debug line naming the query', async () => {
    const { p, lines } = processor();
    const planned = (await p.plan({
      database: 1,
      type: 'query',
      query: { 'source-table': 10, aggregation: [['sum', ['field', 100, null]]] },
    }))!;
    const native = await p.toNative(planned, { pretty: false });
    expect(native.query).toBe('SELECT SUM("ORDERS"."TOTAL") AS "sum" FROM "ORDERS" LIMIT 9007199254740991');
    expect(lines.map((l) => l.fields.stage)).toEqual([...PIPELINE.map((s) => s.name), 'compile']);
    expect(new Set(lines.map((l) => l.fields.query_id))).toEqual(new Set([planned.id]));
    expect(lines.every((l) => typeof l.fields.ms === 'number' && l.msg.startsWith(`Query ${planned.id}: `))).toBe(true);
  });

  it('says which stage an error came from, its message unchanged', async () => {
    const { p, lines } = processor();
    const planned = (await p.plan({ database: 1, type: 'query', query: { 'source-table': 10, filter: ['segment', 9] } }))!;
    const error = await p.toNative(planned, { pretty: false }).catch((e: unknown) => e);
    expect(error).toEqual(new PreprocessError('Segment 9 does not exist.'));
    expect(failedStage(error)).toBe('expand-segments-and-metrics');
    expect(lines.at(-1)).toMatchObject({
      msg: `Query ${planned.id}: expand-segments-and-metrics failed`,
      fields: { stage: 'expand-segments-and-metrics', error: 'PreprocessError' },
    });
  });

  it("compiles an MBQL card of a {{#card}} tag through the same stages, at the run's time", async () => {
    const { p, lines } = processor();
    const planned = (await p.plan({
      database: 1,
      type: 'native',
      native: { query: 'SELECT COUNT(*) FROM {{#5}} c', 'template-tags': { '#5': { name: '#5', type: 'card', 'card-id': 5 } } },
    }))!;
    const native = await p.toNative(planned, { pretty: false, now: new Date('2025-06-15T12:00:00Z') });
    expect(native).toEqual({
      query:
        'SELECT COUNT(*) FROM (SELECT "ORDERS"."TOTAL" AS "TOTAL" FROM "ORDERS"' +
        ' WHERE ("ORDERS"."CREATED_AT" >= datetime(?) AND "ORDERS"."CREATED_AT" < datetime(?))) c',
      params: ['2025-06-14 00:00:00', '2025-06-15 00:00:00'],
    });
    expect(lines.filter((l) => l.fields.stage === 'resolve-source-cards')).toHaveLength(2);
  });

  it('names the places of an MBQL 5 query as it was sent in errors of every stage after the conversion', async () => {
    const { p } = processor();
    const o = () => ({ 'lib/uuid': 'b5e7a1d2-0000-4000-8000-000000000001' });
    const total = ['field', { ...o(), 'base-type': 'type/Float' }, 100];
    const at = ['field', { ...o(), 'base-type': 'type/DateTime' }, 101];
    const mbql5 = (stages: unknown[]) => ({ 'lib/type': 'mbql/query', database: 1, stages });
    const error = async (q: unknown) => {
      const planned = (await p.plan(q))!;
      return p.toNative(planned, { pretty: false }).then(
        () => null,
        (e: Error) => e.message,
      );
    };
    expect(await error(mbql5([{ 'source-table': 10, filters: [['>', o(), at, 'x']] }]))).toBe(
      'Invalid date "x" in "stages[0].filters[0]".',
    );
    expect(
      await error(
        mbql5([
          {
            'source-table': 10,
            filters: [
              ['>', o(), total, 1],
              ['<', o(), at, 'x'],
            ],
          },
        ]),
      ),
    ).toBe('Invalid date "x" in "stages[0].filters[1]".');
    expect(
      await error(
        mbql5([
          { 'source-table': 10, aggregation: [['count', o()]], breakout: [total] },
          { filters: [['=', o(), ['field', { ...o(), 'base-type': 'type/Integer' }, 'nope'], 1]] },
        ]),
      ),
    ).toBe('Unknown column "nope" of the source query in "stages[1].filters[0]".');
    expect(
      await error(
        mbql5([{ 'source-table': 10, expressions: [['datetime-add', { ...o(), 'lib/expression-name': 'later' }, at, 1.5, 'day']] }]),
      ),
    ).toBe('datetime-add needs a whole number of units in "stages[0].expressions[0]".');
    // A saved question used as a source keeps its own places, named by the card.
    expect(
      await error(mbql5([{ 'source-card': 6, filters: [['>', o(), ['field', { ...o(), 'base-type': 'type/Float' }, 'TOTAL'], 1]] }])),
    ).toBe('Invalid date "x" in "card 6: query.filter".');
    // Ids that do not exist are placed where the query first names them; a missing saved question at its source-card.
    expect(
      await error(
        mbql5([
          { 'source-table': 10, aggregation: [['count', o()]], breakout: [total, ['field', { ...o(), 'base-type': 'type/Integer' }, 999]] },
        ]),
      ),
    ).toBe('Field 999 does not exist in "stages[0].breakout[1]".');
    expect(await error(mbql5([{ 'source-table': 11 }]))).toBe('Table 11 does not exist in database 1 in "stages[0].source-table".');
    expect(await error(mbql5([{ 'source-card': 77 }, { limit: 1 }]))).toBe('Card 77 does not exist in "stages[0].source-card".');
    expect(
      await error(
        mbql5([
          {
            'source-table': 10,
            filters: [
              ['>', o(), total, 1],
              ['segment', o(), 9],
            ],
          },
        ]),
      ),
    ).toBe('Segment 9 does not exist in "stages[0].filters[1]".');
    // The same query in legacy MBQL keeps its legacy places.
    expect(
      await error({
        database: 1,
        type: 'query',
        query: { 'source-table': 10, filter: ['and', ['>', ['field', 100, null], 1], ['<', ['field', 101, null], 'x']] },
      }),
    ).toBe('Invalid date "x" in "filter".');
    expect(await error({ database: 1, type: 'query', query: { 'source-table': 10, breakout: [['field', 999, null]] } })).toBe(
      'Field 999 does not exist.',
    );
    expect(await error({ database: 1, type: 'query', query: { 'source-table': 'card__77' } })).toBe('Card 77 does not exist.');
  });

  it('names the stage of a query it cannot plan', async () => {
    const { p } = processor();
    const error = await p.plan({ database: 1, type: 'query', query: {} }).catch((e: unknown) => e);
    expect(failedStage(error)).toBe('validate');
  });
});
