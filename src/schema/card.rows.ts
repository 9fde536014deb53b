/**
 * The rows the cards repository reads with SQL, before they are mapped to answers. Each comes with its RowShape: the
 * repository reads its rows with typedRows, so the numbers and booleans below are what callers get on both app DBs.
 */

import type { ShapeOf } from './row-shape';

/** A card as the listings and the mapper read it: the card's columns, its collection's and its creator's. */
export interface CardRow {
  id: number;
  name: string;
  description: string | null;
  display: string;
  dataset_query: string;
  visualization_settings: string;
  parameters: string | null;
  parameter_mappings: string | null;
  result_metadata: string | null;
  type: string;
  query_type: string | null;
  database_id: number | null;
  table_id: number | null;
  source_card_id: number | null;
  /** Set on a question saved into a dashboard (it lives there only). */
  dashboard_id?: number | null;
  collection_id: number | null;
  collection_position: number | null;
  cache_ttl: number | null;
  archived: boolean;
  archived_directly: boolean;
  collection_preview: boolean;
  enable_embedding: boolean;
  embedding_params: string | null;
  public_uuid: string | null;
  made_public_by_id: number | null;
  creator_id: number;
  entity_id: string | null;
  view_count: number;
  last_used_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  coll_name: string | null;
  coll_location: string | null;
  coll_personal_owner_id: number | null;
  coll_authority_level: string | null;
  coll_archived: boolean | null;
  coll_slug: string | null;
  coll_entity_id: string | null;
  coll_namespace: string | null;
  coll_description: string | null;
  u_email: string | null;
  u_first_name: string | null;
  u_last_name: string | null;
  u_is_superuser: boolean | null;
  u_is_qbnewb: boolean | null;
  u_date_joined: Date | string | null;
  u_last_login: Date | string | null;
}

/** CardRow's and CardListRow's numeric and boolean columns (those of the joined collection and creator included). */
export const CARD_ROW_SHAPE = {
  numbers: [
    'id',
    'database_id',
    'table_id',
    'source_card_id',
    'dashboard_id',
    'collection_id',
    'collection_position',
    'cache_ttl',
    'made_public_by_id',
    'creator_id',
    'view_count',
    'coll_personal_owner_id',
  ],
  booleans: ['archived', 'archived_directly', 'collection_preview', 'enable_embedding', 'coll_archived', 'u_is_superuser', 'u_is_qbnewb'],
} as const satisfies ShapeOf<CardRow>;

/** A card as a listing reads it: no visualization settings, parameters or result metadata (the biggest columns). */
export type CardListRow = Omit<
  CardRow,
  | 'visualization_settings'
  | 'parameters'
  | 'parameter_mappings'
  | 'result_metadata'
  | 'embedding_params'
  | 'coll_slug'
  | 'coll_entity_id'
  | 'coll_namespace'
  | 'coll_description'
  | 'u_is_superuser'
  | 'u_is_qbnewb'
  | 'u_date_joined'
  | 'u_last_login'
>;

export interface CollectionName {
  id: number;
  name: string;
  location: string;
  personal_owner_id: number | null;
  authority_level: string | null;
  slug: string | null;
  entity_id: string | null;
}

export const COLLECTION_NAME_SHAPE = { numbers: ['id', 'personal_owner_id'] } as const satisfies ShapeOf<CollectionName>;

export interface LastEdit {
  card_id: number;
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  timestamp: Date | string;
}

export const LAST_EDIT_SHAPE = { numbers: ['card_id', 'id'] } as const satisfies ShapeOf<LastEdit>;

/** A dashboard that shows a card (as a dashcard or a series of one), with what its access check needs. */
export interface DashboardShowing {
  card_id: number;
  id: number;
  name: string;
  collection_id: number | null;
  coll_location: string | null;
  coll_personal_owner_id: number | null;
}

export const DASHBOARD_SHOWING_SHAPE = {
  numbers: ['card_id', 'id', 'collection_id', 'coll_personal_owner_id'],
} as const satisfies ShapeOf<DashboardShowing>;

/** A card by id and name (the embeddable cards); `public_uuid` for those with a public link. */
export interface CardName {
  id: number;
  name: string;
}

export interface PublicCard extends CardName {
  public_uuid: string;
}

/** A card type found in a collection. */
export interface CollectionCardType {
  collection_id: number;
  type: string;
}

export const COLLECTION_CARD_TYPE_SHAPE = { numbers: ['collection_id'] } as const satisfies ShapeOf<CollectionCardType>;
