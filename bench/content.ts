/**
 * The content suite of `npm run bench`: listings, one card, one collection's items and search at the size of a large
 * instance (40,000 cards in 30,000 collections nested 6 deep, 50 groups with grants) on the SQLite and the Postgres
 * app database, for an admin and for a user whose groups hold grants on part of the tree.
 *
 * The content is written straight into a fresh app database (`bench_app_content` on Postgres, the server's own file on
 * SQLite) after the server has migrated it:
 * going through the API would take most of an hour and measure nothing this suite is about.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { searchWords } from '../src/modules/search/search-terms';
import { ADMIN, agent, api, log, login, percentile, ROOT, rssMb, startServer, stopServer } from './http';
import { settle } from './rss-series';

const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const APP_DB = 'bench_app_content';
const CARDS = Number(process.env.BENCH_CARDS ?? 40_000);
const COLLECTIONS = Number(process.env.BENCH_COLLECTIONS ?? 30_000);
const GROUPS = 50;
/** Collections per level, top first: 6 levels adding up to COLLECTIONS. */
const LEVEL_SHARE = [10, 60, 300, 1500, 6000];

interface Seeded {
  cardIds: number[];
  collectionIds: number[];
  /** What the non-admin user may read. */
  readableCards: number[];
  readableCollections: number[];
  /** Top-level collections (each holds 3,000 collections below it). */
  tops: number[];
  readableTops: number[];
  words: string[];
}

interface Timing {
  endpoint: string;
  who: 'admin' | 'non-admin';
  runs: number;
  p50: number;
  p95: number;
  targetMs: number;
  items: number;
}

/** The app databases measured: Postgres (production) and SQLite (what `npm start` runs without configuration). */
const APP_DBS = (process.env.BENCH_CONTENT_DBS ?? 'sqlite,postgres').split(',') as AppDbKind[];

export async function contentBench(): Promise<string> {
  const sections: string[] = [];
  try {
    for (const kind of APP_DBS) sections.push(await onAppDb(kind));
  } finally {
    agent.destroy();
  }
  return report(sections);
}

