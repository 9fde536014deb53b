import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createDriver, validateDetails, type Engine } from '../../src/query-engine/execute/drivers';
import { parseArgs } from '../../src/cli/sample';
import { DEFAULT_ORDERS, ORDERS_END, ORDERS_START, SampleData, type Row } from '../../src/sample-data/generate';
import { ensureSampleDatabase, writeSampleDatabase } from '../../src/sample-data';
import { quoteIdent } from '../../src/sample-data/schema';
import { STATE_TAX } from '../../src/sample-data/us-places';
import type { ServerDetails } from '../../src/query-engine/execute/drivers/details';
import { availableEngines, freshWarehouse, type TestWarehouse } from '../support/warehouses';

/** sha256 prefixes of the default tables (seed 42, 18,760 orders); a generator change must update them. */
const GOLDEN = { PRODUCTS: '3b25839e2d559c7a', PEOPLE: 'f649f49243ec2541', ORDERS: '8d966181e479ce91', REVIEWS: 'd12f7d310a95585c' };

const checksum = (rows: Iterable<Row[]>) => {
  const hash = createHash('sha256');
  for (const batch of rows) for (const row of batch) hash.update(JSON.stringify(row)).update('\n');
  return hash.digest('hex').slice(0, 16);
};

function checksums(seed?: number, orders = DEFAULT_ORDERS) {
  const data = new SampleData(seed);
  return {
    PRODUCTS: checksum([data.products]),
    PEOPLE: checksum([data.people]),
    ORDERS: checksum(data.orderBatches(orders, 5000)),
    REVIEWS: checksum([data.reviews]),
  };
}

function allOrders(data: SampleData, n = DEFAULT_ORDERS): Row[] {
  return [...data.orderBatches(n)].flat();
}

describe('Sample Database generator', () => {
  const data = new SampleData();
  const orders = allOrders(data);

  it('gives byte-identical tables for the same seed, on every machine', () => {
    const first = checksums();
    expect(checksums()).toEqual(first);
    // Pinned, so that a change of platform, Node version or generator shows up here.
    expect(first).toEqual(GOLDEN);
    expect(checksums(7)).not.toEqual(first);
  });

  it('keeps products, people and reviews independent of the order count', () => {
    const small = new SampleData();
    expect(checksum([small.people])).toBe(checksums().PEOPLE);
    expect(allOrders(small, 1234)).toHaveLength(1234);
    expect(allOrders(small, 1)).toHaveLength(1);
    expect(allOrders(small, 0)).toHaveLength(0);
  });

  it('has the documented row counts, categories and sources', () => {
    expect([data.products.length, data.people.length, orders.length, data.reviews.length]).toEqual([200, 2500, 18_760, 1100]);
    expect(new Set(data.products.map((p) => p[3]))).toEqual(new Set(['Doohickey', 'Gadget', 'Gizmo', 'Widget']));
    expect(new Set(data.people.map((p) => p[8]))).toEqual(new Set(['Affiliate', 'Facebook', 'Google', 'Organic', 'Twitter']));
    expect(new Set(data.people.map((p) => p[7])).size).toBeGreaterThan(40);
    for (const table of [data.products, data.people, orders, data.reviews])
      expect(table.map((r) => r[0])).toEqual(table.map((_, i) => i + 1));
  });

  it('keeps every key valid and every order after its customer and product existed', () => {
    const personCreated = new Map(data.people.map((p) => [p[0], p[12] as number]));
    const productCreated = new Map(data.products.map((p) => [p[0], p[7] as number]));
    const badOrders = orders.filter(
      (o) => !(personCreated.get(o[1])! <= (o[7] as number) && productCreated.get(o[2])! <= (o[7] as number)),
    );
    expect(badOrders).toEqual([]);
    const badReviews = data.reviews.filter((r) => !(productCreated.get(r[1])! < (r[5] as number)));
    expect(badReviews).toEqual([]);
  });

  it('prices orders consistently: tax by state, about one in ten discounted, total = subtotal + tax - discount', () => {
    const stateOf = new Map(data.people.map((p) => [p[0], p[7] as string]));
    const round2 = (x: number) => Math.round(x * 100) / 100;
    const wrong = (orders as number[][]).filter(
      ([, user, , subtotal, tax, total, discount]) =>
        tax !== round2(subtotal * STATE_TAX[stateOf.get(user)!]) || total !== round2(subtotal + tax - (discount ?? 0)),
    );
    expect(wrong).toEqual([]);
    const discounted = orders.filter((o) => o[6] !== null).length / orders.length;
    expect(discounted).toBeGreaterThan(0.08);
    expect(discounted).toBeLessThan(0.12);
  });

  it('spreads orders over four years with growth and a holiday season', () => {
    const times = orders.map((o) => o[7] as number);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(ORDERS_START);
    expect(Math.max(...times)).toBeLessThan(ORDERS_END);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const year = (t: number) => new Date(t * 1000).getUTCFullYear();
    const month = (t: number) => new Date(t * 1000).getUTCMonth();
    const firstYear = times.filter((t) => t < ORDERS_START + 365 * 86400).length;
    const lastYear = times.filter((t) => t >= ORDERS_END - 365 * 86400).length;
    expect(lastYear / firstYear).toBeGreaterThan(1.8);
    const in2024 = times.filter((t) => year(t) === 2024);
    expect(in2024.filter((t) => month(t) === 11).length).toBeGreaterThan(1.4 * in2024.filter((t) => month(t) === 1).length);
  });
});

