import { sqlBool } from '../database/row-values';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { sha256Hex } from '../crypto/hashing';
import { ForbiddenError } from '../errors/api-errors';
import { AppLogger } from '../logging/app-logger';
import { loggablePath } from '../logging/loggable-path';
import { requestContext } from '../logging/request-context';
import { ACCESS_KEY, AccessLevel } from './access.decorator';
import { AuthRepository } from './auth.repository';
import { WATCHED_CACHE_MAX_AGE_MS } from '../cache/watched-cache';
import { CallerCache } from './caller-cache';
import { AuthedRequest, AuthUser } from './current-user';
import { SESSION_COOKIE } from './session-cookie';

/** Levels whose callers are not looked up: the link or token authorizes, whoever sends it. */
const ANONYMOUS: ReadonlySet<AccessLevel> = new Set(['public-sharing', 'embed']);
/** Levels that serve anyone: credentials only add to them, so a failed look-up leaves the caller anonymous. */
const OPEN: ReadonlySet<AccessLevel> = new Set(['public', 'sso']);

/**
 * The one global guard: it says who is calling (session cookie or header, API key, nobody) and puts them on the
 * request. What a route requires is its level's guard (access.decorator.ts), which runs after this one. A route
 * without a level is refused here (and the route test fails), so forgetting a decorator can never open an endpoint.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AppLogger) private readonly logger: AppLogger,
    private readonly callers: CallerCache<AuthUser>,
  ) {}

  canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    const level = this.reflector.getAllAndOverride<AccessLevel | undefined>(ACCESS_KEY, [ctx.getHandler(), ctx.getClass()]);
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    if (!level) {
      this.logger.error('Route declares no access level; refusing', { path: loggablePath(req.path) });
      throw new ForbiddenError();
    }
    if (ANONYMOUS.has(level)) return true;
    const credentials = this.credentials(req);
    if (!credentials.sessionKey && !credentials.apiKey) {
      req.user = undefined;
      return true;
    }
    // Credentials only add to an open route: if they cannot be checked (app DB down), serve it anonymously,
    // so /api/health can still say the database is unreachable.
    const identified = OPEN.has(level) ? this.identify(credentials).catch(() => undefined) : this.identify(credentials);
    return identified.then((user) => {
      req.user = user;
      this.tagLogs(req);
      return true;
    });
  }

  /** Cookie, then session header, then API key: the order in which Metabase reads credentials. */
  private credentials(req: AuthedRequest): { sessionKey?: string; apiKey?: string } {
    const cookies = (req as { cookies?: Record<string, string> }).cookies ?? {};
    return { sessionKey: cookies[SESSION_COOKIE] || header(req, 'x-metabase-session'), apiKey: header(req, 'x-api-key') };
  }

  private tagLogs(req: AuthedRequest): void {
    const store = requestContext.getStore();
    if (store && req.user) store.userId = req.user.id;
  }

  private async identify({ sessionKey, apiKey }: { sessionKey?: string; apiKey?: string }): Promise<AuthUser | undefined> {
    if (sessionKey) {
      const keyHash = sha256Hex(sessionKey);
      const user = await this.callers.get(`session:${keyHash}`, async () => {
        const now = Date.now();
        const notBefore = new Date(now - this.config.maxSessionAgeMinutes * 60_000);
        const row = await this.auth.userBySession(keyHash, notBefore, new Date(notBefore.getTime() + WATCHED_CACHE_MAX_AGE_MS));
        if (!row) return undefined;
        // A session near its age limit is answered but not kept: kept, it could outlive the limit.
        const lasts = sqlBool(row.lasts);
        return { value: { ...caller(row), sessionKeyHash: keyHash }, validUntil: lasts ? undefined : now };
      });
      if (user) return user;
    }
    if (apiKey) {
      const keyHash = sha256Hex(apiKey);
      return this.callers.get(`api-key:${keyHash}`, async () => {
        const row = await this.auth.userByApiKey(keyHash);
        return row ? { value: { ...caller(row), apiKeyId: row.api_key_id } } : undefined;
      });
    }
    return undefined;
  }
}

function header(req: AuthedRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' && v.length > 0 && v.length < 512 ? v : undefined;
}

function caller(row: { id: number; is_superuser: boolean | number; group_ids: string | null }): AuthUser {
  return {
    id: Number(row.id),
    isSuperuser: sqlBool(row.is_superuser),
    groupIds: (row.group_ids ?? '').split(',').filter(Boolean).map(Number),
  };
}
