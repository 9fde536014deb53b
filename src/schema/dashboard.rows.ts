/**
 * The rows the dashboards repository reads with SQL, before they are mapped to answers. Each is read once into its
 * typed record (typedRows with the shape beside it): ids and positions are numbers, flags booleans, on both app DBs.
 */

import type { ShapeOf } from './row-shape';

/** A dashboard row with its collection's columns (for the access check and the `collection` key). */
export interface DashboardRow {
  id: number;
  name: string;
  description: string | null;
  parameters: string | null;
  collection_id: number | null;
  collection_position: number | null;
  cache_ttl: number | null;
  archived: boolean;
  archived_directly: boolean;
  width: string;
  points_of_interest: string | null;
  caveats: string | null;
  position: number | null;
  show_in_getting_started: boolean;
  auto_apply_filters: boolean;
  enable_embedding: boolean;
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
  coll_archived: boolean | null;
  coll_slug: string | null;
  coll_entity_id: string | null;
}

export const DASHBOARD_ROW_SHAPE = {
  numbers: [
    'id',
    'collection_id',
    'collection_position',
    'cache_ttl',
    'position',
    'made_public_by_id',
    'creator_id',
    'view_count',
    'coll_personal_owner_id',
  ],
  booleans: ['archived', 'archived_directly', 'show_in_getting_started', 'auto_apply_filters', 'enable_embedding', 'coll_archived'],
} as const satisfies ShapeOf<DashboardRow>;

/** A dashcard row (its series are SeriesRows). */
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

export const DASHCARD_ROW_SHAPE = {
  numbers: ['id', 'dashboard_id', 'card_id', 'dashboard_tab_id', 'action_id', 'row', 'col', 'size_x', 'size_y'],
} as const satisfies ShapeOf<DashcardRow>;

export interface SeriesRow {
  dashboardcard_id: number;
  card_id: number;
  position: number;
}

export const SERIES_ROW_SHAPE = { numbers: ['dashboardcard_id', 'card_id', 'position'] } as const satisfies ShapeOf<SeriesRow>;

export interface TabRow {
  id: number;
  dashboard_id: number;
  name: string;
  position: number;
  entity_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export const TAB_ROW_SHAPE = { numbers: ['id', 'dashboard_id', 'position'] } as const satisfies ShapeOf<TabRow>;

/** A collection where a dashboard goes, for the write check. */
export interface CollectionPlaceRow {
  id: number;
  location: string;
  personal_owner_id: number | null;
}

export const COLLECTION_PLACE_ROW_SHAPE = { numbers: ['id', 'personal_owner_id'] } as const satisfies ShapeOf<CollectionPlaceRow>;
