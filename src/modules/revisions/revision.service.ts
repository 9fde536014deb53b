import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { NotFoundError } from '../../common/errors/api-errors';
import { EventBus } from '../../common/events/event-bus';
import { Revision } from '../../schema/revision.entity';
import { RevisionTargetQuery, type DescribeContext, type RevisionTarget } from './revision-targets';
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
 * object never changes without its revision; they offer a RevisionTarget through the event bus for reverts and
 * descriptions (revision-targets.ts).
 * Only the newest MAX_REVISIONS of an object are kept, as Metabase does.
 */
@Injectable()
export class RevisionService {
  constructor(
    private readonly db: DataSource,
    private readonly repo: RevisionsRepository,
    private readonly bus: EventBus,
  ) {}

  /** Writes the revision of `snapshot`, described against the latest one, and marks it the most recent. */
  async record(tx: EntityManager, r: RecordRevision): Promise<Revision> {
    const previous = await tx.findOne(Revision, { where: { model: r.model, model_id: r.modelId, most_recent: true } });
    const before = previous ? (JSON.parse(previous.object) as Snapshot) : null;
    const description = r.isCreation
      ? null
      : ((await this.targetOf(r.model))?.describe(before, r.snapshot, await this.context(tx, before, r.snapshot)) ?? null);
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
    await (await this.known(model)).assertRead(user, id);
    const rows = await this.repo.list(model, id);
    return toRevisionViews(rows, await this.repo.authors(userIds(rows)));
  }

  /**
   * POST /api/revision/revert: writes the revision's snapshot back through the owner and records that as a new
   * revision, in one transaction. A revision of another object is 404, as in Metabase.
   */
  async revert(user: AuthUser, model: string, id: number, revisionId: number): Promise<RevisionView> {
    const target = await this.known(model);
    await target.assertWrite(user, id);
    const { saved, previous } = await this.db.transaction(async (tx) => {
      const revision = await this.repo.findOf(model, id, revisionId, tx);
      if (!revision) throw new NotFoundError();
      const latest = await this.repo.latest(tx, model, id);
      const restored = await target.restore(tx, user, id, JSON.parse(revision.object) as Snapshot);
      return {
        saved: await this.record(tx, { model, modelId: id, userId: user.id, snapshot: restored, isReversion: true }),
        previous: latest,
      };
    });
    const rows = previous ? [saved, previous] : [saved];
    return toRevisionViews(rows, await this.repo.authors(userIds(rows)))[0];
  }

  /** The target of an entity the API names; one no module answers for has no objects: 404. */
  private async known(model: string): Promise<RevisionTarget> {
    const t = await this.targetOf(model);
    if (!t) throw new NotFoundError();
    return t;
  }

  /** One module keeps each model; should another offer a target for it later (a stand-in), the later one answers. */
  private async targetOf(model: string): Promise<RevisionTarget | null> {
    return (await this.bus.ask(new RevisionTargetQuery(model))).filter((t) => t !== null).at(-1) ?? null;
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
