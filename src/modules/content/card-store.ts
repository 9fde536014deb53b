import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import type { CardSource } from '../../query-engine/metadata';

/**
 * Where every other module finds saved questions, models and metrics: the query engine's `card__<id>` sources and
 * `{{#id}}` tags, and the virtual tables of GET /api/table/card__<id>/query_metadata. The cards module provides this
 * token (the cards module's DbCardStore, provided by ContentModule); NoCards answers that there is no such card.
 */
export const CARD_STORE = Symbol('CARD_STORE');

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

export interface CardStore {
  /**
   * The card as a query source, after checking `caller` may read it: null when it does not exist; throws
   * ForbiddenError when they may not. `caller` null: the run is authorized by a verified shared object (a public
   * link or signed embed of the content that uses this card), so there is no reader to check.
   */
  source(id: number, caller: AuthUser | null): Promise<CardSource | null>;
  /** The card as its virtual table needs it; null when no such (unarchived) card exists. Throws ForbiddenError when `caller` may not read it. */
  resultMetadata(id: number, caller: AuthUser): Promise<CardForMetadata | null>;
}

@Injectable()
export class NoCards implements CardStore {
  async source(): Promise<CardSource | null> {
    return null;
  }

  async resultMetadata(): Promise<CardForMetadata | null> {
    return null;
  }
}
