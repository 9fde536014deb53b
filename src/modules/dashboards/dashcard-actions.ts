import { BusQuery, type EventBus } from '../../common/events/event-bus';

type ActionViews = Map<number, Record<string, unknown>>;

/**
 * The actions of action buttons (dashcards with an `action_id`) by id, as dashcards show them (`action`): for a
 * `user` as GET /api/dashboard/:id does, for the `public` as a public or embedded dashboard does (no owner, no
 * SQL). The actions module answers; the dashboards module does not depend on it.
 */
export class DashcardActionsQuery extends BusQuery<ActionViews> {
  constructor(
    readonly ids: number[],
    readonly audience: 'user' | 'public',
  ) {
    super();
  }
}

/** The answer to DashcardActionsQuery; without action ids, or without an answer, dashcards show no `action`. */
export async function dashcardActions(bus: EventBus, ids: number[], audience: 'user' | 'public'): Promise<ActionViews> {
  if (ids.length === 0) return new Map();
  return (await bus.askOne(new DashcardActionsQuery(ids, audience))) ?? new Map();
}
