import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { BusQuery, type EventBus } from '../../common/events/event-bus';

/** What the revision module looks up for a description: the names of the collections a `collection_id` change moved between. */
export interface DescribeContext {
  collectionNames: ReadonlyMap<number, string>;
}

/**
 * What the revision module needs from a kind of object it keeps revisions of (card, dashboard, metric, segment):
 * the owning module answers RevisionTargetQuery with one (`offerRevisionTarget`), so revisions never import the
 * modules that use them.
 */
export interface RevisionTarget {
  /** Throws NotFoundError when the object is gone, ForbiddenError when `user` may not read it. */
  assertRead(user: AuthUser, id: number): Promise<void>;
  /** Throws as `assertRead`, and ForbiddenError when `user` may not change it. */
  assertWrite(user: AuthUser, id: number): Promise<void>;
  /**
   * A readable sentence of what changed, such as `renamed this Card from "A" to "B".`; null when nothing did.
   * `describeChanges` (revision-describe.ts) writes Metabase's sentences; `context` carries what it looks up.
   */
  describe(before: Record<string, unknown> | null, after: Record<string, unknown>, context?: DescribeContext): string | null;
  /** Writes `snapshot` back onto the object inside `tx` and answers its new snapshot (recorded as a reversion). */
  restore(tx: EntityManager, user: AuthUser, id: number, snapshot: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** Which module keeps the objects of `model`: that module answers with its target, the others with null. */
export class RevisionTargetQuery extends BusQuery<RevisionTarget | null> {
  constructor(readonly model: string) {
    super();
  }
}

/** Answers RevisionTargetQuery for `model` with `target` (at start-up, by the module that owns the objects). */
export function offerRevisionTarget(bus: EventBus, model: string, target: RevisionTarget): void {
  bus.answer(RevisionTargetQuery, (q) => (q.model === model ? target : null));
}