const engines = availableEngines();

describe('Sample Database writers', () => {
  const whs: TestWarehouse[] = [];
  const aggregates: Partial<Record<Engine, unknown>> = {};

  afterAll(async () => {
    await Promise.all(whs.map((wh) => wh.drop()));
  });

  it.each(engines)('writes 1,000 orders into %s with keys, and reads back the same aggregates', async (engine) => {
    const wh = await freshWarehouse(engine);
    whs.push(wh);
    const file = path.join(wh.dataDir, engine === 'sqlite' ? 'sample.db' : 'sample.duckdb');
    const target = engine === 'sqlite' || engine === 'duckdb' ? { engine, file } : { engine, details: wh.details as ServerDetails };
    const counts = await writeSampleDatabase(target, { orders: 1000 });
    expect(counts).toEqual({ PRODUCTS: 200, PEOPLE: 2500, ORDERS: 1000, REVIEWS: 1100 });

    const details =
      engine === 'sqlite' || engine === 'duckdb' ? validateDetails(engine, { db: file }, { dataDir: wh.dataDir }) : wh.details;
    const driver = createDriver(engine, details);
    try {
      const { foreignKeys } = await driver.describe();
      expect(foreignKeys.map((f) => `${f.table}.${f.column}->${f.targetTable}.${f.targetColumn}`)).toEqual([
        'ORDERS.PRODUCT_ID->PRODUCTS.ID',
        'ORDERS.USER_ID->PEOPLE.ID',
        'REVIEWS.PRODUCT_ID->PRODUCTS.ID',
      ]);
      const q = (name: string) => quoteIdent(engine, name);
      const one = async (sql: string, params: number[] = []) => (await driver.query(sql, params, { readOnly: true })).rows;
      aggregates[engine] = {
        orders: await one(
          `SELECT COUNT(*), CAST(SUM(${q('TOTAL')}) AS DECIMAL(20,2)), COUNT(${q('DISCOUNT')}), SUM(${q('QUANTITY')}) FROM ${q('ORDERS')}`,
        ),
        first: await one(`SELECT ${q('CREATED_AT')} FROM ${q('ORDERS')} ORDER BY ${q('ID')} LIMIT 1`),
        birth: await one(`SELECT ${q('BIRTH_DATE')}, ${q('EMAIL')} FROM ${q('PEOPLE')} WHERE ${q('ID')} = ?`, [17]),
        categories: await one(
          `SELECT ${q('CATEGORY')}, COUNT(*) FROM ${q('PRODUCTS')} GROUP BY ${q('CATEGORY')} ORDER BY ${q('CATEGORY')}`,
        ),
        orphans: await one(
          `SELECT COUNT(*) FROM ${q('ORDERS')} o LEFT JOIN ${q('PEOPLE')} p ON p.${q('ID')} = o.${q('USER_ID')} WHERE p.${q('ID')} IS NULL`,
        ),
      };
    } finally {
      await driver.close();
    }
  });

  it('gives the same aggregates on every engine, matching the generator', () => {
    const data = new SampleData();
    const orders = allOrders(data, 1000);
    const sum = orders.reduce((s, o) => s + (o[5] as number), 0);
    const person = data.people[16];
    const expected = {
      orders: [
        [1000, Math.round(sum * 100) / 100, orders.filter((o) => o[6] !== null).length, orders.reduce((s, o) => s + (o[8] as number), 0)],
      ],
      first: [[new Date((orders[0][7] as number) * 1000).toISOString().slice(0, 19)]],
      birth: [[new Date((person[9] as number) * 86_400_000).toISOString().slice(0, 10), person[2]]],
      categories: [
        ['Doohickey', 50],
        ['Gadget', 50],
        ['Gizmo', 50],
        ['Widget', 50],
      ],
      orphans: [[0]],
    };
    for (const engine of engines) expect({ engine, ...(aggregates[engine] as object) }).toEqual({ engine, ...expected });
  });
});

