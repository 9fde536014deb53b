import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WatchedCache, type Watch } from '../../common/cache/watched-cache';
import { ClusterEvents } from '../../common/cluster/cluster-events';
import { parseJson } from '../../common/database/stored-json';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { DashcardRow, SeriesRow, TabRow } from '../../schema/dashboard.rows';
import type { ParameterMapping, ReadableDashcard } from './dashboard-model';
import { DashboardsRepository } from './dashboards.repository';

/** A dashboard's dashcards, their series and its tabs: the same for every viewer, read on every view and dashcard query. */
export interface DashboardLayout {
  /** In the order of the answers: row, col, id. */
  dashcards: readonly DashcardRow[];
  series: readonly SeriesRow[];
  tabs: readonly TabRow[];
  /** The dashcards with their mappings parsed and their series' card ids, as the query and parameter services read them. */
  readable: readonly ReadableDashcard[];
}

/** Only removals of these matter: the database removes the dashcards and series of a card or action (foreign keys). */
const REMOVALS: Watch = { topic: 'dashboards', inserts: false, columns: [] };

/**
 * Every write to a dashcard, a series or a tab goes through the ORM (the layout writes, card and action deletions,
 * revision reverts), which is what WatchedCache sees; and so does every removal of a card, an action or a dashboard,
 * which the database cascades to them. A dashboard's own row, its cards and their collections are not kept here: they
 * are read on each request, since views and runs change some of their columns with plain SQL.
 */
const WATCHED: Record<string, Watch> = {
  report_dashboardcard: { topic: 'dashboards', inserts: true },
  dashboardcard_series: { topic: 'dashboards', inserts: true },
  dashboard_tab: { topic: 'dashboards', inserts: true },
  report_card: REMOVALS,
  action: REMOVALS,
  report_dashboard: REMOVALS,
};

/**
 * Dashboard layouts by dashboard id. Under a crowd on one dashboard, every view and each of its dashcard queries read
 * the same three sets of rows: kept in memory, they are read once (and again after a change, here or on another
 * instance: see WatchedCache).
 */
@Injectable()
export class DashboardLayoutCache extends WatchedCache<DashboardLayout> {
  constructor(
    db: DataSource,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'settingsRefreshSeconds'>,
    private readonly repo: DashboardsRepository,
    @Optional() events: ClusterEvents = new ClusterEvents(),
  ) {
    super(db, config, events, WATCHED, ['dashboards']);
  }

  /** The layout of dashboard `id` (one that exists: the caller has read its row). */
  async of(id: number): Promise<DashboardLayout> {
    const found = await this.get(String(id), async () => ({ value: await this.load(id) }));
    return found!;
  }

  private async load(id: number): Promise<DashboardLayout> {
    const [dashcards, series, tabs] = await Promise.all([this.repo.dashcards(id), this.repo.series(id), this.repo.tabs(id)]);
    const seriesOf = new Map<number, number[]>();
    for (const s of series) {
      const list = seriesOf.get(s.dashboardcard_id) ?? [];
      list.push(s.card_id);
      seriesOf.set(s.dashboardcard_id, list);
    }
    const readable = dashcards.map((dc) => ({
      id: dc.id,
      card_id: dc.card_id,
      dashboard_tab_id: dc.dashboard_tab_id,
      parameter_mappings: parseJson<ParameterMapping[]>(dc.parameter_mappings, []),
      series_card_ids: seriesOf.get(dc.id) ?? [],
      row: dc,
    }));
    return { dashcards, series, tabs, readable };
  }
}
