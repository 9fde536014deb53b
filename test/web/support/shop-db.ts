import Database from 'better-sqlite3';
import * as path from 'node:path';
import { auth } from '../../support/factories';
import { waitForSync } from '../../support/sync-wait';
import type { AppServer } from './app-server';

export interface ShopTable {
  id: number;
  /** A column's field id. */
  field(name: string): number;
}

/**
 * A small SQLite warehouse made from `sql` in the app's data directory, connected as "Shop" and synced: its id and
 * its tables by name (the browser tests' shop of products).
 */
export async function shopDatabase(app: AppServer, admin: string, sql: string): Promise<{ id: number; table(name: string): ShopTable }> {
  const file = new Database(path.join(app.dataDir, 'shop.db'));
  file.exec(sql);
  file.close();
  const http = () => app.t.http();
  const id = (
    await http()
      .post('/api/database')
      .set(auth(admin))
      .send({ engine: 'sqlite', name: 'Shop', details: { db: 'shop.db' } })
      .expect(200)
  ).body.id as number;
  await waitForSync(app.t, admin, id);
  const meta = (await http().get(`/api/database/${id}/metadata`).set(auth(admin)).expect(200)).body as {
    tables: Array<{ id: number; name: string; fields: Array<{ id: number; name: string }> }>;
  };
  return {
    id,
    table: (name) => {
      const t = meta.tables.find((x) => x.name === name)!;
      return { id: t.id, field: (f) => t.fields.find((x) => x.name === f)!.id };
    },
  };
}
