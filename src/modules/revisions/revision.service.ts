import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { MessageError } from '../../common/errors/api-errors';
import { Revision } from './revision.entity';
import type { RevisionTarget } from './revision-targets';

export interface RecordRevision {
  model: string;
  modelId: number;
  userId: number | null;
  snapshot: Record<string, unknown>;
  isCreation?: boolean;
  isReversion?: boolean;
  message?: string | null;
}

/**
 * Revisions of every kind of object. Owners call `record` inside the transaction that changes the object, so an
 * object never changes without its revision; they `register` a RevisionTarget once for reverts and descriptions.
 */
@Injectable()
export class RevisionService {
  private readonly targets = new Map<string, RevisionTarget>();

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
    const before = previous ? (JSON.parse(previous.object) as Record<string, unknown>) : null;
    const description = r.isCreation ? null : (this.targets.get(r.model)?.describe(before, r.snapshot) ?? null);
    if (previous) await tx.update(Revision, { id: previous.id }, { most_recent: false });
    return tx.save(
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
  }

  /** Removes every revision of an object that is deleted for good. */
  async forget(tx: EntityManager, model: string, modelId: number): Promise<void> {
    await tx.delete(Revision, { model, model_id: modelId });
  }
}
