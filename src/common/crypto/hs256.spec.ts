import { createHmac } from 'node:crypto';
import { hmacKey, Hs256Error, type Hs256Refusal, verifyHs256 } from './hs256';

const SECRET = 'a-shared-secret-of-enough-length';
const NOW = 1_800_000_000;
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** A token exactly as given, HMAC-signed with `hash` (or unsigned). */
function token(header: object, payload: unknown, secret: string | null = SECRET, hash = 'sha256'): string {
  const head = `${b64(header)}.${b64(payload)}`;
  return `${head}.${secret === null ? '' : createHmac(hash, secret).update(head).digest('base64url')}`;
}
const HS256 = { alg: 'HS256', typ: 'JWT' };
const opts = { clockToleranceSeconds: 60, now: NOW };

function refusal(t: string, secret = SECRET): Hs256Refusal {
  try {
    verifyHs256(t, secret, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(Hs256Error);
    return (e as Hs256Error).refusal;
  }
  throw new Error('accepted');
}

describe('verifyHs256', () => {
  it('answers the payload as signed, keyed with the characters of the secret', () => {
    expect(verifyHs256(token(HS256, { a: 1, exp: NOW + 10 }), SECRET, opts)).toEqual({ a: 1, exp: NOW + 10 });
    expect(verifyHs256(token(HS256, [1, 2]), SECRET, opts)).toEqual([1, 2]);
    expect(refusal(token(HS256, { a: 1 }), 'another-secret')).toEqual({ reason: 'corrupt' });
  });

  it('pins HS256: another HMAC, `alg: none` and garbage are corrupt', () => {
    expect(refusal(token({ alg: 'HS384' }, { a: 1 }, SECRET, 'sha384'))).toEqual({ reason: 'corrupt' });
    expect(refusal(token({ alg: 'none' }, { a: 1 }, null))).toEqual({ reason: 'corrupt' });
    expect(refusal(token({ alg: 'HS256' }, { a: 1 }, null))).toEqual({ reason: 'corrupt' });
    expect(refusal('not.a.token')).toEqual({ reason: 'corrupt' });
  });

  it('checks exp and nbf with the given skew, and says when', () => {
    expect(verifyHs256(token(HS256, { exp: NOW - 59 }), SECRET, opts)).toEqual({ exp: NOW - 59 });
    expect(refusal(token(HS256, { exp: NOW - 60 }))).toEqual({ reason: 'expired', at: NOW - 60 });
    expect(verifyHs256(token(HS256, { nbf: NOW + 60 }), SECRET, opts)).toEqual({ nbf: NOW + 60 });
    expect(refusal(token(HS256, { nbf: NOW + 61 }))).toEqual({ reason: 'not-yet-valid', at: NOW + 61 });
  });
});

describe('hmacKey', () => {
  it('keeps one key object per secret, for several secrets in use at once', () => {
    const sso = hmacKey('the-sso-secret');
    const embed = hmacKey('the-embedding-secret');
    expect(hmacKey('the-sso-secret')).toBe(sso);
    expect(hmacKey('the-embedding-secret')).toBe(embed);
    expect(sso.export().toString('utf8')).toBe('the-sso-secret');
  });

  it('drops the oldest secret once a few newer ones are in use (a rotated secret is not kept for ever)', () => {
    const first = hmacKey('rotated-away');
    for (const s of ['s1', 's2', 's3', 's4']) hmacKey(s);
    const again = hmacKey('rotated-away');
    expect(again).not.toBe(first);
    expect(again.export().equals(first.export())).toBe(true);
  });
});
