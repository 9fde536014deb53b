import type { AuthUser } from '../../common/auth/current-user';
import { BusQuery } from '../../common/events/event-bus';
import type { CardSource, PersistedSource } from '../../query-engine/metadata';

/*
 * How the modules below the cards module (tables, fields, dataset: the cards module runs its queries through them)
 * read saved questions, models and metrics: the query engine's `card__<id>` sources and `{{#id}}` tags, and the
 * virtual tables of GET /api/table/card__<id>/query_metadata. They ask the event bus; the cards module answers.
 * Without it (no answer), there is no such card.
 */

/** One column of a card's `result_metadata`, as Metabase stores it. */
export interface CardColumn {
  name: string;
  display_name?: string;
  base_type?: string;
  effective_type?: string;
  semantic_type?: string | null;
  /** The warehouse field the column comes from, when there is one. */
  id?: number | null;
  field_ref?: unknown;
  [key: string]: unknown;
}

export interface CardForMetadata {
  id: number;
  name: string;
  description: string | null;
  database_id: number;
  type: 'question' | 'model' | 'metric';
  /** Name of the card's collection; null for the root collection. */
  collection_name: string | null;
  entity_id?: string | null;
  moderated_status?: string | null;
  /** Native models keep PK/FK semantic types their owner set; nested questions do not (Metabase). */
  is_native?: boolean;
  result_metadata: CardColumn[];
}

/**
 * The card as a query source, after checking `caller` may read it: null when it does not exist; throws
 * ForbiddenError when they may not. `caller` null: the run is authorized by a verified shared object (a public
 * link or signed embed of the content that uses this card), so there is no reader to check.
 */
export class CardSourceQuery extends BusQuery<CardSource | null> {
  constructor(
    readonly id: number,
    readonly caller: AuthUser | null,
  ) {
    super();
  }
}

/**
 * The card as its virtual table needs it; null when no such (unarchived) card exists. Throws ForbiddenError when
 * `caller` may not read it.
 */
export class CardMetadataQuery extends BusQuery<CardForMetadata | null> {
  constructor(
    readonly id: number,
    readonly caller: AuthUser,
  ) {
    super();
  }
}

/**
 * The table a persisted model is read from instead of running its query; null when none is in use (the persistence
 * module answers; without it, none ever is).
 */
export class PersistedTableQuery extends BusQuery<PersistedSource | null> {
  constructor(readonly cardId: number) {
    super();
  }
}
