import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { versionInfo } from '../../common/version';
import { SessionsService } from '../sessions/sessions.service';
import { SettingsService } from '../settings/settings.service';
import { SetupDto } from './setup.dto';
import { SetupService } from './setup.service';

@Controller('api')
export class SetupController {
  constructor(
    private readonly setupService: SetupService,
    private readonly sessions: SessionsService,
    private readonly settings: SettingsService,
  ) {}

  @Post('setup')
  @Access('public')
  @HttpCode(200)
  async setup(@Body() body: SetupDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const key = await this.setupService.setup(body);
    await this.sessions.setCookie(req, res, key);
    return { id: key };
  }

  /** The settings the caller may read; `setup-token` only while no user exists. */
  @Get('session/properties')
  @Access('public')
  async properties(@CurrentUser() user?: AuthUser) {
    const props: Record<string, unknown> = await this.settings.readable(user);
    const token = await this.setupService.pendingToken();
    props['has-user-setup'] = token === null;
    if (token) props['setup-token'] = token;
    props.version = versionInfo();
    return props;
  }
}
