import { Inject, Injectable } from '@nestjs/common';
import { MessageError } from '../../common/errors/api-errors';
import { SETTINGS_READER, type SettingsReader } from '../../common/settings/settings-reader';
import { EMBEDDING_DISABLED, PUBLIC_SHARING_DISABLED } from '../cards';
import type { AuthUser } from '../../common/auth/current-user';
import type { Reader } from '../../common/auth/shared-grant';
import { CollectionAccessService } from '../collections';
import { RevisionService } from '../revisions';
import { DashboardAccessService } from './dashboard-access.service';
import { DashboardHydrator } from './dashboard-hydrator';
import { DashboardLayoutCache } from './dashboard-layout.cache';
import { type DashboardParameter, type ReadableDashboard } from './dashboard-model';
import { parseJson } from '../../common/database/stored-json';
import { dashboardBase, lastEditView } from './dashboard-view';
import type { DashboardFilter } from './dashboards.dto';
import { DashboardsRepository } from './dashboards.repository';
import { type DashboardRow } from '../../schema/dashboard.rows';

/** Reading dashboards: one, the listings, the revisions; and `readable` for the dashboard-queries module. */
@Injectable()
export class DashboardsService {
  constructor(
    private readonly repo: DashboardsRepository,
    private readonly access: DashboardAccessService,
    private readonly hydrator: DashboardHydrator,
    private readonly layouts: DashboardLayoutCache,
    private readonly collections: CollectionAccessService,
    private readonly revisions: RevisionService,
    @Inject(SETTINGS_READER) private readonly settings: SettingsReader,
  ) {}

  /** The dashboard with its dashcards and tabs (404 when missing, 403 when the caller may not read it). */
  async readable(caller: Reader, id: number): Promise<ReadableDashboard> {
    const { row } = await this.access.readable(caller, id);
    const layout = await this.layouts.of(id);
    return {
      dashboard: { ...row, parameters_list: parseJson<DashboardParameter[]>(row.parameters, []) },
      dashcards: layout.readable,
      tabs: layout.tabs,
    };
  }

  /** GET /api/dashboard/:id: counts a view unless `countView` is false (answers of writes). */
  async get(caller: AuthUser, id: number, countView = true) {
    const { row, perm } = await this.access.readable(caller, id);
    if (countView) {
      await this.repo.bumpViews(id);
      row.view_count += 1;
    }
    // Parameter values are not remembered per user here: Metabase's default for that is an empty map.
    return { ...(await this.hydrator.one(caller, row, perm)), last_used_param_values: {} };
  }

  /** GET /api/dashboard/: what the caller may read; `mine` its own, `archived` the archived ones. */
  async list(caller: AuthUser, f: DashboardFilter) {
    const { rows, edits } = await this.repo.list({
      archived: f === 'archived',
      readable: await this.collections.readableWhere(caller, 'd.collection_id'),
      ...(f === 'mine' ? { creatorId: caller.id } : {}),
    });
    return rows.map((r) => ({ ...dashboardBase(r), 'last-edit-info': lastEditView(edits.get(r.id)) }));
  }

  /** GET /api/dashboard/embeddable (admins, by its guard): dashboards with embedding on, when static embedding is. */
  async embeddable() {
    if (!(await this.settings.get<boolean>('enable-embedding-static'))) throw new MessageError(EMBEDDING_DISABLED);
    return (await this.repo.embeddable()).map((r) => ({ id: r.id, name: r.name }));
  }

  /** GET /api/dashboard/public (admins, by its guard): dashboards with a public link, when public sharing is on. */
  async public() {
    if (!(await this.settings.get<boolean>('enable-public-sharing'))) throw new MessageError(PUBLIC_SHARING_DISABLED);
    return (await this.repo.withPublicLinks()).map((r) => ({ id: r.id, name: r.name, public_uuid: r.public_uuid }));
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
    const others = await this.repo.sameCollection(row, await this.collections.readableWhere(caller, 'd.collection_id'));
    const brief = (r: DashboardRow) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      collection_id: r.collection_id,
      model: 'dashboard',
    });
    return {
      'similar-dashboards': others.slice(0, 5).map(brief),
      dashboards: others.slice(0, 5).map(brief),
      collections: [],
      cards: [],
      tables: [],
    };
  }
}
