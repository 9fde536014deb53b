import type { DataSource, EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import { EventBus } from '../../common/events/event-bus';
import type { Revision } from '../../schema/revision.entity';
import { offerRevisionTarget, type RevisionTarget } from './revision-targets';
import { RevisionService } from './revision.service';
import type { RevisionsRepository } from './revisions.repository';

/** RevisionService: what a revision records, and reverting through the owner's target; the revision table kept in memory. */
describe('RevisionService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;

  function setup(existing: Array<Partial<Revision>> = []) {
    let next = 100;
    const rows: Revision[] = existing.map((r) => ({ id: next++, most_recent: false, ...r }) as Revision);
    const tx = {
      findOne: jest.fn(
        async (_e: unknown, { where }: { where: Partial<Revision> }) =>
          rows.find((r) => r.model === where.model && r.model_id === where.model_id && r.most_recent) ?? null,
      ),
      update: jest.fn(
        async (_e: unknown, { id }: { id: number }, v: Partial<Revision>) =>
          void Object.assign(
            rows.find((r) => r.id === id)!,
            v,
          ),
      ),
      create: jest.fn((_e: unknown, v: Partial<Revision>) => ({ ...v })),
      save: jest.fn(async (v: Revision) => {
        const saved = { ...v, id: next++ };
        rows.push(saved);
        return saved;
      }),
    };
    const db = { transaction: jest.fn(async (work: (t: EntityManager) => unknown) => work(tx as unknown as EntityManager)) };
    const repo = {
      prune: jest.fn().mockResolvedValue(undefined),
      collectionNames: jest.fn().mockResolvedValue(
        new Map([
          [2, 'Old'],
          [3, 'New'],
        ]),
      ),
      findOf: jest.fn(
        async (model: string, id: number, revisionId: number) =>
          rows.find((r) => r.id === revisionId && r.model === model && r.model_id === id) ?? null,
      ),
      latest: jest.fn(
        async (_tx: unknown, model: string, id: number) =>
          rows.find((r) => r.model === model && r.model_id === id && r.most_recent) ?? null,
      ),
      authors: jest.fn().mockResolvedValue(new Map()),
      list: jest.fn().mockResolvedValue([]),
    };
    const bus = new EventBus();
    const target: jest.Mocked<RevisionTarget> = {
      assertRead: jest.fn().mockResolvedValue(undefined),
      assertWrite: jest.fn().mockResolvedValue(undefined),
      describe: jest.fn(
        (before, after, context) =>
          `changed ${JSON.stringify(before)} to ${JSON.stringify(after)} ${[...context!.collectionNames.values()]}`,
      ),
      restore: jest.fn(async (_tx, _u, _id, snapshot) => ({ ...snapshot, restored: true })),
    };
    offerRevisionTarget(bus, 'card', target);
    const service = new RevisionService(db as unknown as DataSource, repo as unknown as RevisionsRepository, bus);
    return { service, rows, tx: tx as unknown as EntityManager, repo, target };
  }

  it('records the new revision as the most recent, described by the owner against the previous one, and prunes', async () => {
    const m = setup([{ model: 'card', model_id: 5, object: '{"name":"A","collection_id":2}', most_recent: true }]);
    await m.service.record(m.tx, { model: 'card', modelId: 5, userId: 7, snapshot: { name: 'B', collection_id: 3 } });
    expect(m.rows.filter((r) => r.most_recent).map((r) => r.object)).toEqual(['{"name":"B","collection_id":3}']);
    expect(m.rows[1].description).toBe('changed {"name":"A","collection_id":2} to {"name":"B","collection_id":3} Old,New');
    expect(m.repo.prune).toHaveBeenCalledWith(m.tx, 'card', 5);
    // Collection names are looked up only when the object moved.
    await m.service.record(m.tx, { model: 'card', modelId: 5, userId: 7, snapshot: { name: 'C', collection_id: 3 } });
    expect(m.repo.collectionNames).toHaveBeenCalledTimes(1);
  });

  it('describes neither a creation nor a model no module keeps', async () => {
    const m = setup();
    const created = await m.service.record(m.tx, { model: 'card', modelId: 5, userId: 7, snapshot: { name: 'A' }, isCreation: true });
    expect(created).toMatchObject({ description: null, is_creation: true, most_recent: true });
    expect(m.target.describe).not.toHaveBeenCalled();
    const other = await m.service.record(m.tx, { model: 'pulse', modelId: 5, userId: 7, snapshot: {} });
    expect(other.description).toBeNull();
  });

  it('reverts through the owner after its write check, recording a reversion; a revision of another object is a 404', async () => {
    const m = setup([
      { model: 'card', model_id: 5, object: '{"name":"A"}' },
      { model: 'card', model_id: 6, object: '{"name":"X"}' },
      { model: 'card', model_id: 5, object: '{"name":"B"}', most_recent: true },
    ]);
    await expect(m.service.revert(user, 'card', 5, 101)).rejects.toBeInstanceOf(NotFoundError);
    await m.service.revert(user, 'card', 5, 100);
    expect(m.target.restore).toHaveBeenCalledWith(m.tx, user, 5, { name: 'A' });
    expect(m.rows.at(-1)).toMatchObject({ object: '{"name":"A","restored":true}', is_reversion: true, most_recent: true, user_id: 7 });

    m.target.assertWrite.mockRejectedValue(new ForbiddenError());
    await expect(m.service.revert(user, 'card', 5, 100)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.list(user, 'pulse', 5)).rejects.toBeInstanceOf(NotFoundError);
  });
});
