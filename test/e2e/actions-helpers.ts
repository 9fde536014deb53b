import { DataSource } from 'typeorm';
import { WarehouseDatabase } from '../../src/schema/database.entity';
import { createDriver, validateDetails, type Engine } from '../../src/query-engine/execute/drivers';
import { makeModel, nativeQuery, tableQuery } from '../support/card-factories';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import type { TestApp } from '../support/test-app';

/** The table the action tests write to: a primary key, a NOT NULL name and a quantity that may not go negative. */
export const ITEMS = [
  'CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(100) NOT NULL, qty INTEGER NOT NULL DEFAULT 0 CHECK (qty >= 0))',
  "INSERT INTO items (id, name, qty) VALUES (1, 'apple', 5), (2, 'pear', 3)",
];

export interface ActionWarehouse {
  wh: E2eWarehouse;
  db: number;
  table: number;
  /** An MBQL model on `items` (implicit actions), in `collectionId`. */
  model: number;
  /** A native model on the same database (query actions; no implicit ones). */
  nativeModel: number;
  /** Rows of the warehouse, read with a fresh connection. */
  rows(sql: string): Promise<unknown[][]>;
  /** Turns `database-enable-actions` on or off (the databases API does not take settings). */
  enableActions(on: boolean): Promise<void>;
}

/** A warehouse with `items`, connected, synced, with actions enabled, and two models on it in `collectionId`. */
export async function actionWarehouse(t: TestApp, admin: string, engine: Engine, collectionId: number | null): Promise<ActionWarehouse> {
  const wh = await e2eWarehouse(engine, t.config.dataDir, { statements: ITEMS });
  const db = (
    await t
      .http()
      .post('/api/database')
      .set(auth(admin))
      .send({ engine, name: `Shop ${engine} ${Math.random().toString(36).slice(2, 6)}`, details: wh.details })
      .expect(200)
  ).body.id as number;
  await waitForSync(t, admin, db);
  const meta = (await t.http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body as {
    tables: Array<{ id: number; name: string }>;
  };
  const table = meta.tables.find((x) => x.name === 'items')!.id;
  const model = (await makeModel(t, admin, tableQuery(db, table), { collection_id: collectionId, name: 'Items' })).id;
  const nativeModel = (
    await makeModel(t, admin, nativeQuery(db, 'SELECT * FROM items'), { collection_id: collectionId, name: 'Items SQL' })
  ).id;
  const enableActions = async (on: boolean) => {
    await t.app
      .get(DataSource)
      .getRepository(WarehouseDatabase)
      .update({ id: db }, { settings: { 'database-enable-actions': on } });
  };
  await enableActions(true);
  const rows = async (sql: string) => {
    const driver = createDriver(engine, validateDetails(engine, wh.details, { dataDir: t.config.dataDir }), { maxPoolSize: 1 });
    try {
      return (await driver.query(sql)).rows;
    } finally {
      await driver.close();
    }
  };
  return { wh, db, table, model, nativeModel, rows, enableActions };
}

/** A query action's body: SQL with template tags, one parameter per tag. */
export function queryActionBody(
  modelId: number,
  db: number,
  sql: string,
  tags: Record<string, 'text' | 'number'>,
  extra: Record<string, unknown> = {},
) {
  const templateTags = Object.fromEntries(
    Object.entries(tags).map(([name, type]) => [name, { id: `tag-${name}`, name, 'display-name': name.toUpperCase(), type }]),
  );
  return {
    name: `Action ${Math.random().toString(36).slice(2, 8)}`,
    type: 'query',
    model_id: modelId,
    database_id: db,
    dataset_query: { database: db, type: 'native', native: { query: sql, 'template-tags': templateTags } },
    parameters: Object.entries(tags).map(([name, type]) => ({
      id: `p-${name}`,
      slug: name,
      type: type === 'number' ? 'number/=' : 'string/=',
      target: ['variable', ['template-tag', name]],
    })),
    visualization_settings: {},
    ...extra,
  };
}
