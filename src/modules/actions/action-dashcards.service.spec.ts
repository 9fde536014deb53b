import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { DashboardAccessService } from '../dashboards';
import { ActionDashcardsService } from './action-dashcards.service';
import type { ActionPrefill } from './action-prefill.service';
import type { ActionRunner } from './action-runner.service';
import type { ActionRow, ActionsRepository } from './actions.repository';
import type { ActionsService } from './actions.service';

/** ActionDashcardsService: which dashcard actions run, for whom, and how dashboard values reach the action's parameters. */
/** The rows the caller may write, as ActionsService.assertMayRun answers them: handed to the runner. */
const SCOPE = { kind: 'filtered', filters: [[{ column: 'OWNER', values: [3] }]] };

describe('ActionDashcardsService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const tag = (name: string) => ['variable', ['template-tag', name]];
  const mappings = [
    { parameter_id: 'dash-qty', target: tag('qty') },
    { parameter_id: 'dash-id', target: ['variable', ['template-tag', 'id']] },
  ];

  function setup(opts: { dashcard?: unknown; action?: Partial<ActionRow> | null } = {}) {
    const repo = {
      dashcard: jest
        .fn()
        .mockResolvedValue(opts.dashcard === undefined ? { action_id: 9, parameter_mappings: JSON.stringify(mappings) } : opts.dashcard),
      row: jest.fn().mockResolvedValue(opts.action === null ? null : { id: 9, archived: false, ...opts.action }),
    };
    const runner = {
      parameters: jest.fn().mockResolvedValue([
        { id: 'p-qty', target: tag('qty') },
        { id: 'id', target: tag('other') },
      ]),
      execute: jest.fn().mockResolvedValue({ 'rows-updated': [1] }),
    };
    const actions = { assertMayRun: jest.fn().mockResolvedValue(SCOPE) };
    const dashboards = { readable: jest.fn().mockResolvedValue({}) };
    const prefills = { values: jest.fn().mockResolvedValue({ qty: 1 }) };
    const service = new ActionDashcardsService(
      repo as unknown as ActionsRepository,
      runner as unknown as ActionRunner,
      actions as unknown as ActionsService,
      dashboards as unknown as DashboardAccessService,
      prefills as unknown as ActionPrefill,
    );
    return { service, runner, actions, dashboards, prefills };
  }

  it("maps the dashboard's values onto the action's parameters by target or tag name, the typed values on top", async () => {
    const m = setup();
    await m.service.execute(user, 4, 1, { 'dash-qty': 5, 'dash-id': 12 }, { note: 'typed', 'p-qty': 6 });
    expect(m.runner.execute).toHaveBeenCalledWith(expect.objectContaining({ id: 9 }), { 'p-qty': 6, id: 12, note: 'typed' }, SCOPE);
  });

  it('names the dashboard parameters that map to nothing', async () => {
    const e = await setup()
      .service.execute(user, 4, 1, { 'dash-qty': 5, stray: 1 }, {})
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).message).toBe('No destination parameter found for #{"stray"}. Found: #{"dash-qty" "dash-id"}');
  });

  it('checks a signed-in caller reads the dashboard and may run the action; a public link needs neither', async () => {
    const denied = setup();
    denied.actions.assertMayRun.mockRejectedValue(new ForbiddenError());
    await expect(denied.service.execute(user, 4, 1, {}, {})).rejects.toBeInstanceOf(ForbiddenError);
    expect(denied.runner.execute).not.toHaveBeenCalled();

    const anonymous = setup();
    await anonymous.service.execute(null, 4, 1, {}, {});
    expect(anonymous.dashboards.readable).not.toHaveBeenCalled();
    expect(anonymous.actions.assertMayRun).not.toHaveBeenCalled();
    await anonymous.service.prefill(null, 4, 1, { id: 3 });
    expect(anonymous.prefills.values).toHaveBeenCalledWith(
      expect.objectContaining({ id: 9 }),
      { id: 3 },
      { shared: { via: 'public', model: 'dashboard', id: 4 } },
    );
  });

  it('answers 404 for a dashcard without an action, or an archived or missing action', async () => {
    await expect(setup({ dashcard: null }).service.execute(user, 4, 1, {}, {})).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      setup({ dashcard: { action_id: null, parameter_mappings: null } }).service.execute(user, 4, 1, {}, {}),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(setup({ action: { archived: true } }).service.prefill(user, 4, 1, {})).rejects.toBeInstanceOf(NotFoundError);
    await expect(setup({ action: null }).service.execute(user, 4, 1, {}, {})).rejects.toBeInstanceOf(NotFoundError);
  });
});
