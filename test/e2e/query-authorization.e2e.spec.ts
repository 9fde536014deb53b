import { DataSource } from 'typeorm';
import type { AuthUser } from '../../src/common/auth/current-user';
import type { SharedGrant } from '../../src/common/auth/shared-grant';
import { ForbiddenError } from '../../src/common/errors/api-errors';
import { DatasetService } from '../../src/modules/dataset/dataset.service';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { serveCards } from '../support/cards';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

/**
 * The seam public links and signed embedding will use: a query runs for a user (their permissions apply) or for a
 * shared object a guard has verified (none apply), through the one DatasetService path.
 */
describe('who a query runs for', () => {
  let s: SampleApp;
  let user: AuthUser;
  const shared: SharedGrant = { shared: { via: 'public', model: 'card', id: 7 } };
  const native = (sql: string) => ({ database: s.db, type: 'native', native: { query: sql } });
  const signal = () => new AbortController().signal;

  beforeAll(async () => {
    s = await startSampleApp();
    user = { id: s.user.id, isSuperuser: false, groupIds: [ALL_USERS_GROUP_ID] };
    const graph = (await s.t.http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
    await s.t
      .http()
      .put('/api/permissions/graph')
      .set(auth(s.admin))
      .send({ revision: graph.revision, groups: { [ALL_USERS_GROUP_ID]: { [s.db]: { data: 'no', native: 'none' } } } })
      .expect(200);
    // A card only admins may read.
    serveCards(
      s.t.app,
      {
        41: {
          id: 41,
          databaseId: s.db,
          query: native('SELECT 41 AS answer') as never,
          resultMetadata: [{ name: 'answer', base_type: 'type/Integer' }],
        },
      },
      (_id, caller) => !caller.isSuperuser,
    );
  });
  afterAll(() => s.t.close());

  it("applies a user's permissions: without data access nothing runs", async () => {
    await expect(s.t.app.get(DatasetService).run(native('SELECT 1 AS one'), user, signal())).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      s.t.app.get(DatasetService).run({ database: s.db, type: 'query', query: { 'source-table': 'card__41' } }, user, signal()),
    ).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('runs a verified shared object without permission checks, its cards included, logged without an executor', async () => {
    const dataset = s.t.app.get(DatasetService);
    const answer = await dataset.run(native('SELECT 2 AS two'), shared, signal(), 'public-question');
    expect(answer).toMatchObject({ status: 'completed', data: { rows: [[2]] } });
    const viaCard = await dataset.run(
      {
        database: s.db,
        type: 'query',
        query: { 'source-table': 'card__41', fields: [['field', 'answer', { 'base-type': 'type/Integer' }]] },
      },
      shared,
      signal(),
      'public-question',
    );
    expect(viaCard).toMatchObject({ status: 'completed', data: { rows: [[41]] } });
    await s.t.app.get(QueryLogService).flush();
    const logged = await s.t.app.get(DataSource).query("SELECT executor_id FROM query_execution WHERE context = 'public-question'");
    expect(logged).toEqual([{ executor_id: null }, { executor_id: null }]);
  });
});
