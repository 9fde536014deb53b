import { SyncRepository } from '../../src/modules/sync/sync.repository';
import { setupAdmin } from '../support/factories';
import { waitForDatabase } from '../support/sync-wait';
import { startTestApp, TestApp } from '../support/test-app';

describe('sync run history', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it("keeps only a database's latest runs", async () => {
    t = await startTestApp({ LOAD_SAMPLE_DATABASE: 'true' });
    const db = await waitForDatabase(t, await setupAdmin(t), 'Sample Database');
    const repo = t.app.get(SyncRepository);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const run = await repo.startRun(db, 'field-values', 'test');
      ids.push(run.id);
      await repo.endRun(run, i === 4 ? 'failed on purpose' : null, {}, 3);
    }
    const kept = await repo.recentRuns(db, 100);
    expect(kept.map((r) => r.id)).toEqual(ids.slice(2).reverse());
    expect(kept[0]).toMatchObject({ status: 'failed', error: 'failed on purpose' });
  });
});
