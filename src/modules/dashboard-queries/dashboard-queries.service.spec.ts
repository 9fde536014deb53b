import { MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { AuthUser } from '../../common/auth/current-user';
import type { CardQueriesService } from '../cards/card-queries.service';
import type { DashboardsService } from '../dashboards/dashboards.service';
import { DashboardQueriesService } from './dashboard-queries.service';

describe('DashboardQueriesService', () => {
  const caller = { id: 1, isSuperuser: false } as unknown as AuthUser;
  const target = ['dimension', ['field', 9, null]];
  const readable = jest.fn().mockResolvedValue({
    dashboard: { parameters_list: [{ id: 'p', type: 'category' }] },
    dashcards: [{ id: 3, card_id: 7, series_card_ids: [8], parameter_mappings: [{ parameter_id: 'p', card_id: 8, target }] }],
  });
  const run = jest.fn().mockResolvedValue({ status: 'completed' });
  const service = new DashboardQueriesService(
    { readable } as unknown as DashboardsService,
    { run, pivot: run } as unknown as CardQueriesService,
  );
  const signal = new AbortController().signal;

  it('runs a series card of the dashcard with its mapped parameters, in the dashboard context', async () => {
    await service.run(caller, { dashboardId: 2, dashcardId: 3, cardId: 8, parameters: [{ id: 'p', value: 'x' }] }, signal);
    expect(run).toHaveBeenCalledWith(
      caller,
      8,
      { parameters: [{ id: 'p', type: 'category', target, value: 'x' }], ignoreCache: false, dashboardId: 2, context: 'dashboard' },
      signal,
    );
  });

  it('refuses (404) a card not on the dashcard and a dashcard not on the dashboard, before running anything', async () => {
    run.mockClear();
    await expect(service.run(caller, { dashboardId: 2, dashcardId: 3, cardId: 9 }, signal)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.pivot(caller, { dashboardId: 2, dashcardId: 4, cardId: 7 }, signal)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      service.run(caller, { dashboardId: 2, dashcardId: 3, cardId: 7, parameters: [{ id: 'q', value: 1 }] }, signal),
    ).rejects.toBeInstanceOf(MessageError);
    expect(run).not.toHaveBeenCalled();
  });
});
