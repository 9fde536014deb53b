import { createHmac } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { MessageError } from '../../common/errors/api-errors';
import { ALG_NONE, CORRUPT, headerKid, MISSING_ALG, NO_SECRET_KEY, verifyEmbedToken } from './embed-token';

const KEY = 'a'.repeat(32) + '0123456789abcdef'.repeat(2);
const jwt = new JwtService();
const NOW = 1_800_000_000;
const sign = (payload: object, key = KEY, algorithm: 'HS256' | 'HS512' = 'HS256') =>
  jwt.sign(payload, { secret: key, algorithm, noTimestamp: true });
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** A token with any header, HMAC-SHA256-signed with `key` (or unsigned). */
const raw = (header: object, payload: object, key: string | null = KEY) => {
  const head = `${b64(header)}.${b64(payload)}`;
  return `${head}.${key === null ? '' : createHmac('sha256', key).update(head).digest('base64url')}`;
};
const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).status).toBe(400);
    return (e as MessageError).message;
  }
  throw new Error('not refused');
};

describe('verifyEmbedToken', () => {
  const card = { resource: { question: 7 }, params: { state: 'TX' } };

  it('answers the verified resource id and params of an HS256 token signed with the key string itself', () => {
    expect(verifyEmbedToken(sign(card), KEY, 'question', { now: NOW })).toEqual({ resource: 'question', id: 7, params: { state: 'TX' } });
    // The key's characters are the HMAC key, not the 32 bytes its hex encodes.
    expect(refusal(() => verifyEmbedToken(sign(card, Buffer.from(KEY, 'hex').toString('latin1')), KEY, 'question'))).toBe(CORRUPT);
    expect(verifyEmbedToken(raw({ alg: 'HS256', typ: 'JWT' }, card), KEY, 'question').id).toBe(7);
  });

  it('refuses without a key set', () => {
    expect(refusal(() => verifyEmbedToken(sign(card), null, 'question'))).toBe(NO_SECRET_KEY);
    expect(refusal(() => verifyEmbedToken(sign(card), '', 'question'))).toBe(NO_SECRET_KEY);
  });

  it('refuses alg none, a missing alg, and any algorithm but HS256', () => {
    expect(refusal(() => verifyEmbedToken(raw({ alg: 'none' }, card, null), KEY, 'question'))).toBe(ALG_NONE);
    expect(refusal(() => verifyEmbedToken(raw({ alg: 'None' }, card), KEY, 'question'))).toBe(ALG_NONE);
    expect(refusal(() => verifyEmbedToken(raw({ typ: 'JWT' }, card), KEY, 'question'))).toBe(MISSING_ALG);
    expect(refusal(() => verifyEmbedToken(sign(card, KEY, 'HS512'), KEY, 'question'))).toBe(CORRUPT);
    // An HS256 signature under a header that claims another algorithm.
    expect(refusal(() => verifyEmbedToken(raw({ alg: 'HS384' }, card), KEY, 'question'))).toBe(CORRUPT);
    expect(refusal(() => verifyEmbedToken(raw({ alg: 'RS256' }, card), KEY, 'question'))).toBe(CORRUPT);
  });

  it('refuses a bad signature and what is not a token', () => {
    expect(refusal(() => verifyEmbedToken(sign(card, 'b'.repeat(64)), KEY, 'question'))).toBe(CORRUPT);
    const [h, , s] = sign(card).split('.');
    expect(refusal(() => verifyEmbedToken(`${h}.${b64({ ...card, resource: { question: 8 } })}.${s}`, KEY, 'question'))).toBe(CORRUPT);
    for (const junk of ['', 'abc', 'a.b.c', `${h}.`, '..']) expect(refusal(() => verifyEmbedToken(junk, KEY, 'question'))).toBe(CORRUPT);
  });

  it('refuses an expired token after 60 s of leeway, naming its exp', () => {
    const exp = NOW - 61;
    expect(refusal(() => verifyEmbedToken(sign({ ...card, exp }), KEY, 'question', { now: NOW }))).toBe(`Token is expired (${exp})`);
    expect(verifyEmbedToken(sign({ ...card, exp: NOW - 59 }), KEY, 'question', { now: NOW }).id).toBe(7);
    expect(verifyEmbedToken(sign({ ...card, exp: NOW + 600 }), KEY, 'question', { now: NOW }).id).toBe(7);
    expect(refusal(() => verifyEmbedToken(raw({ alg: 'HS256' }, { ...card, exp: 'soon' }), KEY, 'question', { now: NOW }))).toBe(CORRUPT);
  });

  it('refuses a token without params, or with params that are not a map; {} is fine', () => {
    expect(refusal(() => verifyEmbedToken(sign({ resource: { question: 7 } }), KEY, 'question'))).toBe(
      'Token is missing value for keypath [:params]',
    );
    expect(refusal(() => verifyEmbedToken(sign({ resource: { question: 7 }, params: null }), KEY, 'question'))).toBe(
      'Token is missing value for keypath [:params]',
    );
    expect(refusal(() => verifyEmbedToken(sign({ resource: { question: 7 }, params: [1] }), KEY, 'question'))).toBe(
      'Token `params` must be a map.',
    );
    expect(verifyEmbedToken(sign({ resource: { question: 7 }, params: {} }), KEY, 'question').params).toEqual({});
  });

  it('refuses a token for the other kind of resource, and a resource id that is not a positive integer', () => {
    const dash = sign({ resource: { dashboard: 3 }, params: {} });
    expect(refusal(() => verifyEmbedToken(dash, KEY, 'question'))).toBe('Token is missing value for keypath [:resource :question]');
    expect(refusal(() => verifyEmbedToken(sign(card), KEY, 'dashboard'))).toBe('Token is missing value for keypath [:resource :dashboard]');
    expect(refusal(() => verifyEmbedToken(sign({ params: {} }), KEY, 'dashboard'))).toBe(
      'Token is missing value for keypath [:resource :dashboard]',
    );
    for (const id of ['3', 3.5, -1, 0, true, [3], { id: 3 }]) {
      expect(refusal(() => verifyEmbedToken(sign({ resource: { dashboard: id }, params: {} }), KEY, 'dashboard'))).toBe(
        'Dashboard id should be a positive integer.',
      );
    }
    expect(refusal(() => verifyEmbedToken(sign({ resource: { question: '7' }, params: {} }), KEY, 'question'))).toBe(
      'Card id should be a positive integer.',
    );
  });

  it('a preview token needs _embedding_params, a valid whitelist', () => {
    const tok = (extra: object) => sign({ ...card, ...extra });
    expect(verifyEmbedToken(tok({ _embedding_params: { state: 'locked' } }), KEY, 'question', { preview: true }).embeddingParams).toEqual({
      state: 'locked',
    });
    expect(refusal(() => verifyEmbedToken(tok({}), KEY, 'question', { preview: true }))).toBe(
      'Token is missing value for keypath [:_embedding_params]',
    );
    expect(refusal(() => verifyEmbedToken(tok({ _embedding_params: { state: 'open' } }), KEY, 'question', { preview: true }))).toBe(
      'value must be a valid embedding params map.',
    );
    // Outside preview the claim is ignored: the object's stored whitelist applies.
    expect(verifyEmbedToken(tok({ _embedding_params: { state: 'enabled' } }), KEY, 'question').embeddingParams).toBeUndefined();
  });
});

describe('headerKid', () => {
  it('reads the kid of the JOSE header as it stands, and nothing from what is not a header', () => {
    expect(headerKid(raw({ alg: 'HS256', kid: 'acme' }, {}))).toBe('acme');
    expect(headerKid(raw({ alg: 'HS256', kid: 7 }, {}))).toBe(7);
    expect(headerKid(raw({ alg: 'HS256', kid: null }, {}))).toBeNull();
    expect(headerKid(raw({ alg: 'HS256' }, {}))).toBeUndefined();
    // The payload's kid is not the header's.
    expect(headerKid(raw({ alg: 'HS256' }, { kid: 'acme' }))).toBeUndefined();
    for (const bad of ['', 'not-a-token', '.x.y', `${b64([1])}.x.y`, `${b64('kid')}.x.y`]) expect(headerKid(bad)).toBeUndefined();
  });
});
