import { In, type EntityManager } from 'typeorm';
import { ValidationError } from '../../common/errors/api-errors';
import { DashboardCardSeries } from '../../schema/dashboard-card-series.entity';
import { DashboardCard } from '../../schema/dashboard-card.entity';
import { DashboardTab } from '../../schema/dashboard-tab.entity';
import { isMappingList, MAPPING_MSG } from '../dataset';
import { entityId } from '../../common/database/entity-id';

export const DASHCARD_MSG = 'value must be an array of dashcard maps, each with an integer `id`, `size_x`, `size_y`, `row` and `col`.';
const TAB_MSG = 'value must be an array of tab maps, each with an integer `id` and a non-blank `name`.';
const SERIES_MSG = 'value must be an array of maps with a card `id`.';

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isInteger(v);

/** One dashcard of a request, checked: ids may be negative (new), `series` are card ids. */
export interface DashcardInput {
  id: number;
  card_id: number | null;
  dashboard_tab_id: number | null;
  /** The action the dashcard shows as a button (actions module), or null. */
  action_id: number | null;
  row: number;
  col: number;
  size_x: number;
  size_y: number;
  parameter_mappings: Array<Record<string, unknown>>;
  visualization_settings: Record<string, unknown>;
  inline_parameters: unknown[];
  series: number[];
}

export interface TabInput {
  id: number;
  name: string;
}

/** The dashcards of a request body, checked (`param` names the key the errors are reported under). */
export function parseDashcards(list: Array<Record<string, unknown>>, param = 'dashcards'): DashcardInput[] {
  return list.map((m, i) => {
    const intOr = (k: string, dflt: number, min: number) => {
      const v = m[k];
      if (v === undefined || v === null) return dflt;
      if (!isInt(v) || v < min) throw ValidationError.of(param, DASHCARD_MSG, list);
      return v;
    };
    const id = m.id === undefined || m.id === null ? -(i + 1) * 1_000_000 : m.id;
    if (!isInt(id)) throw ValidationError.of(param, DASHCARD_MSG, list);
    const cardId = m.card_id ?? null;
    if (cardId !== null && (!isInt(cardId) || cardId < 1)) throw ValidationError.of(param, DASHCARD_MSG, list);
    const tabId = m.dashboard_tab_id ?? null;
    if (tabId !== null && !isInt(tabId)) throw ValidationError.of(param, DASHCARD_MSG, list);
    const actionId = m.action_id ?? null;
    if (actionId !== null && (!isInt(actionId) || actionId < 1)) throw ValidationError.of(param, DASHCARD_MSG, list);
    const mappings = m.parameter_mappings ?? [];
    if (!isMappingList(mappings)) throw ValidationError.of('parameter_mappings', MAPPING_MSG, mappings);
    const seriesRaw = m.series ?? [];
    if (!Array.isArray(seriesRaw) || !seriesRaw.every((s) => (isMap(s) && isInt(s.id) && s.id > 0) || (isInt(s) && s > 0)))
      throw ValidationError.of('series', SERIES_MSG, seriesRaw);
    const series = seriesRaw.map((s) => (isMap(s) ? (s.id as number) : (s as number)));
    const vs = m.visualization_settings ?? {};
    if (!isMap(vs)) throw ValidationError.of(param, DASHCARD_MSG, list);
    const inline = m.inline_parameters ?? [];
    if (!Array.isArray(inline)) throw ValidationError.of(param, DASHCARD_MSG, list);
    const input: DashcardInput = {
      id,
      card_id: cardId as number | null,
      dashboard_tab_id: tabId as number | null,
      action_id: actionId as number | null,
      row: intOr('row', 0, 0),
      col: intOr('col', 0, 0),
      size_x: intOr('size_x', 4, 1),
      size_y: intOr('size_y', 4, 1),
      parameter_mappings: mappings as Array<Record<string, unknown>>,
      visualization_settings: vs,
      inline_parameters: inline,
      series,
    };
    // A mapping names the card it filters: the dashcard's card or one of its series, nothing else.
    const onCard = new Set([input.card_id, ...series]);
    for (const pm of input.parameter_mappings) {
      if (pm.card_id !== undefined && pm.card_id !== null && !onCard.has(pm.card_id as number)) {
        throw ValidationError.of(
          'parameter_mappings',
          `value must map onto the dashcard's card: card ${JSON.stringify(pm.card_id)} is not on dashcard ${id}.`,
          pm,
        );
      }
    }
    return input;
  });
}

export function parseTabs(list: Array<Record<string, unknown>>): TabInput[] {
  return list.map((m) => {
    if (!isInt(m.id) || typeof m.name !== 'string' || m.name.trim() === '') throw ValidationError.of('tabs', TAB_MSG, list);
    return { id: m.id, name: m.name };
  });
}

/** What a dashboard's layout is in the app DB, read inside a transaction. */
export interface Layout {
  cards: DashboardCard[];
  seriesOf: Map<number, number[]>;
  tabs: DashboardTab[];
}

