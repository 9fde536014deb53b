import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';

/**
 * Where GET /api/table/card__:id/query_metadata finds a saved question. Cards live in another module (not written
 * yet); it plugs in by providing this token. Until then the default answers null and the endpoint 404s.
 */
export const CARD_METADATA_SOURCE = 'CARD_METADATA_SOURCE';

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

export interface CardMetadataSource {
  /**
   * The card as the virtual table needs it; null when no such (unarchived) card exists. Throws ForbiddenError when
   * `user` may not read it.
   */
  resultMetadata(cardId: number, user: AuthUser): Promise<CardForMetadata | null>;
}

@Injectable()
export class NoCardMetadata implements CardMetadataSource {
  async resultMetadata(): Promise<CardForMetadata | null> {
    return null;
  }
}
