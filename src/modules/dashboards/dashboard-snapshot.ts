import { describeChanges, type DescribeContext } from '../revisions';
import type { DashboardCard } from '../../schema/dashboard-card.entity';
import type { DashboardTab } from '../../schema/dashboard-tab.entity';
import type { Dashboard } from '../../schema/dashboard.entity';
import { parseJson } from '../../common/database/stored-json';

export interface SnapshotCard {
  id: number;
  card_id: number | null;
  dashboard_tab_id: number | null;
  /** Only when the dashcard shows an action. */
  action_id?: number;
  row: number;
  col: number;
  size_x: number;
  size_y: number;
  parameter_mappings: unknown[];
  visualization_settings: Record<string, unknown>;
  inline_parameters: unknown[];
  series: number[];
}

export interface SnapshotTab {
  id: number;
  name: string;
  position: number;
}

/** The dashboard as a revision keeps it (Metabase's serialized dashboard): its editable columns, `cards` and `tabs`. */
export function dashboardSnapshot(
  d: Dashboard,
  cards: DashboardCard[],
  seriesOf: Map<number, number[]>,
  tabs: DashboardTab[],
): Record<string, unknown> {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    parameters: parseJson(d.parameters, []),
    collection_id: d.collection_id,
    collection_position: d.collection_position,
    cache_ttl: d.cache_ttl,
    archived: d.archived,
    width: d.width,
    auto_apply_filters: d.auto_apply_filters,
    enable_embedding: d.enable_embedding,
    embedding_params: parseJson(d.embedding_params, null),
    creator_id: d.creator_id,
    // Only when set, so that the snapshots of dashboards that never had them stay as they were (no revision for nothing).
    ...(d.points_of_interest !== null ? { points_of_interest: d.points_of_interest } : {}),
    ...(d.caveats !== null ? { caveats: d.caveats } : {}),
    ...(d.position !== null ? { position: d.position } : {}),
    ...(d.show_in_getting_started ? { show_in_getting_started: true } : {}),
    cards: [...cards]
      .sort((a, b) => a.id - b.id)
      .map((c): SnapshotCard => ({
        id: c.id,
        card_id: c.card_id,
        dashboard_tab_id: c.dashboard_tab_id,
        ...(c.action_id !== null && c.action_id !== undefined ? { action_id: Number(c.action_id) } : {}),
        row: c.row,
        col: c.col,
        size_x: c.size_x,
        size_y: c.size_y,
        parameter_mappings: parseJson(c.parameter_mappings, []),
        visualization_settings: parseJson(c.visualization_settings, {}),
        inline_parameters: parseJson(c.inline_parameters, []),
        series: seriesOf.get(c.id) ?? [],
      })),
    tabs: [...tabs]
      .sort((a, b) => a.position - b.position || a.id - b.id)
      .map((t): SnapshotTab => ({ id: t.id, name: t.name, position: t.position })),
  };
}

const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/** What changed in the cards: Metabase's `added a card`, `removed a card`, `rearranged the cards`, `modified the cards`. */
function cardsSentence(before: unknown, after: unknown): string | null {
  const b = Array.isArray(before) ? (before as SnapshotCard[]) : [];
  const a = Array.isArray(after) ? (after as SnapshotCard[]) : [];
  const bIds = new Set(b.map((c) => c.id));
  const aIds = new Set(a.map((c) => c.id));
  const added = a.filter((c) => !bIds.has(c.id)).length;
  const removed = b.filter((c) => !aIds.has(c.id)).length;
  if (added && !removed) return added === 1 ? 'added a card' : `added ${added} cards`;
  if (removed && !added) return removed === 1 ? 'removed a card' : `removed ${removed} cards`;
  if (added || removed) return 'modified the cards';
  const moved = a.some((c) => {
    const old = b.find((x) => x.id === c.id);
    return old && (old.row !== c.row || old.col !== c.col || old.size_x !== c.size_x || old.size_y !== c.size_y);
  });
  return moved ? 'rearranged the cards' : 'modified the cards';
}

function tabsSentence(before: unknown, after: unknown): string | null {
  const d = count(after) - count(before);
  if (d > 0) return d === 1 ? 'added a tab' : `added ${d} tabs`;
  if (d < 0) return -d === 1 ? 'removed a tab' : `removed ${-d} tabs`;
  return 'modified the tabs';
}

export function describeDashboardChange(
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
  context?: DescribeContext,
): string | null {
  return describeChanges(before, after, {
    model: 'Dashboard',
    collectionNames: context?.collectionNames,
    labels: {
      cards: (b, a) => cardsSentence(b, a),
      tabs: (b, a) => tabsSentence(b, a),
      auto_apply_filters: (_b, a) => (a ? 'set auto apply filters to true' : 'set auto apply filters to false'),
      creator_id: () => null,
      id: () => null,
    },
  });
}
