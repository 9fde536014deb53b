import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createDriver, validateDetails, WarehouseDriver } from '../../src/query-engine/execute/drivers';
import { QueryProcessor } from '../../src/query-engine/execute/query-processor';
import type { CardSource, ContentResolver, MetadataProvider } from '../../src/query-engine/metadata';
import { writeSampleDatabase } from '../../src/sample-data';
import { f, fieldId, sampleSnapshot, TABLE_IDS } from './query-cases/metadata';

/**
 * The whole processor (stages, compile, execute, annotate) on a real SQLite Sample Database, with saved
 * questions, segments and metrics defined by the test, as the later content issues will store them.
 */
describe('QueryProcessor on SQLite', () => {
  let dir: string;
  let driver: WarehouseDriver;
  let processor: QueryProcessor;
  const count = async (sql: string) => Number((await driver.query(sql)).rows[0][0]);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'processor-'));
    const file = path.join(dir, 'sample.db');
    await writeSampleDatabase({ engine: 'sqlite', file }, { orders: 500, seed: 42 });
    driver = createDriver('sqlite', validateDetails('sqlite', { db: file }, { dataDir: dir }), {});
    const snapshot = sampleSnapshot('sqlite', await driver.describe());
    const metadata: MetadataProvider = {
      database: async (id) => (id === 1 ? { id: 1, engine: 'sqlite', timezone: null } : null),
      table: async (id) => {
        try {
          return snapshot.table(id);
        } catch {
          return null;
        }
      },
      tableFields: async (id) => snapshot.tableFields(id),
      field: async (id) => {
        try {
          return snapshot.field(id);
        } catch {
          return null;
        }
      },
    };
    const cards: Record<number, CardSource> = {
      1: {
        id: 1,
        databaseId: 1,
        query: {
          database: 1,
          type: 'query',
          query: { 'source-table': TABLE_IDS.PRODUCTS, filter: ['=', f('PRODUCTS', 'CATEGORY'), 'Gizmo'] },
        },
      },
      2: {
        id: 2,
        databaseId: 1,
        query: { database: 1, type: 'native', native: { query: "SELECT ID, TITLE FROM PRODUCTS WHERE CATEGORY = 'Widget'" } },
      },
    };
    const content: ContentResolver = {
      card: async (id) => cards[id] ?? null,
      segment: async (id) =>
        id === 1
          ? {
              id: 1,
              tableId: TABLE_IDS.ORDERS,
              definition: { 'source-table': TABLE_IDS.ORDERS, filter: ['>', f('ORDERS', 'QUANTITY'), 3] },
            }
          : null,
      metric: async (id) =>
        id === 1
          ? {
              id: 1,
              tableId: TABLE_IDS.ORDERS,
              name: 'Revenue',
              definition: { 'source-table': TABLE_IDS.ORDERS, aggregation: [['sum', f('ORDERS', 'TOTAL')]] },
            }
          : null,
      snippet: async (name) => (name === 'gizmos' ? { id: 1, name: 'gizmos', content: "CATEGORY = 'Gizmo'" } : null),
    };
    processor = new QueryProcessor({
      metadata,
      content,
      database: async (id) => (id === 1 ? { meta: { id: 1, engine: 'sqlite', timezone: null }, driver } : null),
    });
  });
  afterAll(async () => {
    await driver?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const run = async (query: unknown) => {
    const planned = (await processor.plan(query))!;
    return processor.run(planned, { context: 'ad-hoc', defaultMaxRows: 2000, timeoutMs: 30_000 });
  };

  it('runs a structured query on a saved question as its source', async () => {
    const res = await run({ database: 1, type: 'query', query: { 'source-table': 'card__1', aggregation: [['count']] } });
    expect(res.status).toBe('completed');
    expect(res.status === 'completed' && res.data.rows).toEqual([[await count("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'")]]);
  });

  it('runs on a native saved question by column name', async () => {
    const res = await run({ database: 1, type: 'query', query: { 'source-table': 'card__2', aggregation: [['count']] } });
    expect(res.status === 'completed' && res.data.rows).toEqual([[await count("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Widget'")]]);
  });

  it('expands segments and metrics', async () => {
    const res = await run({
      database: 1,
      type: 'query',
      query: { 'source-table': TABLE_IDS.ORDERS, aggregation: [['count'], ['metric', 1]], filter: ['segment', 1] },
    });
    expect(res.status).toBe('completed');
    if (res.status !== 'completed') return;
    const [[n, revenue]] = res.data.rows as number[][];
    expect(n).toBe(await count('SELECT COUNT(*) FROM ORDERS WHERE QUANTITY > 3'));
    expect(revenue).toBeCloseTo(Number((await driver.query('SELECT SUM(TOTAL) FROM ORDERS WHERE QUANTITY > 3')).rows[0][0]), 6);
    expect(res.data.cols[1]).toMatchObject({ name: 'Revenue', display_name: 'Revenue', source: 'aggregation' });
  });

  it('fills in snippets and field filters in native queries', async () => {
    const res = await run({
      database: 1,
      type: 'native',
      native: {
        query: 'SELECT COUNT(*) AS n FROM PRODUCTS WHERE {{snippet: gizmos}} AND {{price}}',
        'template-tags': {
          'snippet: gizmos': { name: 'snippet: gizmos', 'display-name': 'Gizmos', type: 'snippet', 'snippet-name': 'gizmos' },
          price: {
            name: 'price',
            'display-name': 'Price',
            type: 'dimension',
            dimension: f('PRODUCTS', 'PRICE'),
            'widget-type': 'number/>=',
          },
        },
      },
      parameters: [{ type: 'number/>=', target: ['dimension', ['template-tag', 'price']], value: [50] }],
    });
    expect(res.status === 'completed' && res.data.rows).toEqual([
      [await count("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Gizmo' AND PRICE >= 50")],
    ]);
  });

  it('answers the failed shape naming the stage problem for an unknown card', async () => {
    const res = await run({ database: 1, type: 'query', query: { 'source-table': 'card__99' } });
    expect(res).toMatchObject({ status: 'failed', error: 'Card 99 does not exist.', error_type: 'invalid-query' });
    expect(fieldId('PRODUCTS', 'ID')).toBeGreaterThan(0);
  });
});
