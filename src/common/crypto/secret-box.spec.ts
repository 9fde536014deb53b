import { createCipheriv, hkdfSync, randomBytes, scryptSync } from 'node:crypto';
import { SecretBox, SecretDecryptionError } from './secret-box';

// scryptSync counted (and still run): the key derivation must happen once per passphrase.
jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  return { ...actual, scryptSync: jest.fn(actual.scryptSync) };
});

const KEY = 'correct horse battery staple';

/** A value as the HKDF-keyed SecretBox (before v2) wrote it. */
function legacySeal(passphrase: string, plain: string): string {
  const key = Buffer.from(hkdfSync('sha256', passphrase, 'analytics-server', 'secret-box:v1', 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return 'enc:v1:' + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
}

describe('SecretBox', () => {
  it('seals new values as v2 with the scrypt-derived key, and opens them again', () => {
    const box = new SecretBox(KEY);
    const sealed = box.seal('hunter2');
    expect(sealed).toMatch(/^enc:v2:/);
    expect(sealed).not.toContain('hunter2');
    expect(box.open(sealed)).toBe('hunter2');
    expect(new SecretBox(KEY).open(sealed)).toBe('hunter2');
  });

  it('does not use the HKDF key for new values', () => {
    const sealed = new SecretBox(KEY).seal('hunter2');
    const asLegacy = sealed.replace(/^enc:v2:/, 'enc:v1:');
    expect(() => new SecretBox(KEY).open(asLegacy)).toThrow(SecretDecryptionError);
  });

  it('still opens values sealed with the legacy HKDF-derived key', () => {
    expect(new SecretBox(KEY).open(legacySeal(KEY, 'old secret'))).toBe('old secret');
  });

  it('fails cleanly with the wrong key, for new and legacy values', () => {
    const wrong = new SecretBox('another key entirely');
    expect(() => wrong.open(new SecretBox(KEY).seal('hunter2'))).toThrow(SecretDecryptionError);
    expect(() => wrong.open(legacySeal(KEY, 'old secret'))).toThrow(SecretDecryptionError);
    expect(() => wrong.open('enc:v2:AAAA')).toThrow(SecretDecryptionError);
  });

  it('stores values as they are without a key, and refuses to open sealed ones', () => {
    const none = new SecretBox();
    expect(none.seal('plain')).toBe('plain');
    expect(none.open('plain')).toBe('plain');
    expect(() => none.open(new SecretBox(KEY).seal('x'))).toThrow(/ENCRYPTION_KEY is not set/);
  });

  it('derives the key once per passphrase in a process', () => {
    const scrypt = scryptSync as jest.MockedFunction<typeof scryptSync>;
    scrypt.mockClear();
    const passphrase = `a passphrase of this test only ${Math.random()}`;
    const first = new SecretBox(passphrase).seal('x');
    for (let i = 0; i < 20; i++) expect(new SecretBox(passphrase).open(first)).toBe('x');
    expect(scrypt).toHaveBeenCalledTimes(1);
  });
});
