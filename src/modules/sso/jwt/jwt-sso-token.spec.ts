import { createHmac } from 'node:crypto';
import { MessageError } from '../../../common/errors/api-errors';
import { verifySsoToken } from './jwt-sso-token';

const SECRET = 'a-shared-secret-of-enough-length';
const NOW = 1_800_000_000;

function refusal(token: string, secret = SECRET): string {
  try {
    verifySsoToken(token, secret, NOW);
  } catch (e) {
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).status).toBe(401);
    return e instanceof Error ? e.message : '';
  }
  throw new Error('accepted');
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** A token exactly as given (jsonwebtoken would add or drop `iat`). */
function sign(claims: unknown, opts: { algorithm?: 'HS256' | 'HS384' } = {}, secret = SECRET): string {
  const alg = opts.algorithm ?? 'HS256';
  const head = `${b64({ alg, typ: 'JWT' })}.${b64(claims)}`;
  return `${head}.${createHmac(alg === 'HS256' ? 'sha256' : 'sha384', secret)
    .update(head)
    .digest('base64url')}`;
}

describe('verifySsoToken', () => {
  it('answers the claims of a good token', () => {
    expect(verifySsoToken(sign({ email: 'a@b.c', exp: NOW + 600, iat: NOW }), SECRET, NOW)).toEqual({
      email: 'a@b.c',
      exp: NOW + 600,
      iat: NOW,
    });
  });

  it('checks exp and iat with 60 s of leeway, iat at most 180 s old', () => {
    expect(verifySsoToken(sign({ exp: NOW - 59 }), SECRET, NOW).exp).toBe(NOW - 59);
    expect(refusal(sign({ exp: NOW - 61 }))).toBe('Token is expired');
    expect(verifySsoToken(sign({ iat: NOW - 240 }), SECRET, NOW).iat).toBe(NOW - 240);
    expect(refusal(sign({ iat: NOW - 241 }))).toBe('Token is older than 180 seconds');
    expect(refusal(sign({ iat: NOW + 61, exp: NOW + 600 }))).toBe('Token is not yet valid');
    expect(refusal(sign({ nbf: NOW + 120, exp: NOW + 600 }))).toBe('Token is not yet valid');
    expect(refusal(sign({ email: 'a@b.c' }))).toBe('Token has neither `exp` nor `iat`');
  });

  it('pins HS256 and the secret', () => {
    expect(refusal(sign({ exp: NOW + 600 }, { algorithm: 'HS384' }))).toBe('Message seems corrupt or manipulated');
    expect(refusal(`${b64({ alg: 'none' })}.${b64({ exp: NOW + 600 })}.`)).toBe('Message seems corrupt or manipulated');
    expect(refusal(sign({ exp: NOW + 600 }), 'another-secret-entirely')).toBe('Message seems corrupt or manipulated');
    expect(refusal('not.a.token')).toBe('Message seems corrupt or manipulated');
    expect(refusal(sign([1, 2]))).toBe('Message seems corrupt or manipulated');
  });
});
