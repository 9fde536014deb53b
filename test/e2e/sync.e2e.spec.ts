import { DataSource } from 'typeorm';
import type { Engine } from '../../src/query-engine/execute/drivers';
import { SyncScheduler } from '../../src/modules/sync/sync.scheduler';
import { SyncService } from '../../src/modules/sync/sync.service';
import { fixtureStatements, SCHEMA } from '../engines/fixture';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { syncLog, syncThroughApi, waitForIdle } from '../support/sync-runs';
import { startTestApp, TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';

jest.setTimeout(90_000);

/**
 * The schema of test/engines/fixture.ts (cities, events, the event_labels view) plus two tables for sync:
 * `contacts` has columns whose semantic type comes from their name or from their values, and a second foreign
 * key; `legacy` is dropped again by the re-sync tests.
 */
const T: Record<Engine, { int: string; vc: string; dec: string; dbl: string; ts: string }> = {
  postgres: { int: 'INTEGER', vc: 'VARCHAR(100)', dec: 'NUMERIC(10,2)', dbl: 'DOUBLE PRECISION', ts: 'TIMESTAMP' },
  mysql: { int: 'INT', vc: 'VARCHAR(100)', dec: 'DECIMAL(10,2)', dbl: 'DOUBLE', ts: 'DATETIME' },
  sqlite: { int: 'INTEGER', vc: 'VARCHAR(100)', dec: 'DECIMAL(10,2)', dbl: 'DOUBLE', ts: 'TIMESTAMP' },
  duckdb: { int: 'INTEGER', vc: 'VARCHAR(100)', dec: 'DECIMAL(10,2)', dbl: 'DOUBLE', ts: 'TIMESTAMP' },
};

function syncFixture(engine: Engine): string[] {
  const t = T[engine];
  const contacts = [
    [1, 'ann@example.com', 'ann@mail.example.org', 'lead', 'gold', 'Zürich', '2024-01-01 10:00:00', '9.99', '47.37', 1],
    [2, 'bob@example.com', 'bob@mail.example.org', 'lead', 'silver', 'Zürich', '2024-01-02 10:00:00', '19.50', '47.38', 1],
    [3, 'cy@example.com', 'cy@mail.example.org', 'customer', 'gold', '東京', '2024-01-03 10:00:00', '5.00', '35.68', 2],
    [4, 'di@example.com', 'di@mail.example.org', 'customer', 'silver', '東京', '2024-01-04 10:00:00', '7.25', '35.69', 2],
    [5, 'ed@example.com', 'ed@mail.example.org', 'partner', 'gold', 'Nowhere', '2024-01-05 10:00:00', '0.00', '0', 3],
    [6, 'fay@example.com', 'fay@mail.example.org', 'lead', 'silver', null, null, null, null, null],
  ];
  const lit = (v: unknown, i: number) => (v === null ? 'NULL' : i === 0 || i >= 7 ? String(v) : `'${v}'`);
  return [
    ...fixtureStatements(engine),
    `CREATE TABLE contacts (
      id ${t.int} PRIMARY KEY, email ${t.vc}, contact ${t.vc}, kind ${t.vc}, tier ${t.vc}, city ${t.vc},
      created_at ${t.ts}, price ${t.dec}, lat ${t.dbl}, city_id ${t.int}, FOREIGN KEY (city_id) REFERENCES cities (id))`,
    `INSERT INTO contacts VALUES ${contacts.map((r) => `(${r.map(lit).join(', ')})`).join(', ')}`,
    `CREATE TABLE legacy (id ${t.int} PRIMARY KEY, code ${t.vc})`,
    "INSERT INTO legacy VALUES (1, 'a'), (2, 'b')",
  ];
}

/** Every field of the synced schema: [table, field, base type, semantic type]. */
const EXPECTED: Array<[string, string, string, string | null]> = [
  ['cities', 'id', 'type/Integer', 'type/PK'],
  ['cities', 'name', 'type/Text', 'type/Name'],
  ['cities', 'population', 'type/BigInteger', null],
  ['contacts', 'id', 'type/Integer', 'type/PK'],
  ['contacts', 'email', 'type/Text', 'type/Email'],
  ['contacts', 'contact', 'type/Text', 'type/Email'], // from its values
  ['contacts', 'kind', 'type/Text', 'type/Category'],
  ['contacts', 'tier', 'type/Text', 'type/Category'], // from its values
  ['contacts', 'city', 'type/Text', 'type/City'],
  ['contacts', 'created_at', 'type/DateTime', 'type/CreationTimestamp'],
  ['contacts', 'price', 'type/Decimal', 'type/Price'],
  ['contacts', 'lat', 'type/Float', 'type/Latitude'],
  ['contacts', 'city_id', 'type/Integer', 'type/FK'],
  ['event_labels', 'id', 'type/Integer', null],
  ['event_labels', 'label', 'type/Text', null],
  ['events', 'id', 'type/Integer', 'type/PK'],
  ['events', 'city_id', 'type/Integer', 'type/FK'],
  ['events', 'big', 'type/BigInteger', null],
  ['events', 'amount', 'type/Decimal', 'type/Currency'],
  ['events', 'ratio', 'type/Float', null],
  ['events', 'label', 'type/Text', null],
  ['events', 'note', 'type/Text', 'type/Description'],
  ['events', 'active', 'type/Boolean', null],
  ['events', 'day', 'type/Date', null],
  ['events', 'seen_at', 'type/DateTime', null],
  ['events', 'seen_tz', 'type/DateTimeWithLocalTZ', null],
  ['events', 'clock', 'type/Time', null],
  ['events', 'doc', 'type/JSON', null],
  ['legacy', 'id', 'type/Integer', 'type/PK'],
  ['legacy', 'code', 'type/Text', null],
];

/** The unavoidable differences between engines, and nothing else. */
function expectedFor(engine: Engine): Array<[string, string, string, string | null]> {
  // SQLite has no time-zone-aware timestamp type (see fixture.ts).
  return EXPECTED.filter(([table, name]) => !(engine === 'sqlite' && table === 'events' && name === 'seen_tz'));
}

interface FieldView {
  id: number;
  table_id: number;
  name: string;
  display_name: string;
  base_type: string;
  effective_type: string;
  semantic_type: string | null;
  fk_target_field_id: number | null;
  has_field_values: string;
  position: number;
  active: boolean;
  fingerprint: { global: { 'distinct-count': number; 'nil%': number }; type?: Record<string, Record<string, unknown>> } | null;
}
interface TableView {
  id: number;
  db_id: number;
  schema: string | null;
  name: string;
  display_name: string;
  estimated_row_count: number | null;
  fields: FieldView[];
}
interface Metadata {
  id: number;
  tables: TableView[];
}

const engines = availableEngines();

describe('sync', () => {
  let t: TestApp;
  let admin: string;
  const warehouses = new Map<Engine, E2eWarehouse>();
  const dbIds = new Map<Engine, number>();
  const metadata = new Map<Engine, Metadata>();

  const getMetadata = async (dbId: number): Promise<Metadata> =>
    (await t.http().get(`/api/database/${dbId}/metadata`).set(auth(admin)).expect(200)).body;
  const fieldOf = (m: Metadata, table: string, name: string): FieldView => {
    const f = m.tables.find((x) => x.name === table)?.fields.find((x) => x.name === name);
    if (!f) throw new Error(`no field ${table}.${name} in ${m.tables.map((x) => x.name).join(', ')}`);
    return f;
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    await Promise.all(
      engines.map(async (engine) => {
        const wh = await e2eWarehouse(engine, t.config.dataDir, { statements: syncFixture(engine) });
        warehouses.set(engine, wh);
        const res = await t
          .http()
          .post('/api/database')
          .set(auth(admin))
          .send({ engine, name: `Fixture ${engine}`, details: wh.details });
        if (res.status !== 200) throw new Error(`${engine}: ${res.status} ${JSON.stringify(res.body)}`);
        dbIds.set(engine, res.body.id);
        const synced = await waitForSync(t, admin, res.body.id);
        expect([engine, synced.initial_sync_status]).toEqual([engine, 'complete']);
        await waitForIdle(t, res.body.id);
        metadata.set(engine, await getMetadata(res.body.id));
      }),
    );
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([...warehouses.values()].map((w) => w.drop()));
  });

  describe.each(engines)('%s: the synced metadata', (engine) => {
    it('has the same tables, in the engine’s schema, with humanized display names and row counts', () => {
      const m = metadata.get(engine)!;
      expect(m.tables.map((x) => [x.schema, x.name, x.display_name])).toEqual([
        [SCHEMA[engine], 'cities', 'Cities'],
        [SCHEMA[engine], 'contacts', 'Contacts'],
        [SCHEMA[engine], 'event_labels', 'Event Labels'],
        [SCHEMA[engine], 'events', 'Events'],
        [SCHEMA[engine], 'legacy', 'Legacy'],
      ]);
      expect(Object.fromEntries(m.tables.map((x) => [x.name, x.estimated_row_count]))).toEqual({
        cities: 3,
        contacts: 6,
        event_labels: 3,
        events: 3,
        legacy: 2,
      });
      expect(m.tables.every((x) => x.db_id === dbIds.get(engine))).toBe(true);
    });

    it('has the same fields, in column order, with the same base and semantic types', () => {
      const m = metadata.get(engine)!;
      const actual = m.tables.flatMap((x) => x.fields.map((f) => [x.name, f.name, f.base_type, f.semantic_type]));
      const byTable = (rows: unknown[][]) => [...rows].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      expect(byTable(actual)).toEqual(byTable(expectedFor(engine)));
      for (const x of m.tables) expect(x.fields.map((f) => f.position)).toEqual(x.fields.map((_, i) => i));
      expect(fieldOf(m, 'events', 'city_id').display_name).toBe('City ID');
      expect(fieldOf(m, 'contacts', 'created_at')).toMatchObject({ display_name: 'Created At', effective_type: 'type/DateTime' });
    });

    it('resolves foreign keys to the ids of their target fields', () => {
      const m = metadata.get(engine)!;
      const citiesId = fieldOf(m, 'cities', 'id').id;
      expect(fieldOf(m, 'events', 'city_id').fk_target_field_id).toBe(citiesId);
      expect(fieldOf(m, 'contacts', 'city_id').fk_target_field_id).toBe(citiesId);
      const others = m.tables.flatMap((x) => x.fields).filter((f) => f.name !== 'city_id');
      expect(others.filter((f) => f.fk_target_field_id !== null)).toEqual([]);
    });

    it('fingerprints every field the same way as on the other engines', () => {
      const m = metadata.get(engine)!;
      expect(fieldOf(m, 'events', 'label').fingerprint!.global).toEqual({ 'distinct-count': 2, 'nil%': 1 / 3 });
      expect(fieldOf(m, 'contacts', 'tier').fingerprint!.global).toEqual({ 'distinct-count': 2, 'nil%': 0 });
      expect(fieldOf(m, 'contacts', 'city').fingerprint!.global).toEqual({ 'distinct-count': 3, 'nil%': 1 / 6 });
      expect(fieldOf(m, 'contacts', 'price').fingerprint!.type!['type/Number']).toEqual({ min: 0, max: 19.5, avg: 8.348 });
      expect(fieldOf(m, 'cities', 'population').fingerprint!.type!['type/Number']).toEqual({ min: 421878, max: 13960000, avg: 7190939 });
      expect(fieldOf(m, 'cities', 'name').fingerprint!.type!['type/Text']).toEqual({ 'average-length': 5 }); // characters, not bytes
    });

    it('lists the values of low-cardinality fields and searches the others', () => {
      const m = metadata.get(engine)!;
      expect(fieldOf(m, 'contacts', 'tier').has_field_values).toBe('auto-list');
      expect(fieldOf(m, 'contacts', 'kind').has_field_values).toBe('auto-list');
      expect(fieldOf(m, 'contacts', 'email').has_field_values).toBe('search');
      expect(fieldOf(m, 'events', 'active').has_field_values).toBe('auto-list');
      expect(fieldOf(m, 'events', 'amount').has_field_values).toBe('none');
      expect(fieldOf(m, 'events', 'id').has_field_values).toBe('none');
    });
  });

  it('gives the same fingerprints, value-list choices and field names on every engine', () => {
    if (engines.length < 2) return;
    const summary = (engine: Engine) => {
      const m = metadata.get(engine)!;
      const out: Record<string, unknown> = {};
      for (const x of m.tables) {
        for (const f of x.fields) {
          if (engine !== 'sqlite' && x.name === 'events' && f.name === 'seen_tz') continue; // not on SQLite
          out[`${x.name}.${f.name}`] = {
            global: f.fingerprint?.global,
            type: f.fingerprint?.type,
            has_field_values: f.has_field_values,
            display_name: f.display_name,
            semantic: f.semantic_type,
          };
        }
      }
      return out;
    };
    const [first, ...rest] = engines;
    for (const engine of rest) expect([engine, summary(engine)]).toEqual([engine, summary(first)]);
  });

  const resyncEngines = engines.filter((e) => e === 'sqlite' || e === 'postgres');

  describe.each(resyncEngines)('%s: syncing again after the warehouse changed', (engine) => {
    let before: Metadata;
    let after: Metadata;
    let editedVia: 'api' | 'sql';

    beforeAll(async () => {
      const dbId = dbIds.get(engine)!;
      before = await getMetadata(dbId);
      const label = fieldOf(before, 'events', 'label');
      // A person's edits: a display name (through the fields API when it exists) and a semantic type.
      const put = await t.http().put(`/api/field/${label.id}`).set(auth(admin)).send({ display_name: 'Event label' });
      const ds = t.app.get(DataSource);
      if (put.status === 404 && put.text === 'API endpoint does not exist.') {
        editedVia = 'sql';
        await ds
          .createQueryBuilder()
          .update('metabase_field')
          .set({ display_name: 'Event label', user_edited: JSON.stringify(['display_name']) })
          .where('id = :id', { id: label.id })
          .execute();
      } else {
        expect(put.status).toBe(200);
        editedVia = 'api';
      }
      const note = fieldOf(before, 'events', 'note');
      await ds
        .createQueryBuilder()
        .update('metabase_field')
        .set({ semantic_type: null, user_edited: JSON.stringify(['semantic_type']) })
        .where('id = :id', { id: note.id })
        .execute();

      const t2 = T[engine];
      await warehouses
        .get(engine)!
        .exec([
          `ALTER TABLE contacts ADD COLUMN website ${t2.vc}`,
          "UPDATE contacts SET website = 'https://example.com/' || kind",
          'ALTER TABLE contacts RENAME COLUMN tier TO level',
          `CREATE TABLE tags (id ${t2.int} PRIMARY KEY, event_id ${t2.int}, tag ${t2.vc}, FOREIGN KEY (event_id) REFERENCES events (id))`,
          "INSERT INTO tags VALUES (1, 1, 'x'), (2, 1, 'y'), (3, 2, 'x')",
          'DROP TABLE legacy',
        ]);
      const run = await syncThroughApi(t, admin, dbId);
      expect(run).toMatchObject({ kind: 'metadata', status: 'succeeded', error: null });
      expect(run.summary).toMatchObject({ tables_added: 1, tables_deactivated: 1, fields_added: 5, fields_deactivated: 1 });
      after = await getMetadata(dbId);
    });

    it('keeps the ids of tables and fields that are still there', () => {
      const ids = (m: Metadata) =>
        Object.fromEntries(
          m.tables
            .filter((x) => x.name !== 'legacy')
            .flatMap((x) => [[x.name, x.id], ...x.fields.filter((f) => f.name !== 'tier').map((f) => [`${x.name}.${f.name}`, f.id])]),
        );
      const kept = ids(before);
      expect(Object.fromEntries(Object.keys(kept).map((k) => [k, ids(after)[k]]))).toEqual(kept);
    });

    it('adds the new column and the new table, with its foreign key', () => {
      expect(after.tables.map((x) => x.name)).toEqual(['cities', 'contacts', 'event_labels', 'events', 'tags']);
      expect(fieldOf(after, 'contacts', 'website')).toMatchObject({
        base_type: 'type/Text',
        semantic_type: 'type/URL',
        position: 10,
        active: true,
      });
      expect(fieldOf(after, 'tags', 'event_id')).toMatchObject({
        semantic_type: 'type/FK',
        fk_target_field_id: fieldOf(after, 'events', 'id').id,
      });
      expect(fieldOf(after, 'tags', 'tag').fingerprint!.global).toEqual({ 'distinct-count': 2, 'nil%': 0 });
      expect(after.tables.find((x) => x.name === 'tags')!.estimated_row_count).toBe(3);
    });

    it('treats a renamed column as a new field, and the old one as gone', async () => {
      const contacts = after.tables.find((x) => x.name === 'contacts')!;
      expect(contacts.fields.map((f) => f.name)).toEqual([
        'id',
        'email',
        'contact',
        'kind',
        'level',
        'city',
        'created_at',
        'price',
        'lat',
        'city_id',
        'website',
      ]);
      expect(contacts.fields.map((f) => f.position)).toEqual(contacts.fields.map((_, i) => i));
      const tier = fieldOf(before, 'contacts', 'tier');
      expect(fieldOf(after, 'contacts', 'level').id).not.toBe(tier.id);
      expect(fieldOf(after, 'contacts', 'level')).toMatchObject({ semantic_type: 'type/Category', has_field_values: 'auto-list' });
      const row = await t.app
        .get(DataSource)
        .createQueryBuilder()
        .select('f.active', 'active')
        .from('metabase_field', 'f')
        .where('f.id = :id', { id: tier.id })
        .getRawOne();
      expect([true, 1].includes(row.active)).toBe(false);
    });

    it('turns the dropped table inactive instead of deleting it', async () => {
      const legacy = before.tables.find((x) => x.name === 'legacy')!;
      const row = await t.app
        .get(DataSource)
        .createQueryBuilder()
        .select('t.active', 'active')
        .from('metabase_table', 't')
        .where('t.id = :id', { id: legacy.id })
        .getRawOne();
      expect([true, 1].includes(row.active)).toBe(false);
      const list = (await t.http().get('/api/database?include=tables').set(auth(admin)).expect(200)).body.data;
      const tables = list.find((d: { id: number }) => d.id === dbIds.get(engine)).tables.map((x: { name: string }) => x.name);
      expect(tables).not.toContain('legacy');
    });

    it('leaves what a person edited alone', () => {
      expect([editedVia, fieldOf(after, 'events', 'label').display_name]).toEqual([editedVia, 'Event label']);
      expect(fieldOf(after, 'events', 'note').semantic_type).toBeNull();
    });

    it('brings a table back, with the same id, when it reappears', async () => {
      const legacy = before.tables.find((x) => x.name === 'legacy')!;
      await warehouses.get(engine)!.exec([`CREATE TABLE legacy (id ${T[engine].int} PRIMARY KEY, code ${T[engine].vc})`]);
      await syncThroughApi(t, admin, dbIds.get(engine)!);
      const again = await getMetadata(dbIds.get(engine)!);
      expect(again.tables.find((x) => x.name === 'legacy')).toMatchObject({ id: legacy.id, estimated_row_count: 0 });
      expect(fieldOf(again, 'legacy', 'code').id).toBe(fieldOf(before, 'legacy', 'code').id);
    });
  });

  describe('the sync lease', () => {
    it('lets exactly one of two instances sharing the app DB sync a database at a time', async () => {
      const dbId = dbIds.get(engines[0])!;
      const other = await startTestApp({}, t);
      try {
        await waitForIdle(t, dbId);
        const runsBefore = await syncLog(t, admin, dbId);
        const results = await Promise.all([t.app.get(SyncService).run(dbId, 'metadata'), other.app.get(SyncService).run(dbId, 'metadata')]);
        expect(results.filter(Boolean)).toHaveLength(1);
        const runsAfter = await syncLog(t, admin, dbId);
        const fresh = runsAfter.filter((r) => !runsBefore.some((b) => b.id === r.id));
        expect(fresh).toHaveLength(1);
        expect(fresh[0]).toMatchObject({ status: 'succeeded', kind: 'metadata' });
        const winner = results[0] ? t.app.get(SyncService).instanceId : other.app.get(SyncService).instanceId;
        expect(fresh[0].instance).toBe(winner);
        // Once the lease is free again, either instance may sync.
        await waitForIdle(t, dbId);
        expect(await other.app.get(SyncService).run(dbId, 'field-values')).toBe(true);
      } finally {
        await other.close();
      }
    });
  });

  describe('one sync per database in an instance', () => {
    it('lets a value scan asked for during a metadata sync join it, and holds the lease until both are done', async () => {
      const dbId = dbIds.get(engines[0])!;
      await waitForIdle(t, dbId);
      const sync = t.app.get(SyncService);
      const before = (await syncLog(t, admin, dbId)).length;
      const metadata = sync.run(dbId, 'metadata');
      const values = sync.run(dbId, 'field-values');
      expect(await Promise.all([metadata, values])).toEqual([true, true]);
      const log = await syncLog(t, admin, dbId);
      expect(log).toHaveLength(before + 1);
      expect(log[0]).toMatchObject({ kind: 'metadata', status: 'succeeded' });
    });

    it('does not start a metadata sync while a value scan runs', async () => {
      const dbId = dbIds.get(engines[0])!;
      await waitForIdle(t, dbId);
      const sync = t.app.get(SyncService);
      const values = sync.run(dbId, 'field-values');
      expect(await sync.run(dbId, 'metadata')).toBe(false);
      expect(await values).toBe(true);
      expect((await syncLog(t, admin, dbId))[0]).toMatchObject({ kind: 'field-values', status: 'succeeded' });
    });
  });

  describe('the scheduler', () => {
    it('syncs a database whose last sync is older than its interval, and leaves fresh ones alone', async () => {
      const [stale, ...fresh] = engines.map((e) => dbIds.get(e)!);
      for (const id of [stale, ...fresh]) await waitForIdle(t, id);
      const ds = t.app.get(DataSource);
      const longAgo = new Date(Date.now() - 2 * 3600_000);
      await ds
        .createQueryBuilder()
        .update('metabase_database')
        .set({ last_metadata_sync_at: longAgo })
        .where('id = :id', { id: stale })
        .execute();
      const runs = async (id: number) => (await syncLog(t, admin, id)).length;
      const before = await Promise.all([stale, ...fresh].map(runs));
      expect(await t.app.get(SyncScheduler).tick()).toBe(1);
      const after = await Promise.all([stale, ...fresh].map(runs));
      expect(after).toEqual([before[0] + 1, ...before.slice(1)]);
      const db = (await t.http().get(`/api/database/${stale}`).set(auth(admin)).expect(200)).body;
      expect(Date.now() - Date.parse(db.last_metadata_sync_at)).toBeLessThan(60_000);
      expect(await t.app.get(SyncScheduler).tick()).toBe(0);
    });

    it('tries a broken database again after its interval, not at every check', async () => {
      const wh = await e2eWarehouse('sqlite', t.config.dataDir, { statements: ['CREATE TABLE t (id INTEGER PRIMARY KEY)'] });
      const id = (
        await t
          .http()
          .post('/api/database')
          .set(auth(admin))
          .send({ engine: 'sqlite', name: 'Soon broken', details: wh.details })
          .expect(200)
      ).body.id;
      await waitForSync(t, admin, id);
      await waitForIdle(t, id);
      await wh.drop();
      const ds = t.app.get(DataSource);
      const age = (table: string, column: string, where: string) =>
        ds
          .createQueryBuilder()
          .update(table)
          .set({ [column]: new Date(Date.now() - 2 * 3600_000) })
          .where(where, { id })
          .execute();
      await age('metabase_database', 'last_metadata_sync_at', 'id = :id');
      const scheduler = t.app.get(SyncScheduler);
      expect(await scheduler.tick()).toBe(0);
      let log = await syncLog(t, admin, id);
      expect(log.map((r) => [r.kind, r.status])).toEqual([
        ['metadata', 'failed'],
        ['metadata', 'succeeded'],
      ]);
      await scheduler.tick();
      await scheduler.tick();
      expect(await syncLog(t, admin, id)).toHaveLength(2);
      // An interval after the failed attempt, it is tried again.
      await age('sync_run', 'started_at', 'db_id = :id');
      await scheduler.tick();
      log = await syncLog(t, admin, id);
      expect(log.map((r) => [r.kind, r.status])).toEqual([
        ['metadata', 'failed'],
        ['metadata', 'failed'],
        ['metadata', 'succeeded'],
      ]);
    });
  });
});
