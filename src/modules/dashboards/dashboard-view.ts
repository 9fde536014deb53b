import type { CardRow, CollectionName, LastEdit } from '../../schema/card.rows';
import { collectionView } from '../cards';
import { isoTime } from '../../common/database/sql-time';
import { parseJson } from '../../common/database/stored-json';
import type { DashboardRow, DashcardRow, TabRow } from '../../schema/dashboard.rows';

/** The dashboard's own columns, as every answer shows them (listings included). */
export function dashboardBase(row: DashboardRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    parameters: parseJson(row.parameters, []),
    collection_id: row.collection_id,
    collection_position: row.collection_position,
    cache_ttl: row.cache_ttl,
    archived: row.archived,
    archived_directly: row.archived_directly,
    width: row.width ?? 'fixed',
    auto_apply_filters: row.auto_apply_filters ?? true,
    enable_embedding: row.enable_embedding,
    embedding_params: parseJson(row.embedding_params, null),
    public_uuid: row.public_uuid,
    made_public_by_id: row.made_public_by_id,
    creator_id: row.creator_id,
    entity_id: row.entity_id,
    view_count: row.view_count,
    last_viewed_at: isoTime(row.last_viewed_at),
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    points_of_interest: row.points_of_interest ?? null,
    caveats: row.caveats ?? null,
    show_in_getting_started: row.show_in_getting_started,
    position: row.position,
    initially_published_at: null,
    embedding_type: null,
    collection_authority_level: row.coll_authority_level ?? null,
  };
}

export function lastEditView(e: LastEdit | null | undefined) {
  return e ? { id: e.id, email: e.email, first_name: e.first_name, last_name: e.last_name, timestamp: isoTime(e.timestamp) } : null;
}

/** The `collection` key of a dashboard, with its effective ancestors. */
export function dashboardCollection(row: DashboardRow, ancestors: CollectionName[]) {
  return collectionView({ ...row, coll_namespace: null, coll_description: null } as unknown as CardRow, ancestors);
}

export function tabView(t: TabRow) {
  return {
    id: t.id,
    dashboard_id: t.dashboard_id,
    name: t.name,
    position: t.position,
    entity_id: t.entity_id,
    created_at: isoTime(t.created_at),
    updated_at: isoTime(t.updated_at),
  };
}

/** A dashcard with its card and series as already mapped (and the action of an action button, when it has one). */
export function dashcardView(
  dc: DashcardRow,
  card: Record<string, unknown> | null,
  series: Record<string, unknown>[],
  action: Record<string, unknown> | null = null,
) {
  return {
    id: dc.id,
    dashboard_id: dc.dashboard_id,
    card_id: dc.card_id,
    card,
    action_id: dc.action_id,
    ...(action ? { action } : {}),
    dashboard_tab_id: dc.dashboard_tab_id,
    row: dc.row,
    col: dc.col,
    size_x: dc.size_x,
    size_y: dc.size_y,
    parameter_mappings: parseJson(dc.parameter_mappings, []),
    visualization_settings: parseJson(dc.visualization_settings, {}),
    inline_parameters: parseJson(dc.inline_parameters, []),
    series,
    entity_id: dc.entity_id,
    created_at: isoTime(dc.created_at),
    updated_at: isoTime(dc.updated_at),
  };
}
