import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import { ArchivedError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { CardsRepository } from '../cards/cards.repository';
import type { DashboardsRepository } from '../dashboards/dashboards.repository';
import type { EmbeddingKeysService } from './embedding-keys.service';
import type { SharedQueriesService } from '../public-sharing/shared-queries.service';
import { CORRUPT } from './embed-token';
import { EMBEDDING_OFF, EmbedOf, EmbedTokenGuard, OBJECT_NOT_EMBEDDABLE, PreviewTokenGuard, type EmbedGrant } from './embed-token.guard';

const KEY = 'c'.repeat(64);
const jwt = new JwtService();
const sign = (payload: object, secret = KEY, header: object = {}) =>
  jwt.sign(payload, { secret, algorithm: 'HS256', header: { alg: 'HS256', ...header } });
/** Named keys by kid, as EmbeddingKeysService.secretFor answers (revoked ones are simply absent). */
const NAMED: Record<string, string> = { acme: 'a'.repeat(64), globex: 'b'.repeat(64) };

class Routes {
  @EmbedOf('question')
  card() {}
  @EmbedOf('dashboard')
  dashboard() {}
  unmarked() {}
}

function context(handler: keyof Routes, token: string) {
  const req: { params: { token: string }; shared?: EmbedGrant } = { params: { token } };
  const ctx = {
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
  return { ctx, req };
}

describe('embed token guards', () => {
  let settings: Record<string, unknown>;
  let card: Record<string, unknown> | null;
  let dashboard: Record<string, unknown> | null;
  let loadedWith: unknown[];
  const make = <T>(G: new (...a: never[]) => T): T => {
    const cards = { row: async () => card } as unknown as CardsRepository;
    const dashboards = { row: async () => dashboard } as unknown as DashboardsRepository;
    // As SharedQueriesService: the unarchived dashboard with its dashcards, else null.
    const shared = {
      dashboard: async (grant: unknown) => {
        loadedWith.push(grant);
        return dashboard && !dashboard.archived ? { dashboard: { ...dashboard, parameters_list: [] }, dashcards: [] } : null;
      },
    } as unknown as SharedQueriesService;
    const reader = { get: async (k: string) => settings[k] };
    const keys = { secretFor: async (kid: string) => NAMED[kid] ?? null } as unknown as EmbeddingKeysService;
    return new (G as unknown as new (...a: unknown[]) => T)(new Reflector(), reader, cards, dashboards, shared, keys);
  };
  const refusal = async (p: Promise<unknown>) => {
    const e = await p.then(
      () => null,
      (x: unknown) => x,
    );
    if (!e) throw new Error('not refused');
    return e;
  };

  beforeEach(() => {
    settings = { 'embedding-secret-key': KEY, 'enable-embedding-static': true };
    card = { id: 7, archived: false, enable_embedding: true, embedding_params: '{"state":"enabled"}' };
    dashboard = { id: 3, archived: 0, enable_embedding: 1, embedding_params: null };
    loadedWith = [];
  });

  it("hands on the token's grant, the verified claims, the object and its whitelist; never an unverified token", async () => {
    const { ctx, req } = context('card', sign({ resource: { question: 7 }, params: { state: 'TX' } }));
    await expect(make(EmbedTokenGuard).canActivate(ctx)).resolves.toBe(true);
    expect(req.shared).toEqual({
      shared: { via: 'embed', model: 'card', id: 7 },
      claims: { resource: 'question', id: 7, params: { state: 'TX' } },
      preview: false,
      whitelist: { state: 'enabled' },
      card,
    });
    const d = context('dashboard', sign({ resource: { dashboard: 3 }, params: {} }));
    await make(EmbedTokenGuard).canActivate(d.ctx);
    expect(d.req.shared).toMatchObject({
      shared: { via: 'embed', model: 'dashboard', id: 3 },
      dashboard: { dashboard: { id: 3 }, dashcards: [] },
      whitelist: {},
    });
    // The dashboard is read with the grant of the verified token, never as anyone else.
    expect(loadedWith).toEqual([{ shared: { via: 'embed', model: 'dashboard', id: 3 } }]);
    dashboard = { ...dashboard, archived: 1 };
    expect(
      await refusal(make(EmbedTokenGuard).canActivate(context('dashboard', sign({ resource: { dashboard: 3 }, params: {} })).ctx)),
    ).toBeInstanceOf(ArchivedError);
    dashboard = null;
    expect(
      await refusal(make(EmbedTokenGuard).canActivate(context('dashboard', sign({ resource: { dashboard: 3 }, params: {} })).ctx)),
    ).toBeInstanceOf(NotFoundError);
    const bad = context('card', sign({ resource: { question: 7 }, params: {} }).slice(0, -2));
    expect(await refusal(make(EmbedTokenGuard).canActivate(bad.ctx))).toBeInstanceOf(MessageError);
    expect(bad.req.shared).toBeUndefined();
  });

  it('checks the route resource, the static switch, existence, archiving and the object switch', async () => {
    const token = sign({ resource: { question: 7 }, params: {} });
    expect(((await refusal(make(EmbedTokenGuard).canActivate(context('dashboard', token).ctx))) as Error).message).toBe(
      'Token is missing value for keypath [:resource :dashboard]',
    );
    settings['enable-embedding-static'] = false;
    expect(((await refusal(make(EmbedTokenGuard).canActivate(context('card', token).ctx))) as Error).message).toBe(EMBEDDING_OFF);
    settings['enable-embedding-static'] = true;
    card = { ...card, enable_embedding: false };
    expect(((await refusal(make(EmbedTokenGuard).canActivate(context('card', token).ctx))) as Error).message).toBe(OBJECT_NOT_EMBEDDABLE);
    card = { ...card, archived: true, enable_embedding: true };
    expect(await refusal(make(EmbedTokenGuard).canActivate(context('card', token).ctx))).toBeInstanceOf(ArchivedError);
    card = null;
    expect(await refusal(make(EmbedTokenGuard).canActivate(context('card', token).ctx))).toBeInstanceOf(NotFoundError);
  });

  it("preview: the object's switch is ignored and the token's _embedding_params is the whitelist", async () => {
    card = { ...card, enable_embedding: false };
    const { ctx, req } = context('card', sign({ resource: { question: 7 }, params: {}, _embedding_params: { state: 'locked' } }));
    await expect(make(PreviewTokenGuard).canActivate(ctx)).resolves.toBe(true);
    expect(req.shared).toMatchObject({ preview: true, whitelist: { state: 'locked' } });
    card = { ...card, archived: true };
    expect(
      await refusal(
        make(PreviewTokenGuard).canActivate(context('card', sign({ resource: { question: 7 }, params: {}, _embedding_params: {} })).ctx),
      ),
    ).toBeInstanceOf(NotFoundError);
  });

  it('a route without @EmbedOf is a bug, not an open door', async () => {
    await expect(
      make(EmbedTokenGuard).canActivate(context('unmarked', sign({ resource: { question: 7 }, params: {} })).ctx),
    ).rejects.toThrow('Embed route without @EmbedOf(resource)');
  });

  it('checks a token naming a kid against that key only, and one naming none against embedding-secret-key', async () => {
    const claims = { resource: { question: 7 }, params: {} };
    const message = async (token: string) =>
      ((await refusal(make(EmbedTokenGuard).canActivate(context('card', token).ctx))) as Error).message;
    await expect(make(EmbedTokenGuard).canActivate(context('card', sign(claims, NAMED.acme, { kid: 'acme' })).ctx)).resolves.toBe(true);
    await expect(
      make(PreviewTokenGuard).canActivate(context('card', sign({ ...claims, _embedding_params: {} }, NAMED.globex, { kid: 'globex' })).ctx),
    ).resolves.toBe(true);
    // Another customer's secret, the default key, an unknown or revoked kid, a kid that is not a string: a bad signature.
    expect(await message(sign(claims, NAMED.globex, { kid: 'acme' }))).toBe(CORRUPT);
    expect(await message(sign(claims, KEY, { kid: 'acme' }))).toBe(CORRUPT);
    expect(await message(sign(claims, NAMED.acme, { kid: 'initech' }))).toBe(CORRUPT);
    expect(await message(sign(claims, NAMED.acme, { kid: 7 }))).toBe(CORRUPT);
    expect(await message(sign(claims, NAMED.acme))).toBe(CORRUPT);
    // A named key works with no embedding-secret-key set; a token naming none still needs it.
    settings['embedding-secret-key'] = null;
    await expect(make(EmbedTokenGuard).canActivate(context('card', sign(claims, NAMED.acme, { kid: 'acme' })).ctx)).resolves.toBe(true);
    expect(await message(sign(claims))).toBe('The embedding secret key has not been set.');
  });
});
