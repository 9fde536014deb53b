import { TestApp } from './test-app';
import { auth } from './factories';

/** Polls until the database's first sync has finished (or failed), like a user refreshing the admin page. */
export async function waitForSync(t: TestApp, session: string, dbId: number, timeoutMs = 60_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.http().get(`/api/database/${dbId}`).set(auth(session));
    if (res.status === 200 && res.body.initial_sync_status !== 'incomplete') return res.body;
    if (Date.now() > deadline) throw new Error(`database ${dbId} did not sync: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls GET /api/database until a database shows up (the Sample Database loads in the background). */
export async function waitForDatabase(t: TestApp, session: string, name: string, timeoutMs = 60_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.http().get('/api/database').set(auth(session));
    const db = res.body.data?.find((d: { name: string }) => d.name === name);
    if (db) return db.id;
    if (Date.now() > deadline) throw new Error(`no database named ${name}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
