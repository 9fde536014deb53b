import type { Engine } from '../../src/query-engine/execute/drivers';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { startTestApp, type TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';

jest.setTimeout(180_000);

/**
 * Issue 30, finding 5: a CSV header repeating `a` 25,000 times (100 kB) blocked the server for 42 s while its column
 * names were made unique (quadratic), then answered 500. Now: a column limit answered 400, linear de-duplication, and
 * the server answers /api/health throughout an upload.
 */
describe.each(availableEngines(['duckdb', 'postgres']).map((e) => [e]))('CSV upload columns on %s (issue 30)', (engine: Engine) => {
  let t: TestApp;
  let admin: string;
  let wh: E2eWarehouse;
  const http = () => t.http();
  const upload = (name: string, content: string) =>
    http().post('/api/card/from-csv').set(auth(admin)).field('collection_id', 'root').attach('file', Buffer.from(content), name);

  /**
   * Asks /api/health again and again until `work` settles; every answer must come within 10 s (a server blocked by
   * the upload answers none until the upload is done). Answers the work's result.
   */
  async function healthWhile<T>(work: PromiseLike<T>): Promise<T> {
    let settled = false;
    const done = Promise.resolve(work).finally(() => {
      settled = true;
    });
    let answered = 0;
    while (!settled) {
      const res = await http().get('/api/health').timeout(10_000);
      expect(res.status).toBe(200);
      answered++;
    }
    expect(answered).toBeGreaterThan(0);
    return done;
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    wh = await e2eWarehouse(engine, t.config.dataDir);
    const db = (
      await http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine, name: `Uploads ${engine}`, details: wh.details })
        .expect(200)
    ).body.id;
    await waitForSync(t, admin, db);
    await http()
      .put('/api/setting/uploads-settings')
      .set(auth(admin))
      .send({ value: { db_id: db, schema_name: null, table_prefix: 'up_' } })
      .expect(204);
  });
  afterAll(async () => {
    await t.close();
    await wh.drop();
  });

  it('answers 400 naming the limit for a header repeating `a` 25,000 times, and /api/health meanwhile', async () => {
    const file = `${Array(25_000).fill('a').join(',')}\n${Array(25_000).fill('1').join(',')}\n`;
    const res = await healthWhile(upload('wide.csv', file));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'The CSV file has more than 1,000 columns: an upload may have at most 1,000 columns.' });
  });

  it('makes 400 mostly repeated column names unique, with /api/health answering during the upload', async () => {
    // `a_3` is in the header already: the repeats of `a` pass over it.
    const header = ['id', 'a_3', ...Array(397).fill('a'), 'B'];
    const rows = Array.from({ length: 5000 }, (_, r) => [r + 1, ...Array(399).fill(r % 10)].join(','));
    const res = await healthWhile(upload('many.csv', [header.join(','), ...rows].join('\n')));
    expect(res.status).toBe(200);
    const card = (await http().get(`/api/card/${res.body}`).set(auth(admin)).expect(200)).body;
    const table = (await http().get(`/api/table/${card.table_id}/query_metadata`).set(auth(admin)).expect(200)).body;
    const names = (table.fields as Array<{ name: string; position: number }>)
      .sort((x, y) => x.position - y.position)
      .map((f) => f.name.toLowerCase());
    expect(names).toHaveLength(400);
    expect(new Set(names).size).toBe(400);
    expect(names.slice(0, 5)).toEqual(['id', 'a_3', 'a', 'a_2', 'a_4']);
    expect(names.slice(-2)).toEqual(['a_398', 'b']);
  });
});
