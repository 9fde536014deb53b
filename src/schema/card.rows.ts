/** The rows the cards repository reads with SQL, before they are mapped to answers. */

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
  archived: boolean | number;
  archived_directly?: boolean | number;
  collection_preview: boolean | number;
  enable_embedding: boolean | number;
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
  coll_archived: boolean | number | null;
  coll_slug: string | null;
  coll_entity_id: string | null;
  coll_namespace: string | null;
  coll_description: string | null;
  u_email: string | null;
  u_first_name: string | null;
  u_last_name: string | null;
  u_is_superuser: boolean | number | null;
  u_is_qbnewb: boolean | number | null;
  u_date_joined: Date | string | null;
  u_last_login: Date | string | null;
}

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

export interface LastEdit {
  card_id: number;
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  timestamp: Date | string;
}

/** A dashboard that shows a card (as a dashcard or a series of one), with what its access check needs. */
export interface DashboardShowing {
  card_id: number;
  id: number;
  name: string;
  collection_id: number | null;
  coll_location: string | null;
  coll_personal_owner_id: number | null;
}
