import type { Engine } from '../../src/query-engine/execute/drivers';
import { makeCard, makeModel } from '../support/card-factories';
import { dashboardWith } from '../support/dashboard-factories';
import { binary, parseCsv } from '../support/downloads';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { startTestApp, type TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';

jest.setTimeout(240_000);

/**
 * Persisted models on every warehouse that can hold them: persist, read through the table (the executed SQL reads
 * the cache schema, and a row changed in the source stays unseen until a refresh), refresh, a failed refresh that
 * keeps the previous table, unpersist, and the database switch that drops every table.
 */
describe('persisted models on Postgres, MariaDB and DuckDB', () => {
  let t: TestApp;
  let admin: string;
  const warehouses: E2eWarehouse[] = [];
  const statements = [
    'CREATE TABLE sales (id INTEGER PRIMARY KEY, region VARCHAR(20), amount INTEGER, sold_at TIMESTAMP, ok BOOLEAN,' +
      ' price DOUBLE PRECISION)',
    "INSERT INTO sales VALUES (1, 'north', 10, '2024-01-02 03:04:05', TRUE, 1.5), (2, 'north', 5, NULL, FALSE, 2.25)," +
      " (3, 'south', 7, '2024-02-03 00:00:00', NULL, NULL), (4, 'east', 3, NULL, TRUE, 0.5)",
  ];

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    await t.http().post('/api/persist/enable').set(auth(admin)).send({ state: true }).expect(204);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(warehouses.map((w) => w.drop()));
  });

  const engines = availableEngines(['postgres', 'mysql', 'duckdb']);

  it.each(engines.map((e) => [e]))('%s: persist, read, refresh, failed refresh, unpersist', async (engine: Engine) => {
    const wh = await e2eWarehouse(engine, t.config.dataDir, {
      statements: engine === 'mysql' ? statements.map((s) => s.replace('DOUBLE PRECISION', 'DOUBLE')) : statements,
    });
    warehouses.push(wh);
    const db = (
      await t
        .http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine, name: `Persist ${engine}`, details: wh.details })
        .expect(200)
    ).body.id as number;
    await waitForSync(t, admin, db);
    const meta = (await t.http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body;
    const table = meta.tables.find((x: { name: string }) => x.name.toLowerCase() === 'sales');
    const model = await makeModel(t, admin, { database: db, type: 'query', query: { 'source-table': table.id } });
    const col = (n: string) => (model.result_metadata as Array<{ name: string }>).find((c) => c.name.toLowerCase() === n)!.name;

    // Not yet switched on for the database.
    const refused = await t.http().post(`/api/card/${model.id}/persist`).set(auth(admin)).expect(400);
    expect(refused.body.message).toBe('Persisting models not enabled for database');
    await t.http().post(`/api/database/${db}/persist`).set(auth(admin)).expect(204);
    expect((await t.http().get(`/api/database/${db}`).set(auth(admin)).expect(200)).body.settings['persist-models-enabled']).toBe(true);

    await t.http().post(`/api/card/${model.id}/persist`).set(auth(admin)).expect(204);
    const info = (await t.http().get(`/api/persist/card/${model.id}`).set(auth(admin)).expect(200)).body;
    expect(info).toMatchObject({
      card_id: model.id,
      database_id: db,
      state: 'persisted',
      active: true,
      error: null,
      table_name: `model_${model.id}`,
    });
    expect(info.schema_name).toMatch(new RegExp(`^analytics_cache_[0-9a-f]{8}_${db}$`));
    expect(info.columns.map((c: string) => c.toLowerCase())).toEqual(['id', 'region', 'amount', 'sold_at', 'ok', 'price']);
    // An instant in UTC whatever the server's zone (SQLite keeps it as zone-less text).
    expect(Math.abs(new Date(info.refresh_end).getTime() - Date.now())).toBeLessThan(60_000);

    const total = async () => {
      const q = {
        database: db,
        type: 'query',
        query: { 'source-table': `card__${model.id}`, aggregation: [['sum', ['field', col('amount'), { 'base-type': 'type/Integer' }]]] },
      };
      const res = (await t.http().post('/api/dataset').set(auth(admin)).send(q).expect(202)).body;
      expect({ status: res.status, error: res.error }).toEqual({ status: 'completed', error: undefined });
      return { sum: Number(res.data.rows[0][0]), sql: res.data.native_form.query as string };
    };
    await t.http().put('/api/setting/enable-public-sharing').set(auth(admin)).send({ value: true }).expect(204);
    const dash = await dashboardWith(t, admin, [model.id]);
    const uuid = (await t.http().post(`/api/card/${model.id}/public_link`).set(auth(admin)).expect(200)).body.uuid as string;
    /** The amount of sale 1 as each way of running the model itself sees it, and the SQL its own run executed. */
    const modelRuns = async () => {
      const amountOf = (body: { status?: string; data: { rows: unknown[][] } }) => {
        expect(body.status ?? 'completed').toBe('completed');
        return Number(body.data.rows.find((r) => Number(r[0]) === 1)![2]);
      };
      const own = (await t.http().post(`/api/card/${model.id}/query`).set(auth(admin)).send({}).expect(202)).body;
      const dashcard = (
        await t
          .http()
          .post(`/api/dashboard/${dash.id}/dashcard/${dash.dashcards[0].id}/card/${model.id}/query`)
          .set(auth(admin))
          .send({})
          .expect(202)
      ).body;
      const shared = (await t.http().get(`/api/public/card/${uuid}/query`).expect(202)).body;
      // The same columns as the model's own query gives, whichever it read.
      expect(own.data.cols.map((c: { name: string; display_name: string }) => [c.name, c.display_name])).toEqual(
        (model.result_metadata as Array<{ name: string; display_name: string }>).map((c) => [c.name, c.display_name]),
      );
      return { own: amountOf(own), dashcard: amountOf(dashcard), shared: amountOf(shared), sql: own.data.native_form.query as string };
    };
    const first = await total();
    expect(first).toEqual({ sum: 25, sql: expect.stringContaining(info.schema_name) });
    expect(first.sql).toContain(`model_${model.id}`);

    // Every column type comes back through the table as through the model's own query.
    const through = (
      await t
        .http()
        .post('/api/dataset')
        .set(auth(admin))
        .send({ database: db, type: 'query', query: { 'source-table': `card__${model.id}` } })
        .expect(202)
    ).body;
    expect(through.data.native_form.query).toContain(info.schema_name);
    const sorted = (through.data.rows as unknown[][])
      .map((r) => [Number(r[0]), r[1], Number(r[2]), r[3], r[4] === null ? null : Boolean(r[4]), r[5] === null ? null : Number(r[5])])
      .sort((a, b) => (a[0] as number) - (b[0] as number));
    expect(sorted[0]).toEqual([1, 'north', 10, expect.stringMatching(/^2024-01-02T03:04:05/), true, 1.5]);
    expect(sorted[1]).toEqual([2, 'north', 5, null, false, 2.25]);

    // A change in the source stays unseen until the refresh, in exports of questions on the model too.
    const question = await makeCard(t, admin, {
      database: db,
      type: 'query',
      query: { 'source-table': `card__${model.id}`, aggregation: [['sum', ['field', col('amount'), { 'base-type': 'type/Integer' }]]] },
    });
    const exported = async () => {
      const res = await t
        .http()
        .post(`/api/card/${question.id}/query/csv`)
        .set(auth(admin))
        .type('form')
        .send({})
        .buffer(true)
        .parse(binary)
        .expect(200);
      return Number(parseCsv((res.body as Buffer).toString())[1][0]);
    };
    const nested = (
      await t
        .http()
        .post('/api/dataset')
        .set(auth(admin))
        .send({ database: db, type: 'query', query: { 'source-table': `card__${question.id}` } })
        .expect(202)
    ).body;
    expect({ sum: Number(nested.data.rows[0][0]), sql: nested.data.native_form.query }).toEqual({
      sum: 25,
      sql: expect.stringContaining(info.schema_name),
    });
    await wh.exec(['UPDATE sales SET amount = amount + 100 WHERE id = 1']);
    expect((await total()).sum).toBe(25);
    expect(await exported()).toBe(25);
    // The model run as it is reads the table too: its own query, a dashcard showing it, and its public link.
    expect(await modelRuns()).toEqual({ own: 10, dashcard: 10, shared: 10, sql: expect.stringContaining(info.schema_name) });
    await t.http().post(`/api/card/${model.id}/refresh`).set(auth(admin)).expect(204);
    expect((await total()).sum).toBe(125);
    expect(await exported()).toBe(125);
    expect(await modelRuns()).toMatchObject({ own: 110, dashcard: 110, shared: 110 });

    // A failed refresh keeps the previous table in use and records the error: the build cannot write (a view stands
    // where the new table goes), and the model's query fails (the source table is gone).
    const failures: Array<{ break: string[]; mend: string[]; message: RegExp }> = [
      {
        break: [`CREATE VIEW ${q(engine, info.schema_name)}.${q(engine, `model_${model.id}_new`)} AS SELECT 1 AS x`],
        mend: [`DROP VIEW ${q(engine, info.schema_name)}.${q(engine, `model_${model.id}_new`)}`],
        message: new RegExp(`model_${model.id}_new`),
      },
      {
        break: ['ALTER TABLE sales RENAME TO sales_gone'],
        mend: ['ALTER TABLE sales_gone RENAME TO sales'],
        message: /query failed.*sales/is,
      },
    ];
    for (const f of failures) {
      await wh.exec(f.break);
      const failed = await t.http().post(`/api/card/${model.id}/refresh`).set(auth(admin)).expect(400);
      expect(failed.body.message).toMatch(f.message);
      const afterFail = (await t.http().get(`/api/persist/card/${model.id}`).set(auth(admin)).expect(200)).body;
      expect(afterFail).toMatchObject({ state: 'error', active: true, error: failed.body.message });
      expect(await total()).toEqual({ sum: 125, sql: expect.stringContaining(info.schema_name) });
      await wh.exec(f.mend);
    }
    await t.http().post(`/api/card/${model.id}/refresh`).set(auth(admin)).expect(204);
    expect((await t.http().get(`/api/persist/card/${model.id}`).set(auth(admin)).expect(200)).body).toMatchObject({
      state: 'persisted',
      error: null,
    });

    // The admin listing.
    const list = (await t.http().get('/api/persist').set(auth(admin)).expect(200)).body;
    expect(list.data.find((r: { card_id: number }) => r.card_id === model.id)).toMatchObject({
      state: 'persisted',
      card_name: model.name,
      database_id: db,
      'next-refresh-time': expect.any(String),
    });
    const byId = (await t.http().get(`/api/persist/${info.id}`).set(auth(admin)).expect(200)).body;
    expect(byId.card_id).toBe(model.id);

    // Unpersist: the model's own query runs again.
    await t.http().post(`/api/card/${model.id}/unpersist`).set(auth(admin)).expect(204);
    await t.http().get(`/api/persist/card/${model.id}`).set(auth(admin)).expect(404);
    const plain = await total();
    expect(plain.sum).toBe(125);
    expect(plain.sql).not.toContain('analytics_cache_');
    expect(await modelRuns()).toEqual({ own: 110, dashcard: 110, shared: 110, sql: expect.not.stringContaining('analytics_cache_') });

    // The database switch off drops every persisted table of the database.
    await t.http().post(`/api/card/${model.id}/persist`).set(auth(admin)).expect(204);
    expect((await total()).sql).toContain(info.schema_name);
    await t.http().post(`/api/database/${db}/unpersist`).set(auth(admin)).expect(204);
    await t.http().get(`/api/persist/card/${model.id}`).set(auth(admin)).expect(404);
    expect((await total()).sql).not.toContain('analytics_cache_');
    expect(await schemaExists(wh, info.schema_name)).toBe(false);

    // Deleting a persisted model drops its table; deleting the database drops its cache schema, tables and all.
    await t.http().post(`/api/database/${db}/persist`).set(auth(admin)).expect(204);
    await t.http().post(`/api/card/${model.id}/persist`).set(auth(admin)).expect(204);
    expect(await tableExists(wh, info.schema_name, `model_${model.id}`)).toBe(true);
    await t.http().delete(`/api/card/${model.id}`).set(auth(admin)).expect(204);
    expect(await tableExists(wh, info.schema_name, `model_${model.id}`)).toBe(false);
    const kept = await makeModel(t, admin, { database: db, type: 'query', query: { 'source-table': table.id } });
    await t.http().post(`/api/card/${kept.id}/persist`).set(auth(admin)).expect(204);
    expect(await tableExists(wh, info.schema_name, `model_${kept.id}`)).toBe(true);
    await t.http().delete(`/api/database/${db}`).set(auth(admin)).expect(204);
    expect(await schemaExists(wh, info.schema_name)).toBe(false);
  });
});

/** Whether a table is in the warehouse (read through the test helper's own connection). */
async function tableExists(wh: E2eWarehouse, schema: string, table: string): Promise<boolean> {
  try {
    await wh.exec([`SELECT 1 FROM ${q(wh.engine, schema)}.${q(wh.engine, table)} WHERE 1 = 0`]);
    return true;
  } catch {
    return false;
  }
}

const q = (engine: Engine, name: string) => (engine === 'mysql' ? `\`${name}\`` : `"${name}"`);

/** Whether the cache schema is still in the warehouse (asked through a writable connection of the test helper). */
async function schemaExists(wh: E2eWarehouse, schema: string): Promise<boolean> {
  try {
    const table = `${q(wh.engine, schema)}.probe`;
    await wh.exec([`CREATE TABLE ${table} (x INTEGER)`, `DROP TABLE ${table}`]);
    return true;
  } catch {
    return false;
  }
}
