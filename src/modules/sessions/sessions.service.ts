import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import { EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { SESSION_COOKIE } from '../../common/auth/session-cookie';
import { ClusterEvents } from '../../common/cluster/cluster-events';
import { sha256Hex, verifyPassword } from '../../common/crypto/hashing';
import { InvalidCredentialsError, TooManyAttemptsError } from '../../common/errors/api-errors';
import { SettingsService } from '../settings';
import { UsersRepository, UsersService } from '../users';
import { LoginFailure } from '../../schema/login-attempt.entity';
import { SessionsRepository } from './sessions.repository';

/**
 * Login throttling, over the failures of the last `windowMs`:
 * - per username and address: `perPair` failures, then that address waits until the oldest of them expires;
 * - per address across usernames (password spraying): `perIp` failures, likewise;
 * - per username across addresses: from `perUser` failures on, each try waits after the latest failure, 1 s at
 *   first, doubling, at most `maxUserDelayMs`: guessing from many addresses slows to a crawl, yet the user, from
 *   their own address, gets in after a short wait (no lock-out anyone could cause from elsewhere).
 */
export const THROTTLE = { windowMs: 15 * 60_000, perPair: 10, perIp: 50, perUser: 10, maxUserDelayMs: 60_000 };

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
    private readonly settings: SettingsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly events: ClusterEvents = new ClusterEvents(),
  ) {}

  /**
   * Email + password login; answers the new session key. The attempt is recorded before the (slow) password
   * check, so that attempts running in parallel see each other; it stays as a failure unless it was throttled
   * or the password was right.
   */
  async login(username: string, password: string, ip: string): Promise<string> {
    const email = username.trim().toLowerCase();
    const address = ip.slice(0, 64);
    const now = Date.now();
    const attempt = await this.sessions.recordAttempt(email, address, new Date(now));
    const wait = await this.throttledFor(attempt, email, address, now);
    if (wait !== undefined) {
      await this.sessions.forget(attempt);
      throw new TooManyAttemptsError('username', wait);
    }
    const user = await this.users.findForLogin(email);
    const ok = await verifyPassword(password, user?.password_hash);
    // A user made by SSO signs in through their identity provider only, whatever password they may have.
    if (!user || !ok || user.type !== 'personal' || user.sso_source) {
      await this.sessions.pruneBefore(new Date(now - THROTTLE.windowMs));
      throw new InvalidCredentialsError();
    }
    await this.sessions.clearPair(email, address);
    if (!user.is_active) throw new InvalidCredentialsError('Your account is disabled. Please contact your administrator.');
    if (!user.is_superuser && !(await this.settings.get<boolean>('enable-password-login'))) {
      throw new InvalidCredentialsError('Password login is disabled for this instance.');
    }
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
    // Sessions are read from the app DB on each request, so the logout holds everywhere already; the event
    // (a prefix of the key's hash, never the key) is for any instance that caches sessions.
    await this.events.publish({ topic: 'session', id: keyHash.slice(0, 16) });
  }

  /** Inside `tx`, the caller publishes nothing before its commit: call `announceEnded` after it. */
  async endAllFor(userId: number, tx?: EntityManager): Promise<void> {
    await this.sessions.deleteForUser(userId, tx);
    if (!tx) await this.announceEnded(userId);
  }

  /** Tells every instance that the user's sessions ended. */
  announceEnded(userId: number): Promise<void> {
    return this.events.publish({ topic: 'user', id: userId });
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

  /** Seconds to wait before this attempt may be tried, judged by the attempts before it; undefined: go ahead. */
  private async throttledFor(attempt: number, email: string, ip: string, now: number): Promise<number | undefined> {
    const before = await this.sessions.attemptsBefore(attempt, email, ip, new Date(now - THROTTLE.windowMs));
    const seconds = (until: number) => Math.max(1, Math.ceil((until - now) / 1000));
    const expiry = (rows: LoginFailure[], limit: number) => rows[rows.length - limit].created_at.getTime() + THROTTLE.windowMs;
    const pair = before.filter((a) => a.username === email && a.ip === ip);
    if (pair.length >= THROTTLE.perPair) return seconds(expiry(pair, THROTTLE.perPair));
    const fromIp = before.filter((a) => a.ip === ip);
    if (fromIp.length >= THROTTLE.perIp) return seconds(expiry(fromIp, THROTTLE.perIp));
    const ofUser = before.filter((a) => a.username === email);
    if (ofUser.length >= THROTTLE.perUser) {
      const delay = Math.min(1000 * 2 ** Math.min(ofUser.length - THROTTLE.perUser, 30), THROTTLE.maxUserDelayMs);
      const latest = Math.max(...ofUser.map((a) => a.created_at.getTime()));
      if (now < latest + delay) return seconds(latest + delay);
    }
    return undefined;
  }
}
