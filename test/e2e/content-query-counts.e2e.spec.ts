import { DataSource } from 'typeorm';
import { ClusterEvents } from '../../src/common/cluster/cluster-events';
import { AppSql } from '../../src/common/database/app-sql';
import { auth, makeUser, MadeUser, setupAdmin } from '../support/factories';
import { countQueries, STEADY_SETTINGS } from '../support/query-counter';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Listings cost a fixed number of app-DB queries whatever the number of items: the count at 1,000 items must not
 * exceed the count at 10, for an admin and for a user whose group has grants. Content is written straight into the
 * tables (a thousand POSTs would measure nothing more).
 */
describe('content listings make a bounded number of app-DB queries', () => {
  let t: TestApp;
  let admin: string;
  let reader: MadeUser;
  let sql: AppSql;
  let group: number;
  let home: number;
  let someCard: number;

  beforeAll(async () => {
    t = await startTestApp(STEADY_SETTINGS);
    admin = await setupAdmin(t);
    reader = await makeUser(t, admin);
    group = (await t.http().post('/api/permissions/group').set(auth(admin)).send({ name: 'Readers' }).expect(200)).body.id;
    await t.http().post('/api/permissions/membership').set(auth(admin)).send({ group_id: group, user_id: reader.id }).expect(200);
    sql = new AppSql(t.app.get(DataSource));
    home = (await t.http().post('/api/collection').set(auth(admin)).send({ name: 'Home' }).expect(200)).body.id;
    await grant(home);
  });
  afterAll(() => t.close());

  async function grant(collectionId: number): Promise<void> {
    await sql.execute("INSERT INTO collection_permission (group_id, collection_id, perm) VALUES ($1, $2, 'read')", [group, collectionId]);
  }

  /** Adds collections under Home and cards in Home and in them, until Home holds `cards` cards in all. */
  async function grow(cards: number): Promise<void> {
    const [{ n }] = await sql.query<{ n: number }>('SELECT COUNT(*) AS n FROM report_card', []);
    const adminId = (await t.http().get('/api/user/current').set(auth(admin)).expect(200)).body.id;
    for (let i = Number(n); i < cards; i++) {
      let collection = home;
      if (i % 10 === 0) {
        await sql.execute('INSERT INTO collection (name, location) VALUES ($1, $2)', [`Sub ${i}`, `/${home}/`]);
        const [{ id }] = await sql.query<{ id: number }>('SELECT MAX(id) AS id FROM collection', []);
        collection = Number(id);
        await grant(collection);
      }
      await sql.execute(
        `INSERT INTO report_card (name, display, dataset_query, visualization_settings, result_metadata, parameters, parameter_mappings,
           type, collection_id, creator_id)
         VALUES ($1, 'table', $2, '{}', '[]', '[]', '[]', $3, $4, $5)`,
        [
          `Card ${i}`,
          JSON.stringify({ database: 1, type: 'native', native: { query: 'SELECT 1' } }),
          i % 7 === 0 ? 'model' : 'question',
          collection,
          adminId,
        ],
      );
      const [{ id }] = await sql.query<{ id: number }>('SELECT MAX(id) AS id FROM report_card', []);
      someCard = Number(id);
      await sql.execute(
        "INSERT INTO revision (model, model_id, user_id, object, is_creation, most_recent) VALUES ('card', $1, $2, '{}', $3, $4)",
        [someCard, adminId, true, true],
      );
    }
  }

  async function counts(session: string): Promise<Record<string, number>> {
    // From cold caches each time: what a warm cache spares depends on how long the step before took.
    await t.app.get(ClusterEvents).publish({ topic: 'all' });
    const counter = countQueries();
    const out: Record<string, number> = {};
    try {
      for (const route of ['/api/card/?f=all', '/api/collection/tree', `/api/collection/${home}/items`, `/api/card/${someCard}`]) {
        counter.reset();
        await t.http().get(route).set(auth(session)).expect(200);
        out[route.replace(/\d+/g, ':id')] = counter.count;
      }
    } finally {
      counter.restore();
    }
    return out;
  }

  it('does not grow with the number of cards and collections', async () => {
    await grow(10);
    const small = { admin: await counts(admin), reader: await counts(reader.session) };
    await grow(1000);
    const large = { admin: await counts(admin), reader: await counts(reader.session) };
    const listed = await t.http().get('/api/card/?f=all').set(auth(reader.session)).expect(200);
    expect(listed.body.length).toBeGreaterThanOrEqual(1000);
    const grew = (['admin', 'reader'] as const).flatMap((who) =>
      Object.keys(small[who])
        .filter((route) => large[who][route] > small[who][route])
        .map((route) => `${who} ${route}: ${small[who][route]} -> ${large[who][route]}`),
    );
    expect(grew).toEqual([]);
    // The counter saw the work (a listing cannot be answered without asking the app DB).
    expect(small.reader['/api/card/?f=all']).toBeGreaterThan(0);
  });
});
