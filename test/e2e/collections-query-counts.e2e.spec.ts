import { DataSource } from 'typeorm';
import { ClusterEvents } from '../../src/common/cluster/cluster-events';
import { AppSql } from '../../src/common/database/app-sql';
import type { CollectionItem, CollectionItemSource, ItemsQuery } from '../../src/modules/collections/collection-item-source';
import { subscribeItemSource } from '../../src/modules/collections/collection-item-source';
import { EventBus } from '../../src/common/events/event-bus';
import { grant, makeCollection, makeGroup } from '../support/collection-factories';
import { auth, makeUser, MadeUser, setupAdmin } from '../support/factories';
import { countQueries, STEADY_SETTINGS } from '../support/query-counter';
import { startTestApp, TestApp } from '../support/test-app';

/** A source answering from memory, so that only the collections module's own queries are counted. */
class MemorySource implements CollectionItemSource {
  readonly models = ['dashboard'] as const;
  readonly rows: CollectionItem[] = [];
  async items(q: ItemsQuery): Promise<CollectionItem[]> {
    return this.rows.filter((r) => r.collection_id === q.collectionId);
  }
  async modelsIn(ids: number[]): Promise<Map<number, Set<string>>> {
    const wanted = new Set(ids);
    return new Map(
      this.rows.filter((r) => wanted.has(r.collection_id as number)).map((r) => [r.collection_id as number, new Set(['dashboard'])]),
    );
  }
  async archiveIn(): Promise<void> {}
  async deleteIn(): Promise<void> {}
}

/**
 * The tree and a collection's items cost a fixed number of app-DB queries whatever the number of collections and
 * items in them: the count at 1,000 must not exceed the count at 10, for an admin and for a member with grants.
 */
describe('collection listings make a bounded number of app-DB queries', () => {
  let t: TestApp;
  let admin: string;
  let reader: MadeUser;
  let group: number;
  let home: number;
  let sql: AppSql;
  const source = new MemorySource();

  beforeAll(async () => {
    t = await startTestApp(STEADY_SETTINGS);
    admin = await setupAdmin(t);
    reader = await makeUser(t, admin);
    group = await makeGroup(t, admin, [reader.id]);
    home = (await makeCollection(t, admin, { name: 'Home' })).id;
    await grant(t, admin, group, home, 'read');
    sql = new AppSql(t.app.get(DataSource));
    subscribeItemSource(t.app.get(EventBus), source);
  });
  afterAll(() => t.close());

  /** Collections under Home (granted like Home), and items in Home and in them, up to `n` of each. */
  async function grow(n: number): Promise<void> {
    const [{ c }] = await sql.query<{ c: number }>('SELECT COUNT(*) AS c FROM collection WHERE location = $1', [`/${home}/`]);
    for (let i = Number(c); i < n; i++) {
      await sql.execute('INSERT INTO collection (name, location, slug) VALUES ($1, $2, $3)', [`Sub ${i}`, `/${home}/`, `sub_${i}`]);
      const [{ id }] = await sql.query<{ id: number }>('SELECT MAX(id) AS id FROM collection', []);
      await sql.execute("INSERT INTO collection_permission (group_id, collection_id, perm) VALUES ($1, $2, 'read')", [group, Number(id)]);
      source.rows.push({
        id: source.rows.length + 1,
        model: 'dashboard',
        name: `Dash ${i}`,
        collection_id: i % 2 ? home : Number(id),
        last_edited_at: null,
        last_edited_by: null,
      });
    }
  }

  async function counts(session: string): Promise<Record<string, number>> {
    // From cold caches each time: what a warm cache spares depends on how long the step before took.
    await t.app.get(ClusterEvents).publish({ topic: 'all' });
    const counter = countQueries();
    const out: Record<string, number> = {};
    try {
      for (const route of [
        '/api/collection/tree',
        `/api/collection/${home}/items`,
        '/api/collection/',
        '/api/collection/root/items',
        `/api/collection/${home}/items?limit=20&offset=5`,
      ]) {
        counter.reset();
        await t.http().get(route).set(auth(session)).expect(200);
        out[route] = counter.count;
      }
    } finally {
      counter.restore();
    }
    return out;
  }

  it('does not grow with the number of collections and items', async () => {
    await grow(10);
    const small = { admin: await counts(admin), reader: await counts(reader.session) };
    await grow(1000);
    const large = { admin: await counts(admin), reader: await counts(reader.session) };
    const grew = (['admin', 'reader'] as const).flatMap((who) =>
      Object.keys(small[who])
        .filter((r) => large[who][r] > small[who][r])
        .map((r) => `${who} ${r}: ${small[who][r]} -> ${large[who][r]}`),
    );
    expect(grew).toEqual([]);
    const items = (await t.http().get(`/api/collection/${home}/items`).set(auth(reader.session)).expect(200)).body;
    expect(items.total).toBe(1500);
    expect(Object.values(small.reader).every((n) => n > 0)).toBe(true);
  });

  it('past 2,000 collections reads the groups’ grants once, and a grant changed through the API is seen at once', async () => {
    await grow(2100);
    const sub = async (name: string) => {
      const items = (await t.http().get(`/api/collection/${home}/items?models=collection`).set(auth(reader.session)).expect(200)).body;
      return (items.data as Array<{ id: number; name: string; can_write: boolean }>).find((c) => c.name === name);
    };
    const first = await sub('Sub 7');
    expect(first).toMatchObject({ can_write: false });
    const counter = countQueries();
    let grantReads: string[];
    try {
      await sub('Sub 7');
      grantReads = counter.texts.filter((text) => /FROM collection_permission/.test(text) && /GROUP BY collection_id/.test(text));
    } finally {
      counter.restore();
    }
    // The 2,100 collections' grants were read by the first listing and are kept: the second reads none.
    expect(grantReads).toEqual([]);
    await grant(t, admin, group, first!.id, 'write');
    expect(await sub('Sub 7')).toMatchObject({ can_write: true });
    await grant(t, admin, group, first!.id, 'none');
    expect(await sub('Sub 7')).toBeUndefined();
  });
});
