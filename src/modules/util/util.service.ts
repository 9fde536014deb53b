import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { appDbKind } from '../../common/database/data-source-options';
import { versionInfo } from '../../common/version';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { UsersService } from '../users';
import { ProductFeedbackDto } from './util.dto';
import { UsageCounts, UtilRepository } from './util.repository';

@Injectable()
export class UtilService {
  constructor(
    private readonly repo: UtilRepository,
    private readonly users: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** 32 random bytes as 64 hex characters: the format `embedding-secret-key` needs. */
  randomToken(): { token: string } {
    return { token: randomBytes(32).toString('hex') };
  }

  /** The same rules as setting a password, with the current `password-complexity`; refusals are a 400. */
  async checkPassword(password: unknown): Promise<{ valid: true }> {
    await this.users.assertPassword(password);
    return { valid: true };
  }

  async saveFeedback(dto: ProductFeedbackDto, caller: AuthUser): Promise<void> {
    await this.repo.insertFeedback({ user_id: caller.id, source: dto.source, comments: dto.comments ?? null, email: dto.email ?? null });
  }

  /** Anonymous: counts and the version only, never a name, email or setting value. */
  async stats(): Promise<{ version: string; application_database: string; stats: UsageCounts }> {
    return { version: versionInfo().tag, application_database: appDbKind(this.config), stats: await this.repo.usageCounts() };
  }
}