async function onAppDb(kind: AppDbKind): Promise<string> {
  const appUrl = kind === 'postgres' ? await freshAppDb() : null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-content-'));
  // The soak suite's probe reports the server's full collections: the RSS is read once one has run after the listings.
  const probeFile = path.join(dataDir, 'probe.jsonl');
  const server = await startServer(dataDir, {
    ...(appUrl ? { DATABASE_URL: appUrl.toString() } : {}),
    LOAD_SAMPLE_DATABASE: 'true',
    NODE_OPTIONS: `--require ${path.join(ROOT, 'dist', 'bench', 'soak-probe.js')}`,
    SOAK_PROBE_FILE: probeFile,
    SOAK_PROBE_MS: '1000',
  });
  try {
    const admin = await login(server.url, ADMIN);
    const sample = await sampleDatabase(server.url, admin);
    const userEmail = 'reader@example.com';
    const created = await api(server.url, admin, 'POST', '/api/user', {
      email: userEmail,
      password: ADMIN.password,
      first_name: 'Rea',
      last_name: 'Der',
    });
    if (created.status !== 200) throw new Error(`could not create the reader: ${JSON.stringify(created.json)}`);
    const readerId = (created.json as { id: number }).id;
    const idleMb = rssMb(server.proc.pid!);
    const db = appUrl ? await pgTarget(appUrl) : sqliteTarget(path.join(dataDir, 'app.db'));
    let seeded: Seeded;
    try {
      const t0 = Date.now();
      seeded = await seed(db, sample, readerId);
      log(
        `${kind}: seeded ${CARDS.toLocaleString('en-US')} cards in ${COLLECTIONS.toLocaleString('en-US')} collections` +
          ` in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
      );
    } finally {
      await db.close();
    }
    const reader = await login(server.url, { email: userEmail, password: ADMIN.password });
    const timings: Timing[] = [];
    for (const [who, session] of [
      ['admin', admin],
      ['non-admin', reader],
    ] as const) {
      const cards = who === 'admin' ? seeded.cardIds : seeded.readableCards;
      const colls = who === 'admin' ? seeded.collectionIds : seeded.readableCollections;
      timings.push(await time(server.url, session, who, 'GET /api/card/?f=all', 1000, 20, () => '/api/card/?f=all'));
      timings.push(await time(server.url, session, who, 'GET /api/collection/', 1000, 20, () => '/api/collection/'));
      timings.push(await time(server.url, session, who, 'GET /api/collection/tree', 1000, 20, () => '/api/collection/tree'));
      timings.push(
        await time(server.url, session, who, 'GET /api/card/:id', 50, 200, (i) => `/api/card/${cards[(i * 7919) % cards.length]}`),
      );
      timings.push(
        await time(
          server.url,
          session,
          who,
          'GET /api/collection/:id/items (a page of 50)',
          50,
          200,
          (i) => `/api/collection/${colls[(i * 104729) % colls.length]}/items?limit=50&offset=0`,
        ),
      );
      const tops = who === 'admin' ? seeded.tops : seeded.readableTops;
      timings.push(
        await time(
          server.url,
          session,
          who,
          'GET /api/collection/:id/items of a top-level collection (a page of 50)',
          50,
          50,
          (i) => `/api/collection/${tops[i % tops.length]}/items?limit=50&offset=0`,
        ),
      );
      timings.push(
        await time(
          server.url,
          session,
          who,
          'GET /api/search?q=<word> (a page of 50)',
          50,
          200,
          (i) => `/api/search?q=${seeded.words[(i * 31) % seeded.words.length]}&limit=50&offset=0`,
        ),
      );
    }
    const afterMb = rssMb(server.proc.pid!);
    const settleSeconds = await settle(server.proc.pid!, probeFile, null);
    return table(kind, timings, { idleMb, afterMb, settledMb: rssMb(server.proc.pid!), settleSeconds });
  } finally {
    await stopServer(server.proc);
    // BENCH_CONTENT_KEEP=1 keeps the seeded data directory, to profile a server started on it by hand.
    if (process.env.BENCH_CONTENT_KEEP) log(`${kind}: kept ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function freshAppDb(): Promise<URL> {
  const admin = new Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${APP_DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${APP_DB}`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${APP_DB}`;
  return url;
}

async function sampleDatabase(url: string, session: string): Promise<{ db: number; table: number }> {
  for (let tries = 0; ; tries++) {
    const dbs = (await api(url, session, 'GET', '/api/database')).json as {
      data: Array<{ id: number; name: string; initial_sync_status: string }>;
    };
    const sample = dbs.data.find((d) => d.name === 'Sample Database' && d.initial_sync_status === 'complete');
    if (sample) {
      const meta = (await api(url, session, 'GET', `/api/database/${sample.id}/metadata`)).json as {
        tables: Array<{ id: number; name: string }>;
      };
      return { db: sample.id, table: meta.tables.find((t) => t.name === 'ORDERS')!.id };
    }
    if (tries > 600) throw new Error('the Sample Database did not sync');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** mulberry32 with a fixed seed: every run builds the same content. */
function random(seed = 7): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'pa', 'de', 'gro', 'fen', 'bal', 'tor', 'qui', 'zan'];

type AppDbKind = 'sqlite' | 'postgres';
type Row = Array<number | string | boolean | null>;

/** Bulk writes into the app database, as fast as each engine takes them. */
interface SeedTarget {
  one(text: string, params: Row): Promise<Record<string, unknown>>;
  /** Inserts rows of the given columns (ids chosen by the caller). */
  insert(table: string, columns: string[], rows: Row[]): Promise<void>;
  /** After ids were chosen here: the next id the app DB gives is past them. */
  idsUsed(table: string, last: number): Promise<void>;
  close(): Promise<void>;
}

const PG_TYPES: Record<string, string> = { number: 'int', string: 'text', object: 'text', boolean: 'boolean' };

async function pgTarget(url: URL): Promise<SeedTarget> {
  const db = new Client({ connectionString: url.toString() });
  await db.connect();
  await db.query('BEGIN');
  return {
    one: async (text, params) => (await db.query(text, params)).rows[0],
    async insert(table, columns, rows) {
      for (let i = 0; i < rows.length; i += 20_000) {
        const part = rows.slice(i, i + 20_000);
        // One array per column, unnested: a statement per 20,000 rows.
        const types = columns.map((_, c) => PG_TYPES[typeof part.find((r) => r[c] !== null)?.[c]] ?? 'text');
        await db.query(
          `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${types.map((t, c) => `$${c + 1}::${t}[]`).join(', ')})` +
            ' ON CONFLICT DO NOTHING',
          columns.map((_, c) => part.map((r) => r[c])),
        );
      }
    },
    async idsUsed(table, last) {
      await db.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), $1)`, [last]);
    },
    async close() {
      await db.query('COMMIT');
      // What autovacuum does on its own to tables written this much (inserts count since Postgres 13): statistics, and
      // the visibility map without which an index-only scan reads every row anyway. Measured right after a bulk load,
      // a listing would read thousands of table pages that a settled instance does not.
      await db.query('VACUUM ANALYZE');
      await db.end();
    },
  };
}

/** The server's SQLite file, written beside it (WAL): its connection sees the rows once they are committed. */
function sqliteTarget(file: string): SeedTarget {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  db.exec('BEGIN IMMEDIATE');
  return {
    one: async (text, params) => db.prepare(text.replace(/\$\d+/g, '?')).get(...params) as Record<string, unknown>,
    async insert(table, columns, rows) {
      const stmt = db.prepare(`INSERT OR IGNORE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      for (const r of rows) stmt.run(...r.map((v) => (typeof v === 'boolean' ? Number(v) : v)));
    },
    async idsUsed() {
      // SQLite's next rowid follows the largest id present.
    },
    async close() {
      db.exec('COMMIT');
      db.exec('ANALYZE');
      db.close();
    },
  };
}

async function seed(db: SeedTarget, sample: { db: number; table: number }, readerId: number): Promise<Seeded> {
  const rnd = random();
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const words = Array.from({ length: 300 }, (_, i) => `${SYLLABLES[i % 16]}${SYLLABLES[Math.floor(i / 16) % 16]}${i >= 256 ? 'x' : ''}`);
  const name = (n: number) => `${pick(words)} ${pick(words)} ${pick(words)} ${n}`;
  const nextIdOf = async (table: string) => Number((await db.one(`SELECT COALESCE(MAX(id), 0) + 1 AS id FROM ${table}`, [])).id);

  const firstGroup = await nextIdOf('permissions_group');
  const groupIds = Array.from({ length: GROUPS }, (_, g) => firstGroup + g);
  await db.insert(
    'permissions_group',
    ['id', 'name'],
    groupIds.map((id, g) => [id, `Bench group ${g + 1}`]),
  );
  await db.idsUsed('permissions_group', firstGroup + GROUPS - 1);
  // The reader is in three of them.
  const readerGroups = groupIds.slice(0, 3);
  await db.insert(
    'permissions_group_membership',
    ['user_id', 'group_id'],
    readerGroups.map((g) => [readerId, g]),
  );

  // Collections, level by level, with ids chosen here so that locations are known before inserting.
  const firstId = await nextIdOf('collection');
  const sizes = [...LEVEL_SHARE, COLLECTIONS - LEVEL_SHARE.reduce((a, b) => a + b, 0)];
  const all: Array<{ id: number; name: string; location: string; top: number }> = [];
  let prev: typeof all = [];
  let nextId = firstId;
  for (const size of sizes) {
    const level: typeof all = [];
    for (let i = 0; i < size; i++) {
      const parent = prev.length ? prev[i % prev.length] : null;
      const id = nextId++;
      level.push({ id, name: name(id), location: parent ? `${parent.location}${parent.id}/` : '/', top: parent ? parent.top : id });
    }
    all.push(...level);
    prev = level;
  }
  await db.insert(
    'collection',
    ['id', 'name', 'location', 'slug'],
    all.map((c) => [c.id, c.name, c.location, c.name.replace(/\W+/g, '_').toLowerCase()]),
  );
  await db.idsUsed('collection', nextId - 1);

  // Grants: each group reads or curates two of the ten top-level trees, inherited all the way down.
  const tops = all.filter((c) => c.location === '/').map((c) => c.id);
  const grants: Row[] = [];
  const readerTops = new Set<number>();
  groupIds.forEach((g, gi) => {
    for (const top of [tops[gi % tops.length], tops[(gi * 3 + 1) % tops.length]]) {
      const perm = gi % 2 ? 'read' : 'write';
      if (readerGroups.includes(g)) readerTops.add(top);
      for (const c of all) if (c.top === top) grants.push([g, c.id, perm]);
    }
  });
  await db.insert('collection_permission', ['group_id', 'collection_id', 'perm'], grants);

  // Cards: spread over the collections (one in fifty at the Root), each with the revision of its creation.
  const adminId = Number((await db.one('SELECT id FROM core_user WHERE email = $1', [ADMIN.email])).id);
  const query = JSON.stringify({ database: sample.db, type: 'query', query: { 'source-table': sample.table } });
  const metadata = JSON.stringify([
    { name: 'ID', display_name: 'ID', base_type: 'type/BigInteger', semantic_type: 'type/PK' },
    { name: 'TOTAL', display_name: 'Total', base_type: 'type/Float', semantic_type: null },
    { name: 'CREATED_AT', display_name: 'Created At', base_type: 'type/DateTime', semantic_type: 'type/CreationTimestamp' },
  ]);
  const firstCard = await nextIdOf('report_card');
  const cards = Array.from({ length: CARDS }, (_, i) => {
    const home = i % 50 === 0 ? null : all[(i * 7) % all.length];
    const type = i % 50 === 1 ? 'metric' : i % 12 === 2 ? 'model' : 'question';
    return { id: firstCard + i, name: name(firstCard + i), collection: home?.id ?? null, top: home?.top ?? null, type };
  });
  await db.insert(
    'report_card',
    [
      'id',
      'name',
      'display',
      'dataset_query',
      'visualization_settings',
      'result_metadata',
      'parameters',
      'parameter_mappings',
      'type',
      'query_type',
      'database_id',
      'table_id',
      'collection_id',
      'creator_id',
    ],
    cards.map((c) => [
      c.id,
      c.name,
      'table',
      query,
      '{}',
      metadata,
      '[]',
      '[]',
      c.type,
      'query',
      sample.db,
      sample.table,
      c.collection,
      adminId,
    ]),
  );
  await db.idsUsed('report_card', firstCard + CARDS - 1);
  const snapshot = JSON.stringify({ name: 'snapshot', display: 'table', dataset_query: JSON.parse(query) });
  await db.insert(
    'revision',
    ['model', 'model_id', 'user_id', 'object', 'is_creation', 'most_recent'],
    cards.map((c) => ['card', c.id, adminId, snapshot, true, true]),
  );
  await db.insert(
    'card_reference',
    ['card_id', 'kind', 'ref_id'],
    cards.map((c) => [c.id, 'table', sample.table]),
  );

  // The word index, as the modules write it when they save.
  const terms: Row[] = [];
  for (const c of all) for (const w of searchWords(c.name)) terms.push(['collection', c.id, w, true]);
  for (const c of cards) for (const w of searchWords(c.name)) terms.push(['card', c.id, w, true]);
  await db.insert('search_term', ['model', 'model_id', 'term', 'in_name'], terms);
  const readableCollections = all.filter((c) => readerTops.has(c.top)).map((c) => c.id);
  const readableCards = cards.filter((c) => c.top === null || readerTops.has(c.top)).map((c) => c.id);
  log(
    `${grants.length.toLocaleString('en-US')} grants; the reader may read ${readableCollections.length.toLocaleString('en-US')}` +
      ` collections and ${readableCards.length.toLocaleString('en-US')} cards`,
  );
  return {
    cardIds: cards.map((c) => c.id),
    collectionIds: all.map((c) => c.id),
    readableCards,
    readableCollections,
    tops,
    readableTops: tops.filter((t) => readerTops.has(t)),
    words,
  };
}

async function time(
  url: string,
  session: string,
  who: Timing['who'],
  endpoint: string,
  targetMs: number,
  runs: number,
  route: (i: number) => string,
): Promise<Timing> {
  const ms: number[] = [];
  let items = 0;
  for (let i = -Math.min(5, runs); i < runs; i++) {
    const r = await api(url, session, 'GET', route(Math.abs(i)));
    if (r.status !== 200) throw new Error(`${endpoint} as ${who}: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
    if (i < 0) continue;
    ms.push(r.ms);
    items = Math.max(items, countItems(r.json));
  }
  const t = { endpoint, who, runs, p50: percentile(ms, 50), p95: percentile(ms, 95), targetMs, items };
  log(`${who} | ${endpoint}: p50 ${t.p50.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms`);
  return t;
}

/** How many objects an answer holds (a list, a page's `data`, or a tree's nodes). */
function countItems(json: unknown): number {
  if (Array.isArray(json))
    return json.reduce((n: number, x: unknown) => n + 1 + countItems((x as { children?: unknown })?.children ?? []), 0);
  if (json && typeof json === 'object' && Array.isArray((json as { data?: unknown }).data))
    return (json as { data: unknown[] }).data.length;
  return 1;
}

interface Rss {
  idleMb: number;
  afterMb: number;
  settledMb: number;
  settleSeconds: number;
}

function table(kind: AppDbKind, ts: Timing[], { idleMb, afterMb, settledMb, settleSeconds }: Rss): string {
  const grew = settledMb - idleMb;
  return [
    `### ${kind === 'postgres' ? 'Postgres' : 'SQLite'} app database`,
    '',
    '| endpoint | caller | objects in the answer | runs | p50 (ms) | p95 (ms) | target (p95) |',
    '|---|---|---:|---:|---:|---:|---|',
    ...ts.map(
      (t) =>
        `| ${t.endpoint} | ${t.who} | ${t.items.toLocaleString('en-US')} | ${t.runs} | ${t.p50.toFixed(1)} | ${t.p95.toFixed(1)} |` +
        ` ${t.p95 <= t.targetMs ? 'met' : 'missed'} (< ${t.targetMs} ms) |`,
    ),
    '',
    `Server RSS before the listings ${idleMb.toFixed(0)} MB, right after them ${afterMb.toFixed(0)} MB` +
      ` (${signed(afterMb - idleMb)} MB), settled ${settledMb.toFixed(0)} MB after ${settleSeconds} s idle` +
      ` (${signed(grew)} MB; target within 50 MB of idle, settled as in the memory suite: ${grew <= 50 ? 'met' : 'missed'}).`,
    '',
  ].join('\n');
}

function signed(mb: number): string {
  return `${mb >= 0 ? '+' : ''}${mb.toFixed(0)}`;
}

function report(sections: string[]): string {
  return [
    '## Content at scale',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus().length} cores, Node ${process.version}).`,
    `${CARDS.toLocaleString('en-US')} cards in ${COLLECTIONS.toLocaleString('en-US')} collections nested 6 deep,` +
      ` ${GROUPS} groups with grants on part of the tree each, written straight into the app database the server runs on.`,
    'The non-admin is in three of those groups. Times are the whole HTTP exchange (keep-alive) until the JSON body has',
    'arrived, after a warm-up.',
    '',
    ...sections,
    "A collection's items page lists its sub-collections with `here` and `below` (the kinds of item anywhere under",
    'each), so its cost grows with the size of the subtree, not of the page: a top-level collection here has 3,000',
    'collections below it, whose rows, grants and item kinds are read for every page.',
    '',
  ].join('\n');
}
