import { SyncService } from '../../src/modules/sync/sync.service';
import { auth, makeUserDirect, MadeUser, setupAdmin } from './factories';
import { waitForDatabase, waitForSync } from './sync-wait';
import { startTestApp, TestApp } from './test-app';

export interface SampleField {
  id: number;
  name: string;
  table_id: number;
  [key: string]: unknown;
}
export interface SampleTable {
  id: number;
  name: string;
  fields: SampleField[];
  [key: string]: unknown;
}
export interface SampleMeta {
  tables: SampleTable[];
}

export interface SampleApp {
  t: TestApp;
  admin: string;
  user: MadeUser;
  /** Id of the Sample Database. */
  db: number;
  meta: SampleMeta;
  table(name: string): SampleTable;
  /** Id of a field, by table and field name. */
  field(table: string, name: string): number;
  /** Runs a metadata sync of the Sample Database now; on failure the sync log shows why. */
  resync(): Promise<void>;
}

/** An app with the Sample Database loaded and synced, an admin and a non-admin user: the usual e2e starting point. */
export async function startSampleApp(env: Record<string, string> = {}): Promise<SampleApp> {
  const t = await startTestApp({ LOAD_SAMPLE_DATABASE: 'true', ...env });
  const admin = await setupAdmin(t);
  const db = await waitForDatabase(t, admin, 'Sample Database');
  await waitForSync(t, admin, db);
  const meta: SampleMeta = (await t.http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body;
  const user = await makeUserDirect(t);
  const table = (name: string) => {
    const found = meta.tables.find((x) => x.name === name);
    if (!found) throw new Error(`no table ${name} in the Sample Database`);
    return found;
  };
  const field = (tableName: string, name: string) => {
    const found = table(tableName).fields.find((f) => f.name === name);
    if (!found) throw new Error(`no field ${tableName}.${name} in the Sample Database`);
    return found.id;
  };
  const resync = async () => {
    const ok = await t.app.get(SyncService).run(db, 'metadata');
    const log = ok ? [] : (await t.http().get(`/api/database/${db}/sync_log`).set(auth(admin))).body;
    expect({ ok, log }).toEqual({ ok: true, log: [] });
  };
  return { t, admin, user, db, meta, table, field, resync };
}
