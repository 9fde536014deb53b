import { Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { PublicLinkService } from './public-link.service';

/** POST/DELETE /api/card/:card-id/public_link: superusers only (spec "Errors": creating a public link requires one). */
@Controller('api/card')
export class CardPublicLinkController {
  constructor(private readonly links: PublicLinkService) {}

  @Post(':cardId/public_link')
  @Access('admin')
  @HttpCode(200)
  share(@Param('cardId', IdParam('card-id')) id: number, @CurrentUser() caller: AuthUser) {
    return this.links.share(caller, 'card', id);
  }

  @Delete(':cardId/public_link')
  @Access('admin')
  @HttpCode(204)
  async unshare(@Param('cardId', IdParam('card-id')) id: number): Promise<void> {
    await this.links.unshare('card', id);
  }
}

/** POST/DELETE /api/dashboard/:dashboard-id/public_link: superusers only. */
@Controller('api/dashboard')
export class DashboardPublicLinkController {
  constructor(private readonly links: PublicLinkService) {}

  @Post(':dashboardId/public_link')
  @Access('admin')
  @HttpCode(200)
  share(@Param('dashboardId', IdParam('dashboard-id')) id: number, @CurrentUser() caller: AuthUser) {
    return this.links.share(caller, 'dashboard', id);
  }

  @Delete(':dashboardId/public_link')
  @Access('admin')
  @HttpCode(204)
  async unshare(@Param('dashboardId', IdParam('dashboard-id')) id: number): Promise<void> {
    await this.links.unshare('dashboard', id);
  }
}
