import type { DashboardData, DashboardParameter, DashboardTab, DashcardCard, DashcardData } from '../api/dashboard-view';
import type { UpdateDashboardBody } from '../api/dashboard-edit';
import { GRID_COLUMNS } from './DashboardGrid';

/**
 * The editor's working copy of a dashboard: what the person changes until Save sends it as one PUT (or Cancel drops
 * it). New dashcards and tabs have negative ids, as the API expects them.
 */
export interface Draft {
  name: string;
  description: string | null;
  auto_apply_filters: boolean;
  parameters: DashboardParameter[];
  tabs: DashboardTab[];
  dashcards: DashcardData[];
  /** The next negative id. */
  nextId: number;
}

export function draftOf(d: DashboardData): Draft {
  return {
    name: d.name,
    description: d.description,
    auto_apply_filters: d.auto_apply_filters,
    parameters: d.parameters ?? [],
    tabs: [...(d.tabs ?? [])].sort((a, b) => a.position - b.position),
    dashcards: d.dashcards,
    nextId: -1,
  };
}

/** The tab a card is drawn on: its own, else (cards of a dashboard without tabs) the first. */
export function onTab(dc: DashcardData, tab: number | null, tabs: DashboardTab[]): boolean {
  if (!tabs.length || tab === null) return true;
  return dc.dashboard_tab_id === tab || (dc.dashboard_tab_id === null && tabs[0]?.id === tab);
}

/** The first free row below the tab's cards. */
function bottom(cards: DashcardData[]): number {
  return Math.max(0, ...cards.map((c) => c.row + c.size_y));
}

export function addCard(draft: Draft, tab: number | null, card: DashcardCard | null, settings: Record<string, unknown> = {}): Draft {
  const id = draft.nextId;
  const onThisTab = draft.dashcards.filter((dc) => onTab(dc, tab, draft.tabs));
  const virtual = settings.virtual_card as { display?: string } | undefined;
  const size = card
    ? { size_x: 12, size_y: 6 }
    : virtual?.display === 'heading'
      ? { size_x: GRID_COLUMNS, size_y: 2 }
      : { size_x: 12, size_y: 2 };
  const dc: DashcardData = {
    id,
    card_id: card?.id ?? null,
    card,
    dashboard_tab_id: tab,
    col: 0,
    row: bottom(onThisTab),
    ...size,
    parameter_mappings: [],
    visualization_settings: settings,
    series: [],
  };
  return { ...draft, dashcards: [...draft.dashcards, dc], nextId: id - 1 };
}

export function duplicateCard(draft: Draft, dcId: number): Draft {
  const src = draft.dashcards.find((d) => d.id === dcId);
  if (!src) return draft;
  const id = draft.nextId;
  const onThisTab = draft.dashcards.filter((dc) => dc.dashboard_tab_id === src.dashboard_tab_id);
  const copy: DashcardData = { ...src, id, row: bottom(onThisTab), parameter_mappings: src.parameter_mappings.map((m) => ({ ...m })) };
  return { ...draft, dashcards: [...draft.dashcards, copy], nextId: id - 1 };
}

export function removeCard(draft: Draft, dcId: number): Draft {
  return { ...draft, dashcards: draft.dashcards.filter((d) => d.id !== dcId) };
}

export function updateCard(draft: Draft, dcId: number, change: Partial<DashcardData>): Draft {
  return { ...draft, dashcards: draft.dashcards.map((d) => (d.id === dcId ? { ...d, ...change } : d)) };
}

export function addTab(draft: Draft, name: string): { draft: Draft; tab: number } {
  const id = draft.nextId;
  // The first tab added to a dashboard without tabs takes its cards, as Metabase's "Tab 1" does.
  const tabs = draft.tabs.length ? draft.tabs : [{ id: id, name: 'Tab 1', position: 0 }];
  const firstId = draft.tabs.length ? null : id;
  const newId = firstId === null ? id : id - 1;
  const dashcards = firstId === null ? draft.dashcards : draft.dashcards.map((d) => ({ ...d, dashboard_tab_id: firstId }));
  const next = [...tabs, { id: newId, name, position: tabs.length }];
  return { draft: { ...draft, tabs: next, dashcards, nextId: newId - 1 }, tab: newId };
}

export function renameTab(draft: Draft, id: number, name: string): Draft {
  return { ...draft, tabs: draft.tabs.map((t) => (t.id === id ? { ...t, name } : t)) };
}

/** Moves a tab one place left (-1) or right (+1). */
export function moveTab(draft: Draft, id: number, by: -1 | 1): Draft {
  const i = draft.tabs.findIndex((t) => t.id === id);
  const j = i + by;
  if (i < 0 || j < 0 || j >= draft.tabs.length) return draft;
  const tabs = [...draft.tabs];
  [tabs[i], tabs[j]] = [tabs[j], tabs[i]];
  return { ...draft, tabs: tabs.map((t, position) => ({ ...t, position })) };
}

/** Removes a tab and its cards (the server does the same with a tab left out of the PUT). */
export function removeTab(draft: Draft, id: number): Draft {
  const tabs = draft.tabs.filter((t) => t.id !== id);
  const first = draft.tabs[0]?.id;
  const dashcards = draft.dashcards.filter((d) => d.dashboard_tab_id !== id && !(d.dashboard_tab_id === null && id === first));
  return { ...draft, tabs, dashcards };
}

/** Moves a card to another tab, below that tab's cards. */
export function moveCardToTab(draft: Draft, dcId: number, tab: number): Draft {
  const target = draft.dashcards.filter((d) => onTab(d, tab, draft.tabs));
  return updateCard(draft, dcId, { dashboard_tab_id: tab, row: bottom(target), col: 0 });
}

export function removeParameter(draft: Draft, id: string): Draft {
  return {
    ...draft,
    parameters: draft.parameters
      .filter((p) => p.id !== id)
      .map((p) => (p.filteringParameters ? { ...p, filteringParameters: p.filteringParameters.filter((f) => f !== id) } : p)),
    dashcards: draft.dashcards.map((d) => ({ ...d, parameter_mappings: d.parameter_mappings.filter((m) => m.parameter_id !== id) })),
  };
}

/** The one PUT that saves the editor's work: name, filters, tabs and every dashcard (their layout and wiring). */
export function saveBody(draft: Draft): UpdateDashboardBody {
  return {
    name: draft.name,
    description: draft.description,
    auto_apply_filters: draft.auto_apply_filters,
    parameters: draft.parameters,
    tabs: draft.tabs.map((t) => ({ id: t.id, name: t.name })),
    dashcards: draft.dashcards.map((d) => ({
      id: d.id,
      card_id: d.card_id,
      dashboard_tab_id: draft.tabs.length ? (d.dashboard_tab_id ?? draft.tabs[0].id) : null,
      col: d.col,
      row: d.row,
      size_x: d.size_x,
      size_y: d.size_y,
      parameter_mappings: d.parameter_mappings.map((m) => ({ ...m, card_id: m.card_id ?? d.card_id })),
      visualization_settings: d.visualization_settings,
      series: (d.series ?? []).map((s) => ({ id: s.id })),
      action_id: d.action_id ?? null,
    })),
  };
}
