import { randomBytes } from 'node:crypto';
import { auth } from './factories';
import { TestApp } from './test-app';

export interface MadeCollection {
  id: number;
  name: string;
  location: string;
  [key: string]: unknown;
}

/** A collection made through the API by `session` (an admin's, unless the test is about who may create). */
export async function makeCollection(t: TestApp, session: string, body: Record<string, unknown> = {}): Promise<MadeCollection> {
  const res = await t
    .http()
    .post('/api/collection')
    .set(auth(session))
    .send({ name: `Coll ${randomBytes(3).toString('hex')}`, ...body });
  if (res.status !== 200) throw new Error(`collection create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as MadeCollection;
}

/** A new group holding `userIds`. */
export async function makeGroup(
  t: TestApp,
  admin: string,
  userIds: number[] = [],
  name = `Group ${randomBytes(3).toString('hex')}`,
): Promise<number> {
  const id = (await t.http().post('/api/permissions/group').set(auth(admin)).send({ name }).expect(200)).body.id as number;
  for (const user_id of userIds)
    await t.http().post('/api/permissions/membership').set(auth(admin)).send({ group_id: id, user_id }).expect(200);
  return id;
}

/** Sets one group's permission on one collection (or the Root) through the graph, at its current revision. */
export async function grant(
  t: TestApp,
  admin: string,
  groupId: number,
  collection: number | 'root',
  perm: 'read' | 'write' | 'none',
  namespace?: string,
): Promise<void> {
  const q = namespace ? `?namespace=${namespace}` : '';
  const { revision } = (await t.http().get(`/api/collection/graph${q}`).set(auth(admin)).expect(200)).body;
  const res = await t
    .http()
    .put(`/api/collection/graph${q}`)
    .set(auth(admin))
    .send({ revision, groups: { [groupId]: { [collection]: perm } } });
  if (res.status !== 200) throw new Error(`grant failed: ${res.status} ${JSON.stringify(res.body)}`);
}