export async function loadLayout(tx: EntityManager, dashboardId: number): Promise<Layout> {
  const cards = await tx.find(DashboardCard, { where: { dashboard_id: dashboardId }, order: { id: 'ASC' } });
  const series = cards.length
    ? await tx.find(DashboardCardSeries, { where: { dashboardcard_id: In(cards.map((c) => c.id)) }, order: { position: 'ASC', id: 'ASC' } })
    : [];
  const seriesOf = new Map<number, number[]>();
  for (const s of series) seriesOf.set(s.dashboardcard_id, [...(seriesOf.get(s.dashboardcard_id) ?? []), s.card_id]);
  const tabs = await tx.find(DashboardTab, { where: { dashboard_id: dashboardId }, order: { position: 'ASC', id: 'ASC' } });
  return { cards, seriesOf, tabs };
}

/** Removes dashcards (with their series) by id. */
export async function deleteDashcards(tx: EntityManager, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.delete(DashboardCardSeries, { dashboardcard_id: In(ids) });
  await tx.delete(DashboardCard, { id: In(ids) });
}

/**
 * Makes the dashboard's tabs and dashcards those of the request, in the caller's transaction: listed ids that exist
 * are updated, others (negative ids, or ids no longer there, as a revert sends) are created, the rest deleted.
 * A dashcard's `dashboard_tab_id` may name a new tab by its request id. Undefined lists are left as they are.
 */
export async function syncLayout(
  tx: EntityManager,
  dashboardId: number,
  dashcards: DashcardInput[] | undefined,
  tabs: TabInput[] | undefined,
): Promise<void> {
  const current = await loadLayout(tx, dashboardId);
  const tabIds = new Map<number, number>(current.tabs.map((t) => [t.id, t.id]));
  let removedTabs: number[] = [];
  if (tabs) {
    const existing = new Map(current.tabs.map((t) => [t.id, t]));
    const kept = new Set<number>();
    tabIds.clear();
    for (const [position, t] of tabs.entries()) {
      const old = existing.get(t.id);
      if (old) {
        kept.add(old.id);
        if (old.name !== t.name || old.position !== position) await tx.update(DashboardTab, { id: old.id }, { name: t.name, position });
        tabIds.set(t.id, old.id);
      } else {
        const made = await tx.save(tx.create(DashboardTab, { dashboard_id: dashboardId, name: t.name, position, entity_id: entityId() }));
        tabIds.set(t.id, made.id);
      }
    }
    removedTabs = current.tabs.filter((t) => !kept.has(t.id)).map((t) => t.id);
  }
  const resolveTab = (id: number | null): number | null => {
    if (id === null) return null;
    const real = tabIds.get(id);
    if (real === undefined) throw ValidationError.of('dashboard_tab_id', 'value must be the id of a tab of this dashboard.', id);
    return real;
  };
  if (dashcards) {
    const existing = new Map(current.cards.map((c) => [c.id, c]));
    const kept = new Set<number>();
    for (const d of dashcards) {
      const old = existing.get(d.id);
      const values = {
        card_id: d.card_id,
        dashboard_tab_id: resolveTab(d.dashboard_tab_id),
        action_id: d.action_id,
        row: d.row,
        col: d.col,
        size_x: d.size_x,
        size_y: d.size_y,
        parameter_mappings: JSON.stringify(d.parameter_mappings),
        visualization_settings: JSON.stringify(d.visualization_settings),
        inline_parameters: JSON.stringify(d.inline_parameters),
      };
      let id: number;
      if (old) {
        kept.add(old.id);
        id = old.id;
        const changed = (Object.keys(values) as Array<keyof typeof values>).some((k) => String(old[k]) !== String(values[k]));
        if (changed) await tx.update(DashboardCard, { id }, values);
      } else {
        id = (await tx.save(tx.create(DashboardCard, { ...values, dashboard_id: dashboardId, entity_id: entityId() }))).id;
      }
      const oldSeries = current.seriesOf.get(id) ?? [];
      if (JSON.stringify(oldSeries) !== JSON.stringify(d.series)) {
        await tx.delete(DashboardCardSeries, { dashboardcard_id: id });
        if (d.series.length)
          await tx.insert(
            DashboardCardSeries,
            d.series.map((card_id, position) => ({ dashboardcard_id: id, card_id, position })),
          );
      }
    }
    await deleteDashcards(
      tx,
      current.cards.filter((c) => !kept.has(c.id)).map((c) => c.id),
    );
  }
  if (removedTabs.length) {
    // The dashcards of a removed tab go with it.
    const orphans = await tx.find(DashboardCard, { where: { dashboard_id: dashboardId, dashboard_tab_id: In(removedTabs) } });
    await deleteDashcards(
      tx,
      orphans.map((c) => c.id),
    );
    await tx.delete(DashboardTab, { id: In(removedTabs) });
  }
}
