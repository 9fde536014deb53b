import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { SESSION_COOKIE } from '../../common/auth/session-cookie';
import { sha256Hex, verifyPassword } from '../../common/crypto/hashing';
import { InvalidCredentialsError, TooManyAttemptsError } from '../../common/errors/api-errors';
import { SettingsService } from '../settings/settings.service';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { SessionsRepository } from './sessions.repository';

/** Throttling: within the window, this many failures per username, or per client IP, lock out further tries. */
export const THROTTLE = { windowMs: 15 * 60_000, perUser: 10, perIp: 50 };

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
    private readonly settings: SettingsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Email + password login; answers the new session key. */
  async login(username: string, password: string, ip: string): Promise<string> {
    const email = username.trim().toLowerCase();
    await this.assertNotThrottled(email, ip);
    const user = await this.users.findForLogin(email);
    const ok = await verifyPassword(password, user?.password_hash);
    if (!user || !ok || user.type !== 'personal') {
      await this.sessions.recordFailure(email, ip, new Date(Date.now() - THROTTLE.windowMs));
      throw new InvalidCredentialsError();
    }
    if (!user.is_active) throw new InvalidCredentialsError('Your account is disabled. Please contact your administrator.');
    if (!user.is_superuser && !(await this.settings.get<boolean>('enable-password-login'))) {
      throw new InvalidCredentialsError('Password login is disabled for this instance.');
    }
    await this.sessions.clearFailures(email);
    await this.usersService.recordLogin(user);
    return this.create(user.id);
  }

  /** A new session for a user who proved who they are (password, setup, SSO). */
  async create(userId: number, tx?: EntityManager): Promise<string> {
    const key = randomUUID();
    await this.sessions.create(sha256Hex(key), userId, tx);
    return key;
  }

  async logout(keyHash: string): Promise<void> {
    await this.sessions.delete(keyHash);
  }

  async endAllFor(userId: number, tx?: EntityManager): Promise<void> {
    await this.sessions.deleteForUser(userId, tx);
  }

  /** Sets `metabase.SESSION`: HttpOnly, SameSite from the setting, Secure over HTTPS (and always with None). */
  async setCookie(req: Request, res: Response, key: string): Promise<void> {
    const sameSite = await this.settings.get<'lax' | 'none' | 'strict'>('session-cookie-samesite');
    res.cookie(SESSION_COOKIE, key, {
      httpOnly: true,
      path: '/',
      sameSite,
      secure: req.secure || sameSite === 'none',
      maxAge: this.config.maxSessionAgeMinutes * 60_000,
    });
  }

  clearCookie(res: Response): void {
    res.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  private async assertNotThrottled(email: string, ip: string): Promise<void> {
    const now = Date.now();
    const { byUser, byIp } = await this.sessions.failures(email, ip, new Date(now - THROTTLE.windowMs));
    const wait = (oldest: Date) => Math.max(1, Math.ceil((oldest.getTime() + THROTTLE.windowMs - now) / 1000));
    if (byUser.length >= THROTTLE.perUser) throw new TooManyAttemptsError('username', wait(byUser[byUser.length - THROTTLE.perUser]));
    if (byIp.length >= THROTTLE.perIp) throw new TooManyAttemptsError('username', wait(byIp[byIp.length - THROTTLE.perIp]));
  }
}
