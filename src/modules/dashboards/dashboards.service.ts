import { Inject, Injectable } from '@nestjs/common';
import { MessageError } from '../../common/errors/api-errors';
import { SETTINGS_READER, type SettingsReader } from '../../common/settings/settings-reader';
import { EMBEDDING_DISABLED, PUBLIC_SHARING_DISABLED } from '../cards/card-sharing.service';
import type { AuthUser } from '../../common/auth/current-user';
import { CollectionAccessService } from '../collections/collection-access.service';
import { RevisionService } from '../revisions/revision.service';
import { DashboardAccessService } from './dashboard-access.service';
import { DashboardHydrator } from './dashboard-hydrator';
import { type DashboardParameter, type ParameterMapping, type ReadableDashboard } from './dashboard-model';
import { parseJson } from '../../common/database/stored-json';
import { dashboardBase, lastEditView } from './dashboard-view';
import type { DashboardFilter } from './dashboards.dto';
import { DashboardsRepository, type DashboardRow } from './dashboards.repository';

/** Reading dashboards: one, the listings, the revisions; and `readable` for the dashboard-queries module. */
@Injectable()
export class DashboardsService {
  constructor(
    private readonly repo: DashboardsRepository,
    private readonly access: DashboardAccessService,
    private readonly hydrator: DashboardHydrator,
    private readonly collections: CollectionAccessService,
    private readonly revisions: RevisionService,
    @Inject(SETTINGS_READER) private readonly settings: SettingsReader,
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

  /** GET /api/dashboard/:id: counts a view unless `countView` is false (answers of writes). */
  async get(caller: AuthUser, id: number, countView = true) {
    const { row, perm } = await this.access.readable(caller, id);
    if (countView) {
      await this.repo.bumpViews(id);
      row.view_count = Number(row.view_count) + 1;
    }
    return this.hydrator.one(caller, row, perm);
  }

  /** GET /api/dashboard/: what the caller may read; `mine` its own, `archived` the archived ones. */
  async list(caller: AuthUser, f: DashboardFilter) {
    const cond = await this.collections.readableCondition(caller, 'd.collection_id', 2);
    const where = ['d.archived = $1', cond.sql];
    const params: unknown[] = [f === 'archived', ...cond.params];
    if (f === 'mine') where.push(`d.creator_id = $${params.push(caller.id)}`);
    return this.listed(where.join(' AND '), params);
  }

  /** GET /api/dashboard/embeddable (admins, by its guard): dashboards with embedding on, when static embedding is. */
  async embeddable() {
    if (!(await this.settings.get<boolean>('enable-embedding-static'))) throw new MessageError(EMBEDDING_DISABLED);
    return this.repo.rows('d.enable_embedding = $1 AND d.archived = $2', [true, false]).then((rows) => rows.map((r) => ({ id: Number(r.id), name: r.name })));
  }

  /** GET /api/dashboard/public (admins, by its guard): dashboards with a public link, when public sharing is on. */
  async public() {
    if (!(await this.settings.get<boolean>('enable-public-sharing'))) throw new MessageError(PUBLIC_SHARING_DISABLED);
    return this.repo.rows('d.public_uuid IS NOT NULL AND d.archived = $1', [false]).then((rows) => rows.map((r) => ({ id: Number(r.id), name: r.name, public_uuid: r.public_uuid })));
  }

  async revisionList(caller: AuthUser, id: number) {
    return this.revisions.list(caller, 'dashboard', id);
  }

  async revert(caller: AuthUser, id: number, revisionId: number) {
    return this.revisions.revert(caller, 'dashboard', id, revisionId);
  }

  /** GET /api/dashboard/:id/related: other dashboards of its collection and the cards on it, as Metabase's related answer. */
  async related(caller: AuthUser, id: number) {
    const { row } = await this.access.readable(caller, id);
    const params: unknown[] = [id, false];
    const sameCollection = row.collection_id === null ? 'd.collection_id IS NULL' : `d.collection_id = $${params.push(Number(row.collection_id))}`;
    const cond = await this.collections.readableCondition(caller, 'd.collection_id', params.length + 1);
    const others = await this.repo.rows(`d.id <> $1 AND d.archived = $2 AND ${sameCollection} AND ${cond.sql}`, [...params, ...cond.params], 'd.view_count DESC, d.id');
    const brief = (r: DashboardRow) => ({ id: Number(r.id), name: r.name, description: r.description, collection_id: r.collection_id === null ? null : Number(r.collection_id), model: 'dashboard' });
    return { 'similar-dashboards': others.slice(0, 5).map(brief), dashboards: others.slice(0, 5).map(brief), collections: [], cards: [], tables: [] };
  }

  private async listed(where: string, params: unknown[]) {
    const [rows, edits] = await Promise.all([this.repo.rows(where, params), this.repo.lastEditsWhere(where, params)]);
    return rows.map((r) => ({ ...dashboardBase(r), 'last-edit-info': lastEditView(edits.get(Number(r.id))) }));
  }
}
