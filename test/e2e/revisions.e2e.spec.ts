import { DataSource } from 'typeorm';
import type { AuthUser } from '../../src/common/auth/current-user';
import { ForbiddenError, NotFoundError } from '../../src/common/errors/api-errors';
import { describeChanges } from '../../src/modules/revisions/revision-describe';
import { Revision } from '../../src/schema/revision.entity';
import { RevisionService } from '../../src/modules/revisions/revision.service';
import { offerRevisionTarget } from '../../src/modules/revisions/revision-targets';
import { EventBus } from '../../src/common/events/event-bus';
import { grant, makeCard, makeCollection, tableQuery } from '../support/card-factories';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

interface Rev {
  id: number;
  description: string | null;
  is_creation: boolean;
  is_reversion: boolean;
  diff: { before: Record<string, unknown> | null; after: Record<string, unknown> | null } | null;
  has_multiple_changes: boolean;
  user: Record<string, unknown> | null;
  [key: string]: unknown;
}

describe('revisions', () => {
  let s: SampleApp;
  let adminId: number;
  const http = () => s.t.http();
  const revisions = async (id: number, key = s.admin, entity = 'card') =>
    (await http().get(`/api/revision?entity=${entity}&id=${id}`).set(auth(key)).expect(200)).body as Rev[];
  const card = async (extra: Record<string, unknown> = {}) =>
    (await makeCard(s.t, s.admin, tableQuery(s.db, s.table('ORDERS').id), { name: 'A', ...extra })).id;

  beforeAll(async () => {
    s = await startSampleApp();
    adminId = (await http().get('/api/user/current').set(auth(s.admin)).expect(200)).body.id;
  });
  afterAll(() => s.t.close());

  it("lists a card's revisions newest first, each with what changed and who changed it", async () => {
    const id = await card();
    await http().put(`/api/card/${id}`).set(auth(s.admin)).send({ name: 'B' }).expect(200);
    await http().put(`/api/card/${id}`).set(auth(s.admin)).send({ description: 'about B', display: 'bar' }).expect(200);
    const revs = await revisions(id);
    expect(revs).toHaveLength(3);
    expect(revs[0]).toMatchObject({
      description: 'added a description and changed the display from table to bar.',
      has_multiple_changes: true,
      is_creation: false,
      is_reversion: false,
      message: null,
      diff: { before: { display: 'table' }, after: { description: 'about B', display: 'bar' } },
      user: { id: adminId, first_name: 'Ada', last_name: 'Admin', common_name: 'Ada Admin' },
    });
    expect(revs[1]).toMatchObject({
      description: 'renamed this Card from "A" to "B".',
      has_multiple_changes: false,
      diff: { before: { name: 'A' }, after: { name: 'B' } },
    });
    expect(revs[2]).toMatchObject({ description: 'created this.', is_creation: true, diff: null, has_multiple_changes: false });
    expect(revs.map((r) => r.id)).toEqual([...revs.map((r) => r.id)].sort((a, b) => b - a));
    expect(new Date(String(revs[0].timestamp)).getTime()).not.toBeNaN();
    expect(Object.keys(revs[0])).not.toEqual(expect.arrayContaining(['object', 'model', 'model_id', 'user_id']));
  });

  it('reverts a card to an earlier revision over HTTP, as a new revision', async () => {
    const id = await card();
    await http().put(`/api/card/${id}`).set(auth(s.admin)).send({ name: 'B', description: 'about B' }).expect(200);
    const creation = (await revisions(id)).find((r) => r.is_creation)!;
    const reverted = await http()
      .post('/api/revision/revert')
      .set(auth(s.admin))
      .send({ entity: 'card', id, revision_id: creation.id })
      .expect(200);
    expect(reverted.body).toMatchObject({
      is_reversion: true,
      is_creation: false,
      description: 'renamed this Card from "B" to "A" and changed the description.',
      diff: { before: { name: 'B', description: 'about B' }, after: { name: 'A' } },
      user: { id: adminId },
    });
    expect((await http().get(`/api/card/${id}`).set(auth(s.admin)).expect(200)).body).toMatchObject({ name: 'A', description: null });
    const revs = await revisions(id);
    expect(revs).toHaveLength(3);
    expect(revs[0]).toMatchObject({ id: reverted.body.id, is_reversion: true });
    // Reverting to the state it is in changes nothing but is still recorded.
    const again = await http()
      .post('/api/revision/revert')
      .set(auth(s.admin))
      .send({ entity: 'card', id, revision_id: creation.id })
      .expect(200);
    expect(again.body.description).toBe('reverted to an earlier version.');
  });

  it('refuses a revision of another object, a missing object, and kinds without revisions yet', async () => {
    const a = await card();
    const b = await card();
    const ofB = (await revisions(b))[0].id;
    expect(
      (await http().post('/api/revision/revert').set(auth(s.admin)).send({ entity: 'card', id: a, revision_id: ofB }).expect(404)).text,
    ).toBe('Not found.');
    expect(
      (await http().post('/api/revision/revert').set(auth(s.admin)).send({ entity: 'card', id: a, revision_id: 999999 }).expect(404)).text,
    ).toBe('Not found.');
    await http().get('/api/revision?entity=card&id=999999').set(auth(s.admin)).expect(404);
    await http().post('/api/revision/revert').set(auth(s.admin)).send({ entity: 'card', id: 999999, revision_id: ofB }).expect(404);
    await http().get('/api/revision?entity=dashboard&id=1').set(auth(s.admin)).expect(404);
  });

  it('checks read access to list and write access to revert', async () => {
    const coll = await makeCollection(s.t, 'Revisions restricted');
    const id = await card({ collection_id: coll });
    await http().put(`/api/card/${id}`).set(auth(s.admin)).send({ name: 'B' }).expect(200);
    const first = (await revisions(id)).find((r) => r.is_creation)!.id;
    const revert = () => http().post('/api/revision/revert').set(auth(s.user.session)).send({ entity: 'card', id, revision_id: first });

    await grant(s.t, 1, coll, null);
    expect((await http().get(`/api/revision?entity=card&id=${id}`).set(auth(s.user.session)).expect(403)).text).toBe(
      "You don't have permissions to do that.",
    );
    await revert().expect(403);

    await grant(s.t, 1, coll, 'read');
    expect(await revisions(id, s.user.session)).toHaveLength(2);
    await revert().expect(403);
    expect((await http().get(`/api/card/${id}`).set(auth(s.admin)).expect(200)).body.name).toBe('B');

    await grant(s.t, 1, coll, 'write');
    expect((await revert().expect(200)).body.user).toMatchObject({ id: s.user.id, common_name: expect.any(String) });
    expect((await http().get(`/api/card/${id}`).set(auth(s.admin)).expect(200)).body.name).toBe('A');
  });

  it('keeps the last 15 revisions of an object', async () => {
    const id = await card();
    for (let i = 1; i <= 16; i++)
      await http()
        .put(`/api/card/${id}`)
        .set(auth(s.admin))
        .send({ name: `Name ${i}` })
        .expect(200);
    const revs = await revisions(id);
    expect(revs).toHaveLength(15);
    expect(revs[0].description).toBe('renamed this Card from "Name 15" to "Name 16".');
    expect(revs.some((r) => r.is_creation)).toBe(false);
    // The oldest kept has nothing older to compare with.
    expect(revs[14].diff).toBeNull();
  });

  it('serves any kind of object whose module offers a target, reverting in one transaction', async () => {
    // A stand-in for the segments module: its object lives in a map, its revisions in the revision table.
    const segments = new Map<number, Record<string, unknown>>([[7, { name: 'Big orders', archived: false }]]);
    const failOn = new Set<string>();
    const service = s.t.app.get(RevisionService);
    offerRevisionTarget(s.t.app.get(EventBus), 'segment', {
      assertRead: async (user: AuthUser, id: number) => {
        if (!segments.has(id)) throw new NotFoundError();
        if (!user.isSuperuser && segments.get(id)!.name === 'private') throw new ForbiddenError();
      },
      assertWrite: async (user: AuthUser, id: number) => {
        if (!segments.has(id)) throw new NotFoundError();
        if (!user.isSuperuser) throw new ForbiddenError();
      },
      describe: (before, after, context) => describeChanges(before, after, { model: 'Segment', ...context }),
      restore: async (tx, _user, id, snapshot) => {
        await tx.getRepository(Revision).update({ model: 'segment', model_id: id }, { message: 'touched by a restore' });
        if (failOn.has(String(snapshot.name))) throw new Error('restore failed');
        segments.set(id, { ...snapshot });
        return { ...snapshot };
      },
    });
    const ds = s.t.app.get(DataSource);
    await ds.transaction((tx) =>
      service.record(tx, { model: 'segment', modelId: 7, userId: adminId, snapshot: segments.get(7)!, isCreation: true }),
    );
    segments.set(7, { name: 'Large orders', archived: true });
    await ds.transaction((tx) => service.record(tx, { model: 'segment', modelId: 7, userId: adminId, snapshot: segments.get(7)! }));

    const revs = await revisions(7, s.admin, 'segment');
    expect(revs.map((r) => r.description)).toEqual([
      'renamed this Segment from "Big orders" to "Large orders" and archived it.',
      'created this.',
    ]);
    await http()
      .post('/api/revision/revert')
      .set(auth(s.user.session))
      .send({ entity: 'segment', id: 7, revision_id: revs[1].id })
      .expect(403);

    // A restore that fails leaves no trace: what it wrote is rolled back with it.
    failOn.add('Big orders');
    await http().post('/api/revision/revert').set(auth(s.admin)).send({ entity: 'segment', id: 7, revision_id: revs[1].id }).expect(500);
    expect((await revisions(7, s.admin, 'segment')).map((r) => [r.message, r.is_reversion])).toEqual([
      [null, false],
      [null, false],
    ]);
    failOn.clear();

    const done = await http()
      .post('/api/revision/revert')
      .set(auth(s.admin))
      .send({ entity: 'segment', id: 7, revision_id: revs[1].id })
      .expect(200);
    expect(done.body).toMatchObject({
      is_reversion: true,
      description: 'renamed this Segment from "Large orders" to "Big orders" and unarchived it.',
    });
    expect(segments.get(7)).toEqual({ name: 'Big orders', archived: false });

    // The module looks up the names of the collections a move went between, for the owner's sentence.
    const from = await makeCollection(s.t, 'Old home');
    const to = await makeCollection(s.t, 'New home');
    for (const collection_id of [from, to, null]) {
      await ds.transaction((tx) =>
        service.record(tx, {
          model: 'segment',
          modelId: 7,
          userId: adminId,
          snapshot: { name: 'Big orders', archived: false, collection_id },
        }),
      );
    }
    expect((await revisions(7, s.admin, 'segment')).slice(0, 3).map((r) => r.description)).toEqual([
      'moved this Segment from New home to Our analytics.',
      'moved this Segment from Old home to New home.',
      'moved this Segment to Old home.',
    ]);
  });

  it('validates the entity, the ids and the body with the spec messages', async () => {
    const entity = await http().get('/api/revision?entity=table&id=1').set(auth(s.admin)).expect(400);
    expect(entity.body).toEqual({
      errors: { entity: 'value must be one of: `card`, `dashboard`, `metric`, `segment`.' },
      'specific-errors': { entity: ['value must be one of: `card`, `dashboard`, `metric`, `segment`, received: "table"'] },
    });
    expect((await http().get('/api/revision?entity=card&id=abc').set(auth(s.admin)).expect(400)).body.errors).toEqual({
      id: 'value must be an integer greater than zero.',
    });
    expect((await http().get('/api/revision?entity=card').set(auth(s.admin)).expect(400)).body.errors).toEqual({
      id: 'value must be an integer greater than zero.',
    });
    await http().get('/api/revision?entity=card&id=0').set(auth(s.admin)).expect(400);
    const body = await http().post('/api/revision/revert').set(auth(s.admin)).send({ entity: 'card', id: 1 }).expect(400);
    expect(body.body.errors).toEqual({ revision_id: 'value must be an integer greater than zero.' });
    await http().post('/api/revision/revert').set(auth(s.admin)).send({ entity: 'nope', id: 1, revision_id: 1 }).expect(400);
    expect((await http().get('/api/revision?entity=card&id=1').expect(401)).text).toBe('Unauthenticated');
  });
});
