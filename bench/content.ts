/**
 * The content suite of `npm run bench`: listings, one card, one collection's items and search at the size of a large
 * instance (40,000 cards in 30,000 collections nested 6 deep, 50 groups with grants) on the Postgres app database,
 * for an admin and for a user whose groups hold grants on part of the tree.
 *
 * The content is written straight into a fresh app database (`bench_app_content`) after the server has migrated it:
 * going through the API would take most of an hour and measure nothing this suite is about.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { searchWords } from '../src/modules/search/search-terms';
import { ADMIN, agent, api, log, login, percentile, startServer, stopServer } from './http';

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

export async function contentBench(): Promise<string> {
  const appUrl = await freshAppDb();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-content-'));
  const server = await startServer(dataDir, { DATABASE_URL: appUrl.toString(), LOAD_SAMPLE_DATABASE: 'true' });
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
    const db = new Client({ connectionString: appUrl.toString() });
    await db.connect();
    let seeded: Seeded;
    try {
      const t0 = Date.now();
      seeded = await seed(db, sample, readerId);
      log(
        `Seeded ${CARDS.toLocaleString('en-US')} cards in ${COLLECTIONS.toLocaleString('en-US')} collections` +
          ` in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
      );
    } finally {
      await db.end();
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
    return report(timings);
  } finally {
    await stopServer(server.proc);
    agent.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
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

async function seed(db: Client, sample: { db: number; table: number }, readerId: number): Promise<Seeded> {
  const rnd = random();
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const words = Array.from({ length: 300 }, (_, i) => `${SYLLABLES[i % 16]}${SYLLABLES[Math.floor(i / 16) % 16]}${i >= 256 ? 'x' : ''}`);
  const name = (n: number) => `${pick(words)} ${pick(words)} ${pick(words)} ${n}`;

  await db.query('BEGIN');
  const groupIds: number[] = [];
  for (let g = 0; g < GROUPS; g++) {
    groupIds.push((await db.query('INSERT INTO permissions_group (name) VALUES ($1) RETURNING id', [`Bench group ${g + 1}`])).rows[0].id);
  }
  // The reader is in three of them.
  const readerGroups = groupIds.slice(0, 3);
  await db.query('INSERT INTO permissions_group_membership (user_id, group_id) SELECT $1, unnest($2::int[])', [readerId, readerGroups]);

  // Collections, level by level, with ids chosen here so that locations are known before inserting.
  const firstId = Number((await db.query('SELECT COALESCE(MAX(id), 0) + 1 AS id FROM collection')).rows[0].id);
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
  for (let i = 0; i < all.length; i += 5000) {
    const part = all.slice(i, i + 5000);
    await db.query(
      'INSERT INTO collection (id, name, location, slug) SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[])',
      [
        part.map((c) => c.id),
        part.map((c) => c.name),
        part.map((c) => c.location),
        part.map((c) => c.name.replace(/\W+/g, '_').toLowerCase()),
      ],
    );
  }
  await db.query(`SELECT setval(pg_get_serial_sequence('collection', 'id'), $1)`, [nextId - 1]);

  // Grants: each group reads or curates two of the ten top-level trees, inherited all the way down.
  const tops = all.filter((c) => c.location === '/').map((c) => c.id);
  const grants: Array<[number, number, string]> = [];
  const readerTops = new Set<number>();
  groupIds.forEach((g, gi) => {
    for (const top of [tops[gi % tops.length], tops[(gi * 3 + 1) % tops.length]]) {
      const perm = gi % 2 ? 'read' : 'write';
      if (readerGroups.includes(g)) readerTops.add(top);
      for (const c of all) if (c.top === top) grants.push([g, c.id, perm]);
    }
  });
  for (let i = 0; i < grants.length; i += 20000) {
    const part = grants.slice(i, i + 20000);
    await db.query(
      'INSERT INTO collection_permission (group_id, collection_id, perm) SELECT * FROM unnest($1::int[], $2::int[], $3::text[])',
      [part.map((r) => r[0]), part.map((r) => r[1]), part.map((r) => r[2])],
    );
  }

  // Cards: spread over the collections (one in fifty at the Root), each with the revision of its creation.
  const adminId = Number((await db.query('SELECT id FROM core_user WHERE email = $1', [ADMIN.email])).rows[0].id);
  const query = JSON.stringify({ database: sample.db, type: 'query', query: { 'source-table': sample.table } });
  const metadata = JSON.stringify([
    { name: 'ID', display_name: 'ID', base_type: 'type/BigInteger', semantic_type: 'type/PK' },
    { name: 'TOTAL', display_name: 'Total', base_type: 'type/Float', semantic_type: null },
    { name: 'CREATED_AT', display_name: 'Created At', base_type: 'type/DateTime', semantic_type: 'type/CreationTimestamp' },
  ]);
  const firstCard = Number((await db.query('SELECT COALESCE(MAX(id), 0) + 1 AS id FROM report_card')).rows[0].id);
  const cards = Array.from({ length: CARDS }, (_, i) => {
    const home = i % 50 === 0 ? null : all[(i * 7) % all.length];
    const type = i % 50 === 1 ? 'metric' : i % 12 === 2 ? 'model' : 'question';
    return { id: firstCard + i, name: name(firstCard + i), collection: home?.id ?? null, top: home?.top ?? null, type };
  });
  for (let i = 0; i < cards.length; i += 5000) {
    const part = cards.slice(i, i + 5000);
    await db.query(
      `INSERT INTO report_card (id, name, display, dataset_query, visualization_settings, result_metadata, parameters, parameter_mappings,
         type, query_type, database_id, table_id, collection_id, creator_id)
       SELECT u.id, u.name, 'table', $3, '{}', $4, '[]', '[]', u.type, 'query', $5, $6, u.collection_id, $7
       FROM unnest($1::int[], $2::text[], $8::int[], $9::text[]) AS u(id, name, collection_id, type)`,
      [
        part.map((c) => c.id),
        part.map((c) => c.name),
        query,
        metadata,
        sample.db,
        sample.table,
        adminId,
        part.map((c) => c.collection),
        part.map((c) => c.type),
      ],
    );
    await db.query(
      `INSERT INTO revision (model, model_id, user_id, object, is_creation, most_recent)
       SELECT 'card', u.id, $2, $3, true, true FROM unnest($1::int[]) AS u(id)`,
      [part.map((c) => c.id), adminId, JSON.stringify({ name: 'snapshot', display: 'table', dataset_query: JSON.parse(query) })],
    );
    await db.query(`INSERT INTO card_reference (card_id, kind, ref_id) SELECT u.id, 'table', $2 FROM unnest($1::int[]) AS u(id)`, [
      part.map((c) => c.id),
      sample.table,
    ]);
  }
  await db.query(`SELECT setval(pg_get_serial_sequence('report_card', 'id'), $1)`, [firstCard + CARDS - 1]);

  // The word index, as the modules write it when they save.
  const terms: Array<[string, number, string]> = [];
  for (const c of all) for (const w of searchWords(c.name)) terms.push(['collection', c.id, w]);
  for (const c of cards) for (const w of searchWords(c.name)) terms.push(['card', c.id, w]);
  for (let i = 0; i < terms.length; i += 20000) {
    const part = terms.slice(i, i + 20000);
    await db.query(
      'INSERT INTO search_term (model, model_id, term, in_name) SELECT u.m, u.id, u.t, true' +
        ' FROM unnest($1::text[], $2::int[], $3::text[]) AS u(m, id, t) ON CONFLICT DO NOTHING',
      [part.map((r) => r[0]), part.map((r) => r[1]), part.map((r) => r[2])],
    );
  }
  await db.query('COMMIT');
  await db.query('ANALYZE');
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

function report(ts: Timing[]): string {
  return [
    '## Content at scale',
    '',
    `${CARDS.toLocaleString('en-US')} cards in ${COLLECTIONS.toLocaleString('en-US')} collections nested 6 deep,` +
      ` ${GROUPS} groups with grants on`,
    'part of the tree each, on the Postgres app database. The non-admin is in three of those groups. Times are',
    'the whole HTTP exchange (keep-alive) until the JSON body has arrived, after a warm-up.',
    '',
    '| endpoint | caller | objects in the answer | runs | p50 (ms) | p95 (ms) | target (p95) |',
    '|---|---|---:|---:|---:|---:|---|',
    ...ts.map(
      (t) =>
        `| ${t.endpoint} | ${t.who} | ${t.items.toLocaleString('en-US')} | ${t.runs} | ${t.p50.toFixed(1)} | ${t.p95.toFixed(1)} |` +
        ` ${t.p95 <= t.targetMs ? 'met' : 'missed'} (< ${t.targetMs} ms) |`,
    ),
    '',
    "A collection's items page lists its sub-collections with `here` and `below` (the kinds of item anywhere under",
    'each), so its cost grows with the size of the subtree, not of the page: a top-level collection here has 3,000',
    'collections below it, whose rows, grants and item kinds are read for every page.',
    '',
  ].join('\n');
}
