import { randomUUID } from 'node:crypto';
import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ForbiddenError, MessageError } from '../../common/errors/api-errors';
import { AppLogger } from '../../common/logging/app-logger';
import { SessionsService } from '../sessions';
import { SettingsRepository, SettingsService } from '../settings';
import { UsersRepository, UsersService } from '../users';
import { SetupDto } from './setup.dto';

const TOKEN_KEY = 'setup-token';

/**
 * The first admin. While no user exists a setup token is kept in the app DB (shared by every instance) and shown
 * by session properties; POST /api/setup consumes it atomically, so exactly one setup can ever succeed.
 */
@Injectable()
export class SetupService implements OnApplicationBootstrap {
  constructor(
    private readonly settingRows: SettingsRepository,
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
    private readonly sessions: SessionsService,
    private readonly settings: SettingsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AppLogger) private readonly logger: AppLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if ((await this.users.count()) > 0) return;
    if (this.config.adminEmail && this.config.adminPassword) {
      await this.createAdminFromEnv(this.config.adminEmail, this.config.adminPassword);
      return;
    }
    // orIgnore: when several instances boot at once, the first token stored wins and all show that one.
    await this.settingRows.claim(TOKEN_KEY, randomUUID());
    this.logger.info('No user exists yet: finish the setup with the setup token from GET /api/session/properties');
  }

  /** The setup token while no user exists, else null. */
  async pendingToken(): Promise<string | null> {
    if ((await this.users.count()) > 0) return null;
    return this.settingRows.value(TOKEN_KEY);
  }

  async setup(dto: SetupDto): Promise<string> {
    await this.usersService.assertPassword(dto.user.password, 'password');
    const key = await this.users.transaction(async (tx) => {
      if ((await this.users.count(tx)) > 0) throw new ForbiddenError();
      if (!(await this.settingRows.consume(TOKEN_KEY, dto.token, tx))) throw new MessageError('Token does not match the setup token.', 403);
      const user = await this.usersService.create({ ...dto.user, is_superuser: true }, tx);
      return this.sessions.create(user.id, tx);
    });
    const prefs: Record<string, unknown> = {};
    if (dto.prefs?.site_name) prefs['site-name'] = dto.prefs.site_name;
    if (dto.prefs?.site_locale) prefs['site-locale'] = dto.prefs.site_locale;
    await this.settings.setMany(prefs);
    return key;
  }

  private async createAdminFromEnv(email: string, password: string): Promise<void> {
    try {
      await this.usersService.create({ email, password, first_name: 'Admin', last_name: null, is_superuser: true });
      this.logger.info('Created the first admin from ADMIN_EMAIL', { email });
    } catch (e) {
      if ((await this.users.count()) > 0) return; // another instance created it first
      throw new Error(`ADMIN_PASSWORD is not acceptable: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
