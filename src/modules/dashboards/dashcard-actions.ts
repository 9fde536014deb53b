import { Injectable } from '@nestjs/common';

/** Loads actions by id as GET /api/dashboard/:id shows them on their dashcards (`action`). */
export type DashcardActionSource = (ids: number[]) => Promise<Map<number, Record<string, unknown>>>;

/**
 * Where the actions module plugs in the actions of action buttons (dashcards with an `action_id`): the dashboards
 * module does not depend on it (it depends on this one). Without a source, dashcards show no `action`.
 */
@Injectable()
export class DashcardActionsRegistry {
  private source: DashcardActionSource | null = null;

  register(source: DashcardActionSource): void {
    this.source = source;
  }

  async views(ids: number[]): Promise<Map<number, Record<string, unknown>>> {
    if (!this.source || ids.length === 0) return new Map();
    return this.source(ids);
  }
}
