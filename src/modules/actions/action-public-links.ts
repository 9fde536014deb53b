import { ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { PublicLinkResolver } from '../../common/auth/access-plugins';
import { PUBLIC_MODEL } from '../public-sharing';
import { ActionsRepository, type ActionRow } from './actions.repository';

/** What a public action route receives through @SharedObject(). */
export interface PublicAction {
  model: 'action';
  action: ActionRow;
}

/** What a public dashcard-action route receives: the shared dashboard's id. */
export interface PublicActionDashboard {
  model: 'dashboard';
  dashboardId: number;
}

/** The `:uuid` of these routes names a public action (PUBLIC_MODEL, as the public-sharing module's routes say theirs). */
export const PublicActionModel = () => SetMetadata(PUBLIC_MODEL, 'action');

/**
 * PUBLIC_LINK_RESOLVER of the actions module's public routes: the unarchived action, or the unarchived dashboard,
 * whose public link is the UUID (null: 404). The public-sharing module resolves its own routes' cards and dashboards.
 */
@Injectable()
export class ActionPublicLinks implements PublicLinkResolver {
  constructor(
    private readonly reflector: Reflector,
    private readonly repo: ActionsRepository,
  ) {}

  async resolve(uuid: string, ctx: ExecutionContext): Promise<PublicAction | PublicActionDashboard | null> {
    const model = this.reflector.getAllAndOverride<string | undefined>(PUBLIC_MODEL, [ctx.getHandler(), ctx.getClass()]);
    if (model === 'action') {
      const id = await this.repo.idByPublicUuid(uuid);
      const action = id === null ? null : await this.repo.row(id);
      return action && !action.model_archived ? { model, action } : null;
    }
    if (model === 'dashboard') {
      const id = await this.repo.dashboardIdByPublicUuid(uuid);
      return id === null ? null : { model, dashboardId: id };
    }
    throw new Error('A public action route with :uuid must say which model it serves');
  }
}
