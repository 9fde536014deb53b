import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { DashboardAccessService } from './dashboard-access.service';
import { parseJson, type DashboardParameter, type ParameterMapping, type ReadableDashboard } from './dashboard-model';
import { DashboardsRepository } from './dashboards.repository';

/** Reading a dashboard for others (the dashboard-queries module): access checked, dashcards and series in two queries. */
@Injectable()
export class DashboardsService {
  constructor(
    private readonly repo: DashboardsRepository,
    private readonly access: DashboardAccessService,
  ) {}

  /** The dashboard with its dashcards (404 when missing, 403 when the caller may not read its collection). */
  async readable(caller: AuthUser, id: number): Promise<ReadableDashboard> {
    const { row } = await this.access.readable(caller, id);
    const [dashcards, series] = await Promise.all([this.repo.dashcards(id), this.repo.series(id)]);
    const seriesOf = new Map<number, number[]>();
    for (const s of series) {
      const list = seriesOf.get(Number(s.dashboardcard_id)) ?? [];
      list.push(Number(s.card_id));
      seriesOf.set(Number(s.dashboardcard_id), list);
    }
    return {
      dashboard: { ...row, parameters_list: parseJson<DashboardParameter[]>(row.parameters, []) },
      dashcards: dashcards.map((dc) => ({
        id: Number(dc.id),
        card_id: dc.card_id === null ? null : Number(dc.card_id),
        dashboard_tab_id: dc.dashboard_tab_id === null ? null : Number(dc.dashboard_tab_id),
        parameter_mappings: parseJson<ParameterMapping[]>(dc.parameter_mappings, []),
        series_card_ids: seriesOf.get(Number(dc.id)) ?? [],
        row: dc,
      })),
    };
  }
}
