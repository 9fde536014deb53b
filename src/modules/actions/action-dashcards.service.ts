import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { MessageError, NotFoundError } from '../../common/errors/api-errors';
import { DashboardAccessService } from '../dashboards';
import type { Reader } from '../../common/auth/shared-grant';
import { ActionPrefill } from './action-prefill.service';
import { ActionRunner, targetTag, type ActionParameter } from './action-runner.service';
import { ActionsRepository, type ActionRow } from './actions.repository';
import { ActionsService } from './actions.service';
import { OPEN, type RowScope } from './row-scope';

const setOf = (xs: string[]) => `#{${xs.map((x) => JSON.stringify(x)).join(' ')}}`;
const sameTarget = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Action buttons on dashboards: a dashcard with an `action_id` runs its action with the dashboard's parameter values
 * (mapped onto the action's parameters by the dashcard's `parameter_mappings`) and the values the user typed, and
 * prefills an update form with the row's current values as the model shows them (action-prefill.service.ts). Signed
 * in: the dashboard must be readable and the caller must have data access to the action's database. Public: the link
 * of the dashboard is enough.
 */
@Injectable()
export class ActionDashcardsService {
  constructor(
    private readonly repo: ActionsRepository,
    private readonly runner: ActionRunner,
    private readonly actions: ActionsService,
    private readonly dashboards: DashboardAccessService,
    private readonly prefills: ActionPrefill,
  ) {}

  async execute(
    caller: AuthUser | null,
    dashboardId: number,
    dashcardId: number,
    parameters: Record<string, unknown>,
    extra: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const { action, mappings, scope } = await this.load(caller, dashboardId, dashcardId);
    const values = { ...(await this.mapped(action, mappings, parameters)), ...extra };
    return this.runner.execute(action, values, scope);
  }

  async prefill(
    caller: AuthUser | null,
    dashboardId: number,
    dashcardId: number,
    parameters: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const { action } = await this.load(caller, dashboardId, dashcardId);
    // Without a caller the public link of the dashboard authorizes reading the model's rows.
    const who: Reader = caller ?? { shared: { via: 'public', model: 'dashboard', id: dashboardId } };
    return this.prefills.values(action, parameters, who);
  }

  /** The dashcard's action (404: no such dashcard on the dashboard, no action, archived), access checked for a caller. */
  private async load(
    caller: AuthUser | null,
    dashboardId: number,
    dashcardId: number,
  ): Promise<{ action: ActionRow; mappings: Array<Record<string, unknown>>; scope: RowScope }> {
    if (caller) await this.dashboards.readable(caller, dashboardId);
    const dashcard = await this.repo.dashcard(dashboardId, dashcardId);
    if (!dashcard || dashcard.action_id === null) throw new NotFoundError();
    const action = await this.repo.row(dashcard.action_id);
    if (!action || action.archived) throw new NotFoundError();
    // A public link's visitor writes as the link allows, without row policies (they are a user's).
    const scope = caller ? await this.actions.assertMayRun(caller, action) : OPEN;
    let mappings: unknown;
    try {
      mappings = JSON.parse(dashcard.parameter_mappings ?? '[]');
    } catch {
      mappings = [];
    }
    return { action, mappings: Array.isArray(mappings) ? (mappings as Array<Record<string, unknown>>) : [], scope };
  }

  /** Dashboard parameter values as action parameter values, through the dashcard's mappings. */
  private async mapped(
    action: ActionRow,
    mappings: Array<Record<string, unknown>>,
    parameters: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const params: ActionParameter[] = await this.runner.parameters(action);
    const out: Record<string, unknown> = {};
    const unmapped: string[] = [];
    for (const [dashboardParam, value] of Object.entries(parameters)) {
      const mapping = mappings.find((m) => m.parameter_id === dashboardParam);
      const dest = mapping ? params.find((p) => sameTarget(p.target, mapping.target) || p.id === targetTag(mapping.target)) : undefined;
      if (!dest) unmapped.push(dashboardParam);
      else out[dest.id] = value;
    }
    if (unmapped.length)
      throw new MessageError(
        `No destination parameter found for ${setOf(unmapped)}. Found: ${setOf(mappings.map((m) => String(m.parameter_id)))}`,
      );
    return out;
  }
}
