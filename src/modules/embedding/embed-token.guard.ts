import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { setShared } from '../../common/auth/shared-object';
import type { SharedGrant, SharedScope } from '../../common/auth/shared-grant';
import { parseJson } from '../../common/database/stored-json';
import { ArchivedError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import { SETTINGS_READER, type SettingsReader } from '../../common/settings/settings-reader';
import { CardsRepository } from '../cards';
import { type CardRow } from '../../schema/card.rows';
import { DashboardsRepository, type ReadableDashboard } from '../dashboards';
import { SharedQueriesService } from '../public-sharing';
import { isEmbeddingParams, type EmbeddingParams } from './embed-params';
import { CORRUPT, headerKid, verifyEmbedToken, type EmbedClaims, type EmbedResource } from './embed-token';
import { EmbeddingKeysService } from './embedding-keys.service';

export const EMBEDDING_OFF = 'Embedding is not enabled.';
export const OBJECT_NOT_EMBEDDABLE = 'Embedding is not enabled for this object.';

const EMBED_RESOURCE = 'embed-resource';

/** Which resource a route's `:token` must name: `question` for card routes, `dashboard` for dashboard routes. */
export const EmbedOf = (resource: EmbedResource) => SetMetadata(EMBED_RESOURCE, resource);

/**
 * What the token guards establish and hand to the controller (@SharedObject()): the grant of the verified token (every
 * run and look-up of the embed reads with it), its claims and the loaded object.
 */
export interface EmbedGrant extends SharedGrant {
  claims: EmbedClaims;
  /** An admin's preview (`/api/preview-embed/...`). */
  preview: boolean;
  /** The parameter whitelist in force: the object's `embedding_params`, or a preview token's `_embedding_params`. */
  whitelist: EmbeddingParams;
  card?: CardRow;
  /** The dashboard with its dashcards, as SharedQueriesService.runDashcard takes it. */
  dashboard?: ReadableDashboard;
}

/**
 * The shared part of both token guards: the token from the path verified for the route's resource (against the named
 * key its header's `kid` names, else `embedding-secret-key`), static embedding on, the object loaded (404 when missing,
 * archived refused), and, outside preview, the object's own switch.
 */
abstract class TokenGuardBase implements CanActivate {
  protected abstract readonly preview: boolean;

  constructor(
    private readonly reflector: Reflector,
    @Inject(SETTINGS_READER) private readonly settings: SettingsReader,
    private readonly cards: CardsRepository,
    private readonly dashboards: DashboardsRepository,
    private readonly shared: SharedQueriesService,
    private readonly keys: EmbeddingKeysService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const resource = this.reflector.getAllAndOverride<EmbedResource | undefined>(EMBED_RESOURCE, [ctx.getHandler(), ctx.getClass()]);
    if (!resource) throw new Error('Embed route without @EmbedOf(resource)');
    const token = ctx.switchToHttp().getRequest<Request>().params?.token;
    if (typeof token !== 'string') throw new Error('Embed route without :token');
    const claims = verifyEmbedToken(token, await this.secretFor(token), resource, { preview: this.preview });
    if ((await this.settings.get<boolean>('enable-embedding-static')) !== true) throw new MessageError(EMBEDDING_OFF);
    const shared: SharedScope = { via: 'embed', model: resource === 'dashboard' ? 'dashboard' : 'card', id: claims.id };
    // A dashboard comes with its dashcards (what its routes run), and is looked up alone only to say why it is not served.
    const found = resource === 'dashboard' ? await this.shared.dashboard({ shared }) : null;
    const row = resource === 'question' ? await this.cards.row(claims.id) : (found?.dashboard ?? (await this.dashboards.row(claims.id)));
    if (!row) throw new NotFoundError();
    if (row.archived) throw this.preview ? new NotFoundError() : new ArchivedError();
    if (!this.preview && !row.enable_embedding) throw new MessageError(OBJECT_NOT_EMBEDDABLE);
    const stored = parseJson<unknown>(row.embedding_params, null);
    const whitelist = this.preview ? (claims.embeddingParams ?? {}) : isEmbeddingParams(stored) ? stored : {};
    if (resource === 'dashboard' && !found) throw new NotFoundError();
    const object = found ? { dashboard: found } : { card: row as CardRow };
    const grant: EmbedGrant = { shared, claims, preview: this.preview, whitelist, ...object };
    setShared(ctx, grant);
    return true;
  }

  /**
   * A token naming a key (`kid`) is checked against that key only; one that names none, against `embedding-secret-key`.
   * An unknown, revoked or malformed `kid` is refused as a bad signature is, so kids cannot be probed.
   */
  private async secretFor(token: string): Promise<string | null> {
    const kid = headerKid(token);
    if (kid === undefined) return this.settings.get<string | null>('embedding-secret-key');
    const secret = typeof kid === 'string' ? await this.keys.secretFor(kid) : null;
    if (!secret) throw new MessageError(CORRUPT);
    return secret;
  }
}

/** EMBED_TOKEN_GUARD: `/api/embed/...`. */
@Injectable()
export class EmbedTokenGuard extends TokenGuardBase {
  protected readonly preview = false;
}

/** PREVIEW_TOKEN_GUARD: `/api/preview-embed/...` (AdminPreviewGuard has checked for a superuser first). */
@Injectable()
export class PreviewTokenGuard extends TokenGuardBase {
  protected readonly preview = true;
}
