import type { DataSource } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError } from '../../common/errors/api-errors';
import type { SettingsReader } from '../../common/settings/settings-reader';
import { EMBEDDING_DISABLED, PUBLIC_SHARING_DISABLED } from '../cards';
import type { CollectionAccessService } from '../collections';
import type { RevisionService } from '../revisions';
import type { DashboardAccessService } from './dashboard-access.service';
import type { DashboardHydrator } from './dashboard-hydrator';
import type { DashboardsRepository } from './dashboards.repository';
import { DashboardLayoutCache } from './dashboard-layout.cache';
import { DashboardsService } from './dashboards.service';

/** DashboardsService: the dashboard as other modules read it, view counts, and the sharing listings' switches. */
describe('DashboardsService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const row = { id: 4, name: 'Sales', parameters: JSON.stringify([{ id: 'p', type: 'category' }]), view_count: 2, collection_id: null };

  function setup(settings: Record<string, boolean> = {}) {
    const repo = {
      dashcards: jest.fn().mockResolvedValue([
        { id: 1, card_id: 3, dashboard_tab_id: null, parameter_mappings: JSON.stringify([{ parameter_id: 'p', card_id: 3 }]) },
        { id: 2, card_id: null, dashboard_tab_id: 8, parameter_mappings: null },
      ]),
      series: jest.fn().mockResolvedValue([
        { dashboardcard_id: 1, card_id: 5 },
        { dashboardcard_id: 1, card_id: 6 },
      ]),
      bumpViews: jest.fn().mockResolvedValue(undefined),
      embeddable: jest.fn().mockResolvedValue([{ id: 4, name: 'Sales', public_uuid: 'u-4' }]),
      withPublicLinks: jest.fn().mockResolvedValue([{ id: 4, name: 'Sales', public_uuid: 'u-4' }]),
    };
    const access = { readable: jest.fn(async () => ({ row: { ...row }, perm: 'read' })) };
    const hydrator = { one: jest.fn(async (_c: AuthUser, r: typeof row) => ({ id: r.id, view_count: r.view_count })) };
    const service = new DashboardsService(
      repo as unknown as DashboardsRepository,
      access as unknown as DashboardAccessService,
      hydrator as unknown as DashboardHydrator,
      layoutsOver(repo),
      {} as CollectionAccessService,
      {} as RevisionService,
      { get: jest.fn(async (k: string) => settings[k] ?? false) } as unknown as SettingsReader,
    );
    return { service, repo, access };
  }

  it('reads a dashboard with its parameters and each dashcard with its mappings and series', async () => {
    const found = await setup().service.readable(user, 4);
    expect(found.dashboard.parameters_list).toEqual([{ id: 'p', type: 'category' }]);
    expect(found.dashcards.map((dc) => [dc.id, dc.card_id, dc.dashboard_tab_id, dc.series_card_ids, dc.parameter_mappings.length])).toEqual(
      [
        [1, 3, null, [5, 6], 1],
        [2, null, 8, [], 0],
      ],
    );
    const denied = setup();
    denied.access.readable.mockRejectedValue(new ForbiddenError());
    await expect(denied.service.readable(user, 4)).rejects.toBeInstanceOf(ForbiddenError);
    expect(denied.repo.dashcards).not.toHaveBeenCalled();
  });

  it('counts a view on a plain read only, and answers it counted', async () => {
    const m = setup();
    await expect(m.service.get(user, 4)).resolves.toMatchObject({ view_count: 3, last_used_param_values: {} });
    await expect(m.service.get(user, 4, false)).resolves.toMatchObject({ view_count: 2 });
    expect(m.repo.bumpViews).toHaveBeenCalledTimes(1);
  });

  it('lists embeddable and public dashboards only while their feature is on', async () => {
    const off = setup();
    expect(((await off.service.embeddable().catch((x: unknown) => x)) as MessageError).message).toBe(EMBEDDING_DISABLED);
    expect(((await off.service.public().catch((x: unknown) => x)) as MessageError).message).toBe(PUBLIC_SHARING_DISABLED);
    expect(off.repo.embeddable).not.toHaveBeenCalled();
    expect(off.repo.withPublicLinks).not.toHaveBeenCalled();
    const on = setup({ 'enable-embedding-static': true, 'enable-public-sharing': true });
    await expect(on.service.public()).resolves.toEqual([{ id: 4, name: 'Sales', public_uuid: 'u-4' }]);
    await expect(on.service.embeddable()).resolves.toEqual([{ id: 4, name: 'Sales' }]);
  });
});

/** The real layout cache over the mocked repository, keeping nothing (each read goes to the mocks). */
function layoutsOver(repo: object): DashboardLayoutCache {
  const rows = { tabs: jest.fn().mockResolvedValue([]), ...repo } as unknown as DashboardsRepository;
  return new DashboardLayoutCache({ subscribers: [] } as unknown as DataSource, { settingsRefreshSeconds: 0 }, rows);
}
