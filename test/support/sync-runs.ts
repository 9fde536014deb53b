import { DataSource } from 'typeorm';
import { auth } from './factories';
import { TestApp } from './test-app';

export interface SyncRunView {
  id: number;
  kind: string;
  status: 'running' | 'succeeded' | 'failed';
  instance: string;
  started_at: string;
  ended_at: string | null;
  error: string | null;
  summary: Record<string, number> | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The sync log of a database, newest first (GET /api/database/:id/sync_log). */
export async function syncLog(t: TestApp, session: string, dbId: number): Promise<SyncRunView[]> {
  return (await t.http().get(`/api/database/${dbId}/sync_log`).set(auth(session)).expect(200)).body;
}

/**
 * Waits until no instance holds the database's sync lease. A sync marks the database synced and logs its run a
 * moment before it lets go of the lease, and a sync asked for while the lease is held is skipped.
 */
export async function waitForIdle(t: TestApp, dbId: number, timeoutMs = 60_000): Promise<void> {
  const ds = t.app.get(DataSource);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await ds
      .createQueryBuilder()
      .select('d.sync_lease_holder', 'holder')
      .from('metabase_database', 'd')
      .where('d.id = :id', { id: dbId })
      .getRawOne();
    if (!row?.holder) break;
    if (Date.now() > deadline) throw new Error(`database ${dbId} is still being synced by ${row.holder}`);
    await sleep(25);
  }
  await sleep(10); // the in-process bookkeeping ends right after the lease
}

/** Waits for a run newer than `afterId` to end, and answers it. */
export async function waitForRun(t: TestApp, session: string, dbId: number, afterId: number, timeoutMs = 60_000): Promise<SyncRunView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = (await syncLog(t, session, dbId)).find((r) => r.id > afterId);
    if (run && run.status !== 'running') {
      await waitForIdle(t, dbId);
      return run;
    }
    if (Date.now() > deadline) throw new Error(`no finished sync of database ${dbId} after run ${afterId}`);
    await sleep(50);
  }
}

/** POST /api/database/:id/<action> (sync_schema or rescan_values) once the database is idle, and waits for the run it starts. */
export async function syncThroughApi(
  t: TestApp,
  session: string,
  dbId: number,
  action: 'sync_schema' | 'rescan_values' = 'sync_schema',
): Promise<SyncRunView> {
  // A sync asked for while one runs joins that one: wait until none runs (one started by a create or an update may
  // have taken the lease just after it looked free).
  let last: number;
  for (;;) {
    await waitForIdle(t, dbId);
    const newest = (await syncLog(t, session, dbId))[0];
    if (newest?.status !== 'running') {
      last = newest?.id ?? 0;
      break;
    }
  }
  await t.http().post(`/api/database/${dbId}/${action}`).set(auth(session)).expect(200, { status: 'ok' });
  return waitForRun(t, session, dbId, last);
}
