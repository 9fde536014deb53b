import { DataSource, IsNull } from 'typeorm';
import { CollectionPermission } from '../../src/schema/collection-permission.entity';
import { Collection } from '../../src/schema/collection.entity';
import { auth } from './factories';
import type { TestApp } from './test-app';

export interface MadeCard {
  id: number;
  [key: string]: unknown;
}

/** A legacy MBQL query on a table: every row, or what `inner` adds (aggregation, breakout...). */
export const tableQuery = (db: number, tableId: number, inner: Record<string, unknown> = {}) => ({
  database: db,
  type: 'query',
  query: { 'source-table': tableId, ...inner },
});

/** A native query. */
export const nativeQuery = (db: number, sql: string, tags?: Record<string, unknown>) => ({
  database: db,
  type: 'native',
  native: { query: sql, ...(tags ? { 'template-tags': tags } : {}) },
});

/** POST /api/card as `session` (200 expected): a question unless `extra.type` says otherwise. */
export async function makeCard(
  t: TestApp,
  session: string,
  datasetQuery: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<MadeCard> {
  const res = await t
    .http()
    .post('/api/card')
    .set(auth(session))
    .send({
      name: `Card ${Math.random().toString(36).slice(2, 8)}`,
      display: 'table',
      visualization_settings: {},
      dataset_query: datasetQuery,
      ...extra,
    });
  if (res.status !== 200) throw new Error(`card create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as MadeCard;
}

export const makeModel = (t: TestApp, session: string, q: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  makeCard(t, session, q, { type: 'model', ...extra });
export const makeMetric = (t: TestApp, session: string, q: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  makeCard(t, session, q, { type: 'metric', display: 'scalar', ...extra });

/** A collection made in the app DB (the collections API is another module's), under `parentId` when given: answers its id. */
export async function makeCollection(
  t: TestApp,
  name = `Coll ${Math.random().toString(36).slice(2, 8)}`,
  parentId?: number,
): Promise<number> {
  const repo = t.app.get(DataSource).getRepository(Collection);
  const parent = parentId ? await repo.findOneByOrFail({ id: parentId }) : null;
  const saved = await repo.save(repo.create({ name, location: parent ? `${parent.location}${parent.id}/` : '/' }));
  return saved.id;
}

/** Gives `groupId` `perm` on a collection (null: Root), replacing its grant there. */
export async function grant(t: TestApp, groupId: number, collectionId: number | null, perm: 'read' | 'write' | null): Promise<void> {
  const repo = t.app.get(DataSource).getRepository(CollectionPermission);
  await repo.delete({ group_id: groupId, collection_id: collectionId === null ? IsNull() : collectionId, namespace: IsNull() });
  if (perm) await repo.save(repo.create({ group_id: groupId, collection_id: collectionId, namespace: null, perm }));
}

/** A new permissions group with `userId` in it: answers the group id. */
export async function makeGroup(t: TestApp, adminSession: string, userId: number): Promise<number> {
  const group = await t
    .http()
    .post('/api/permissions/group')
    .set(auth(adminSession))
    .send({ name: `Group ${Math.random().toString(36).slice(2, 8)}` })
    .expect(200);
  await t.http().post('/api/permissions/membership').set(auth(adminSession)).send({ group_id: group.body.id, user_id: userId }).expect(200);
  return group.body.id as number;
}