describe('ensureSampleDatabase', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wh-ensure-')));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('creates the file once, even when several callers race, and leaves no temp files', async () => {
    const paths = await Promise.all([ensureSampleDatabase(dataDir), ensureSampleDatabase(dataDir)]);
    expect(new Set(paths)).toEqual(new Set([path.join(dataDir, 'sample-database.db')]));
    const inode = fs.statSync(paths[0]).ino;
    expect(await ensureSampleDatabase(dataDir)).toBe(paths[0]);
    expect(fs.statSync(paths[0]).ino).toBe(inode);
    expect(fs.readdirSync(dataDir)).toEqual(['sample-database.db']);
    const driver = createDriver('sqlite', validateDetails('sqlite', { db: paths[0] }, { dataDir }));
    expect((await driver.query('SELECT COUNT(*) FROM ORDERS')).rows).toEqual([[DEFAULT_ORDERS]]);
    await driver.close();
  });

  it('replaces a file that is not a current sample database', async () => {
    const file = path.join(dataDir, 'sample-database.db');
    fs.writeFileSync(file, 'half-written');
    expect(await ensureSampleDatabase(dataDir)).toBe(file);
    expect(fs.statSync(file).size).toBeGreaterThan(1_000_000);
  });
});

describe('sample CLI arguments', () => {
  it('reads engine, target, orders and seed', () => {
    expect(parseArgs(['--engine', 'duckdb', '--file', 'x.duckdb', '--orders', '10_000_000', '--seed', '7'])).toMatchObject({
      engine: 'duckdb',
      target: { engine: 'duckdb', file: path.resolve('x.duckdb') },
      orders: 10_000_000,
      seed: 7,
      replace: false,
    });
    expect(parseArgs(['--engine', 'mysql', '--url', 'mysql://root@127.0.0.1:3306/test', '--replace'])).toMatchObject({
      target: { engine: 'mysql', details: { host: '127.0.0.1', port: 3306, dbname: 'test', user: 'root', password: null, ssl: false } },
      replace: true,
    });
    expect(parseArgs(['--engine', 'postgres', '--url', 'postgres://a:p%40ss@db:6543/shop?sslmode=require']).target).toEqual({
      engine: 'postgres',
      details: { host: 'db', port: 6543, dbname: 'shop', user: 'a', password: 'p@ss', ssl: true },
    });
  });

  it('refuses what it does not understand', () => {
    expect(() => parseArgs(['--engine', 'oracle'])).toThrow(/Usage/);
    expect(() => parseArgs(['--engine', 'sqlite'])).toThrow(/--file is required/);
    expect(() => parseArgs(['--engine', 'sqlite', '--file', 'x', '--orders', '-5'])).toThrow(/whole number/);
    expect(() => parseArgs(['--engine', 'sqlite', '--file', 'x', '--verbose'])).toThrow(/Unknown argument/);
  });
});
