import { Injectable } from '@nestjs/common';

/**
 * Loads actions by id as dashcards show them (`action`): `views` as GET /api/dashboard/:id does, `publicViews` as a
 * public or embedded dashboard does (no owner, no SQL).
 */
export interface DashcardActionSource {
  views(ids: number[]): Promise<Map<number, Record<string, unknown>>>;
  publicViews(ids: number[]): Promise<Map<number, Record<string, unknown>>>;
}

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
    return this.source.views(ids);
  }

  async publicViews(ids: number[]): Promise<Map<number, Record<string, unknown>>> {
    if (!this.source || ids.length === 0) return new Map();
    return this.source.publicViews(ids);
  }
}
