/**
 * Writes the Sample Database into a file or a server:
 *   node dist/src/cli/sample.js --engine duckdb --file sample.duckdb --orders 10000000
 *   node dist/src/cli/sample.js --engine postgres --url postgres://postgres@127.0.0.1:5432/sample
 *   node dist/src/cli/sample.js --engine mysql --url mysql://root@127.0.0.1:3306/test --seed 7 --replace
 */
import * as path from 'node:path';
import { validateDetails } from '../query-engine/execute/drivers/details';
import type { Engine } from '../query-engine/execute/drivers/driver';
import { DEFAULT_ORDERS, DEFAULT_SEED } from '../sample-data/generate';
import { writeSampleDatabase, type SampleTarget } from '../sample-data/write';

const USAGE = `Usage: sample --engine sqlite|duckdb --file PATH | --engine postgres|mysql --url URL
              [--orders N (default ${DEFAULT_ORDERS})] [--seed N (default ${DEFAULT_SEED})] [--replace]`;

interface Args {
  engine: Engine;
  target: SampleTarget;
  orders: number;
  seed: number;
  replace: boolean;
}

export function parseArgs(argv: string[]): Args {
  const flags = new Map<string, string>();
  let replace = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--replace') replace = true;
    else if (['--engine', '--file', '--url', '--orders', '--seed'].includes(arg) && argv[i + 1] !== undefined) flags.set(arg, argv[++i]);
    else throw new Error(`Unknown argument ${arg}\n${USAGE}`);
  }
  const engine = flags.get('--engine') as Engine | undefined;
  if (!engine || !['sqlite', 'duckdb', 'postgres', 'mysql'].includes(engine)) throw new Error(USAGE);
  const orders = wholeNumber(flags.get('--orders') ?? String(DEFAULT_ORDERS), '--orders');
  const seed = wholeNumber(flags.get('--seed') ?? String(DEFAULT_SEED), '--seed');
  if (engine === 'sqlite' || engine === 'duckdb') {
    const file = flags.get('--file');
    if (!file) throw new Error(`--file is required for ${engine}\n${USAGE}`);
    return { engine, target: { engine, file: path.resolve(file) }, orders, seed, replace };
  }
  const url = flags.get('--url');
  if (!url) throw new Error(`--url is required for ${engine}\n${USAGE}`);
  return { engine, target: { engine, details: serverDetails(engine, url) }, orders, seed, replace };
}

function serverDetails(engine: 'postgres' | 'mysql', raw: string) {
  const url = new URL(raw);
  if (url.protocol.replace(':', '') !== (engine === 'postgres' ? 'postgres' : 'mysql') && url.protocol !== 'postgresql:') {
    throw new Error(`--url must start with ${engine === 'postgres' ? 'postgres://' : 'mysql://'}`);
  }
  const ssl = ['true', 'require'].includes(url.searchParams.get('ssl') ?? url.searchParams.get('sslmode') ?? '');
  return validateDetails(
    engine,
    {
      host: url.hostname,
      port: url.port || undefined,
      dbname: decodeURIComponent(url.pathname.replace(/^\//, '')),
      user: decodeURIComponent(url.username) || (engine === 'mysql' ? 'root' : 'postgres'),
      password: url.password ? decodeURIComponent(url.password) : undefined,
      ssl,
    },
    { dataDir: process.cwd() },
  );
}

function wholeNumber(value: string, flag: string): number {
  const n = Number(value.replace(/[_,]/g, ''));
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${flag} must be a whole number, got ${value}`);
  return n;
}

const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const where =
    'file' in args.target ? args.target.file : `${args.target.details.host}:${args.target.details.port}/${args.target.details.dbname}`;
  console.log(`Writing the Sample Database (${grouped(args.orders)} orders, seed ${args.seed}) to ${args.engine} ${where}`);
  const started = Date.now();
  let lastReport = 0;
  const counts = await writeSampleDatabase(args.target, {
    orders: args.orders,
    seed: args.seed,
    replace: args.replace,
    onProgress: (table, written, total) => {
      const now = Date.now();
      if (written < total && now - lastReport < 2000) return;
      lastReport = now;
      const percent = total ? Math.floor((written * 100) / total) : 100;
      console.log(`  ${table}: ${grouped(written)} / ${grouped(total)} (${percent}%)  ${((now - started) / 1000).toFixed(1)}s`);
    },
  });
  console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)}s. Rows:`);
  for (const [table, n] of Object.entries(counts)) console.log(`  ${table.padEnd(8)} ${grouped(n)}`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  });
}
