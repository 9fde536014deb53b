import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { MessageError, NotFoundError } from '../../common/errors/api-errors';
import { Revision } from './revision.entity';
import type { DescribeContext, RevisionTarget } from './revision-targets';
import { RevisionsRepository } from './revisions.repository';
import { RevisionView, toRevisionViews } from './revision.view';

export interface RecordRevision {
  model: string;
  modelId: number;
  userId: number | null;
  snapshot: Record<string, unknown>;
  isCreation?: boolean;
  isReversion?: boolean;
  message?: string | null;
}

type Snapshot = Record<string, unknown>;

/**
 * Revisions of every kind of object. Owners call `record` inside the transaction that changes the object, so an
 * object never changes without its revision; they `register` a RevisionTarget once for reverts and descriptions.
 * Only the newest MAX_REVISIONS of an object are kept, as Metabase does.
 */
@Injectable()
export class RevisionService {
  private readonly targets = new Map<string, RevisionTarget>();

  constructor(
    private readonly db: DataSource,
    private readonly repo: RevisionsRepository,
  ) {}

  register(model: string, target: RevisionTarget): void {
    this.targets.set(model, target);
  }

  target(model: string): RevisionTarget {
    const t = this.targets.get(model);
    if (!t) throw new MessageError(`Invalid entity: ${model}`);
    return t;
  }

  /** Writes the revision of `snapshot`, described against the latest one, and marks it the most recent. */
  async record(tx: EntityManager, r: RecordRevision): Promise<Revision> {
    const previous = await tx.findOne(Revision, { where: { model: r.model, model_id: r.modelId, most_recent: true } });
    const before = previous ? (JSON.parse(previous.object) as Snapshot) : null;
    const description = r.isCreation ? null : (this.targets.get(r.model)?.describe(before, r.snapshot, await this.context(tx, before, r.snapshot)) ?? null);
    if (previous) await tx.update(Revision, { id: previous.id }, { most_recent: false });
    const saved = await tx.save(
      tx.create(Revision, {
        model: r.model,
        model_id: r.modelId,
        user_id: r.userId,
        object: JSON.stringify(r.snapshot),
        description,
        message: r.message ?? null,
        is_creation: Boolean(r.isCreation),
        is_reversion: Boolean(r.isReversion),
        most_recent: true,
      }),
    );
    await this.repo.prune(tx, r.model, r.modelId);
    return saved;
  }

  /** Removes every revision of an object that is deleted for good. */
  async forget(tx: EntityManager, model: string, modelId: number): Promise<void> {
    await tx.delete(Revision, { model, model_id: modelId });
  }

  /** GET /api/revision: the object's revisions, newest first, each with its diff against the one before. */
  async list(user: AuthUser, model: string, id: number): Promise<RevisionView[]> {
    await this.known(model).assertRead(user, id);
    const rows = await this.repo.list(model, id);
    return toRevisionViews(rows, await this.repo.authors(userIds(rows)));
  }

  /**
   * POST /api/revision/revert: writes the revision's snapshot back through the owner and records that as a new
   * revision, in one transaction. A revision of another object is 404, as in Metabase.
   */
  async revert(user: AuthUser, model: string, id: number, revisionId: number): Promise<RevisionView> {
    const target = this.known(model);
    await target.assertWrite(user, id);
    const { saved, previous } = await this.db.transaction(async (tx) => {
      const revision = await this.repo.findOf(model, id, revisionId, tx);
      if (!revision) throw new NotFoundError();
      const latest = await this.repo.latest(tx, model, id);
      const restored = await target.restore(tx, user, id, JSON.parse(revision.object) as Snapshot);
      return { saved: await this.record(tx, { model, modelId: id, userId: user.id, snapshot: restored, isReversion: true }), previous: latest };
    });
    const rows = previous ? [saved, previous] : [saved];
    return toRevisionViews(rows, await this.repo.authors(userIds(rows)))[0];
  }

  /** The target of an entity the API names; one whose module has not registered (yet) has no objects: 404. */
  private known(model: string): RevisionTarget {
    const t = this.targets.get(model);
    if (!t) throw new NotFoundError();
    return t;
  }

  private async context(tx: EntityManager, before: Snapshot | null, after: Snapshot): Promise<DescribeContext> {
    const ids = [before?.collection_id, after.collection_id].filter((v): v is number => typeof v === 'number');
    const moved = before !== null && (before.collection_id ?? null) !== (after.collection_id ?? null);
    return { collectionNames: moved ? await this.repo.collectionNames(tx, ids) : new Map() };
  }
}

function userIds(rows: Revision[]): number[] {
  return [...new Set(rows.map((r) => r.user_id).filter((u): u is number => u !== null))];
}
