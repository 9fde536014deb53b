import { sqlBool } from '../../common/database/row-values';
import type { CardRow, CollectionName, LastEdit } from '../../schema/card.rows';
import { collectionView } from '../cards';
import { isoTime } from '../../common/database/sql-time';
import { parseJson } from '../../common/database/stored-json';
import type { DashboardRow, DashcardRow, TabRow } from '../../schema/dashboard.rows';

const num = (v: number | string | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));

/** The dashboard's own columns, as every answer shows them (listings included). */
export function dashboardBase(row: DashboardRow) {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description,
    parameters: parseJson(row.parameters, []),
    collection_id: num(row.collection_id),
    collection_position: num(row.collection_position),
    cache_ttl: num(row.cache_ttl),
    archived: sqlBool(row.archived),
    archived_directly: sqlBool(row.archived_directly),
    width: row.width ?? 'fixed',
    auto_apply_filters: row.auto_apply_filters === null || row.auto_apply_filters === undefined ? true : sqlBool(row.auto_apply_filters),
    enable_embedding: sqlBool(row.enable_embedding),
    embedding_params: parseJson(row.embedding_params, null),
    public_uuid: row.public_uuid,
    made_public_by_id: num(row.made_public_by_id),
    creator_id: Number(row.creator_id),
    entity_id: row.entity_id,
    view_count: Number(row.view_count ?? 0),
    last_viewed_at: isoTime(row.last_viewed_at),
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    points_of_interest: row.points_of_interest ?? null,
    caveats: row.caveats ?? null,
    show_in_getting_started: sqlBool(row.show_in_getting_started),
    position: num(row.position),
    initially_published_at: null,
    embedding_type: null,
    collection_authority_level: row.coll_authority_level ?? null,
  };
}

export function lastEditView(e: LastEdit | null | undefined) {
  return e ? { id: Number(e.id), email: e.email, first_name: e.first_name, last_name: e.last_name, timestamp: isoTime(e.timestamp) } : null;
}

/** The `collection` key of a dashboard, with its effective ancestors. */
export function dashboardCollection(row: DashboardRow, ancestors: CollectionName[]) {
  return collectionView({ ...row, coll_namespace: null, coll_description: null } as unknown as CardRow, ancestors);
}

export function tabView(t: TabRow) {
  return {
    id: Number(t.id),
    dashboard_id: Number(t.dashboard_id),
    name: t.name,
    position: Number(t.position),
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
    id: Number(dc.id),
    dashboard_id: Number(dc.dashboard_id),
    card_id: num(dc.card_id),
    card,
    action_id: num(dc.action_id),
    ...(action ? { action } : {}),
    dashboard_tab_id: num(dc.dashboard_tab_id),
    row: Number(dc.row),
    col: Number(dc.col),
    size_x: Number(dc.size_x),
    size_y: Number(dc.size_y),
    parameter_mappings: parseJson(dc.parameter_mappings, []),
    visualization_settings: parseJson(dc.visualization_settings, {}),
    inline_parameters: parseJson(dc.inline_parameters, []),
    series,
    entity_id: dc.entity_id,
    created_at: isoTime(dc.created_at),
    updated_at: isoTime(dc.updated_at),
  };
}
