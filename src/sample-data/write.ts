import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import type { ServerDetails } from '../query-engine/execute/drivers/details';
import { DEFAULT_ORDERS, DEFAULT_SEED, SampleData, type Row } from './generate';
import { ORDERS, SAMPLE_TABLES } from './schema';
import { MysqlSink } from './writers/mysql.sink';
import { PostgresSink } from './writers/postgres.sink';
import type { SampleCounts, SampleSink } from './writers/sink';
import { SqliteSink } from './writers/sqlite.sink';

export type SampleTarget = { engine: 'sqlite' | 'duckdb'; file: string } | { engine: 'postgres' | 'mysql'; details: ServerDetails };

export interface WriteOptions {
  orders?: number;
  seed?: number;
  /** Drop existing sample tables (servers) or overwrite the file. */
  replace?: boolean;
  batchSize?: number;
  onProgress?(table: string, written: number, total: number): void;
}

export type { SampleCounts };

/**
 * Creates the four tables with their keys and fills them. Orders are generated while they are written, a
 * batch at a time, so memory does not grow with --orders. Files are written under a temporary name and
 * renamed into place at the end: a crash never leaves a half-written database under the real name.
 */
export async function writeSampleDatabase(target: SampleTarget, opts: WriteOptions = {}): Promise<SampleCounts> {
  const orders = opts.orders ?? DEFAULT_ORDERS;
  if (!Number.isInteger(orders) || orders < 0) throw new Error('orders must be a whole number, 0 or more.');
  const data = new SampleData(opts.seed ?? DEFAULT_SEED);
  if ('details' in target) {
    const sink = target.engine === 'postgres' ? new PostgresSink(target.details) : new MysqlSink(target.details);
    return fill(sink, data, orders, opts);
  }
  if (fs.existsSync(target.file) && !opts.replace) throw new Error(`${target.file} already exists; pass --replace to overwrite it.`);
  const temp = `${target.file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const sink = target.engine === 'sqlite' ? new SqliteSink(temp) : new (await import('./writers/duckdb.sink')).DuckdbSink(temp);
    const counts = await fill(sink, data, orders, opts);
    fs.renameSync(temp, target.file);
    return counts;
  } finally {
    for (const leftover of [temp, `${temp}.wal`]) fs.rmSync(leftover, { force: true });
  }
}

async function fill(sink: SampleSink, data: SampleData, orders: number, opts: WriteOptions): Promise<SampleCounts> {
  const batchSize = opts.batchSize ?? 10_000;
  const fixed: Record<string, Row[]> = { PRODUCTS: data.products, PEOPLE: data.people, REVIEWS: data.reviews };
  try {
    await sink.begin(Boolean(opts.replace));
    for (const table of SAMPLE_TABLES) {
      const total = table === ORDERS ? orders : fixed[table.name].length;
      const batches = table === ORDERS ? data.orderBatches(orders, batchSize) : slices(fixed[table.name], batchSize);
      let written = 0;
      for (const rows of batches) {
        await sink.insert(table, rows);
        written += rows.length;
        opts.onProgress?.(table.name, written, total);
      }
      if (total === 0) opts.onProgress?.(table.name, 0, 0);
    }
    return await sink.finish();
  } catch (e) {
    await sink.abort();
    throw e;
  }
}

function* slices(rows: Row[], size: number): Generator<Row[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}
