import type { Engine } from '../../src/query-engine/execute/drivers';
import { makeCard, makeModel, nativeQuery } from '../support/card-factories';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, setupAdmin } from '../support/factories';
import { toMbql5 } from '../support/mbql5';
import { waitForSync } from '../support/sync-wait';
import { startTestApp, type TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';

jest.setTimeout(180_000);

/**
 * Saved questions as sources on every engine: an MBQL card saved in legacy form, the same saved in MBQL 5, and a
 * native card, each used through `card__<id>` (legacy) and `source-card` (MBQL 5), give the same rows.
 */
describe('cards as query sources on every engine', () => {
  let t: TestApp;
  let admin: string;
  const warehouses: E2eWarehouse[] = [];
  const statements = [
    'CREATE TABLE sales (id INTEGER PRIMARY KEY, region VARCHAR(20), amount INTEGER)',
    "INSERT INTO sales VALUES (1, 'north', 10), (2, 'north', 5), (3, 'south', 7), (4, 'east', 3), (5, NULL, 8), (6, 'south', 4)",
  ];
  const expected = [
    ['east', 3],
    ['north', 15],
    ['south', 11],
  ];

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(warehouses.map((w) => w.drop()));
  });

  it.each(availableEngines().map((e) => [e]))('%s', async (engine: Engine) => {
    const wh = await e2eWarehouse(engine, t.config.dataDir, { statements });
    warehouses.push(wh);
    const db = (
      await t
        .http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine, name: `Sales ${engine}`, details: wh.details })
        .expect(200)
    ).body.id as number;
    await waitForSync(t, admin, db);
    const meta = (await t.http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body;
    const table = meta.tables.find((x: { name: string }) => x.name.toLowerCase() === 'sales');
    const field = (name: string) => table.fields.find((f: { name: string }) => f.name.toLowerCase() === name).id as number;
    const rowsQuery = {
      database: db,
      type: 'query',
      query: {
        'source-table': table.id,
        fields: [
          ['field', field('id'), null],
          ['field', field('region'), null],
          ['field', field('amount'), null],
        ],
      },
    };

    const cards = [
      await makeCard(t, admin, rowsQuery),
      await makeModel(t, admin, toMbql5(rowsQuery)),
      await makeCard(t, admin, nativeQuery(db, 'SELECT id, region, amount FROM sales')),
    ];
    for (const card of cards) {
      const name = (n: string) =>
        ((card.result_metadata as Array<{ name: string }>).find((c) => c.name.toLowerCase() === n) ?? { name: n }).name;
      const region = ['field', name('region'), { 'base-type': 'type/Text' }];
      const outer = {
        database: db,
        type: 'query',
        query: {
          'source-table': `card__${card.id}`,
          aggregation: [['sum', ['field', name('amount'), { 'base-type': 'type/Integer' }]]],
          breakout: [region],
          filter: ['not-null', region],
          'order-by': [['asc', region]],
        },
      };
      for (const sent of [outer, toMbql5(outer)]) {
        const res = (await t.http().post('/api/dataset').set(auth(admin)).send(sent).expect(202)).body;
        expect({ engine, card: card.id, status: res.status, error: res.error }).toEqual({
          engine,
          card: card.id,
          status: 'completed',
          error: undefined,
        });
        expect(res.data.rows.map((r: unknown[]) => [r[0], Number(r[1])])).toEqual(expected);
      }
    }
  });
});
