/** The rows the dashboards repository reads with SQL, before they are mapped to answers. */

/** A dashboard row with its collection's columns (for the access check and the `collection` key). */
export interface DashboardRow {
  id: number;
  name: string;
  description: string | null;
  parameters: string | null;
  collection_id: number | null;
  collection_position: number | null;
  cache_ttl: number | null;
  archived: boolean | number;
  archived_directly: boolean | number;
  width: string;
  points_of_interest: string | null;
  caveats: string | null;
  position: number | null;
  show_in_getting_started: boolean | number;
  auto_apply_filters: boolean | number;
  enable_embedding: boolean | number;
  embedding_params: string | null;
  public_uuid: string | null;
  made_public_by_id: number | null;
  creator_id: number;
  entity_id: string | null;
  view_count: number;
  last_viewed_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  coll_name: string | null;
  coll_location: string | null;
  coll_personal_owner_id: number | null;
  coll_authority_level: string | null;
  coll_archived: boolean | number | null;
  coll_slug: string | null;
  coll_entity_id: string | null;
}

/** A dashcard row; `series_card_ids` is the comma-joined list of its series cards, in position order. */
export interface DashcardRow {
  id: number;
  dashboard_id: number;
  card_id: number | null;
  dashboard_tab_id: number | null;
  action_id: number | null;
  row: number;
  col: number;
  size_x: number;
  size_y: number;
  parameter_mappings: string | null;
  visualization_settings: string | null;
  inline_parameters: string | null;
  entity_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface SeriesRow {
  dashboardcard_id: number;
  card_id: number;
  position: number;
}

export interface TabRow {
  id: number;
  dashboard_id: number;
  name: string;
  position: number;
  entity_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}
