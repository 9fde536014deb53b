import { Controller, Get } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { versionInfo } from '../../common/version';
import { SettingsService } from '../settings';
import { SetupService } from './setup.service';

/** What a client reads before anything else: the public settings, and whether the instance is set up yet. */
@Controller('api/session/properties')
export class SessionPropertiesController {
  constructor(
    private readonly setupService: SetupService,
    private readonly settings: SettingsService,
  ) {}

  /** The settings the caller may read; `setup-token` only while no user exists. */
  @Get()
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
