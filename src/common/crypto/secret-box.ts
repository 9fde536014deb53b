import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, scryptSync } from 'node:crypto';

/** Values sealed with the scrypt-derived key. */
const PREFIX = 'enc:v2:';
/** Values sealed before v2, with a key stretched by HKDF only: still opened, re-sealed as v2 on their next write. */
const LEGACY_PREFIX = 'enc:v1:';

/**
 * scrypt, memory-hard, so a leaked app database does not let a weak ENCRYPTION_KEY be guessed at GPU speed.
 * N=2^15, r=8 takes 32 MiB and about 100 ms, once per process. The salt is fixed: the key is the instance's own
 * secret, and a stored salt would have to be read from the database before anything else could be.
 */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const SALT = 'analytics-server:secret-box:v2';

/** Derived keys by passphrase: a process that builds many apps (the tests) pays for scrypt once. */
const derived = new Map<string, Buffer>();

function deriveKey(passphrase: string): Buffer {
  let key = derived.get(passphrase);
  if (!key) {
    key = scryptSync(passphrase, SALT, 32, SCRYPT);
    derived.set(passphrase, key);
  }
  return key;
}

function legacyKey(passphrase: string): Buffer {
  return Buffer.from(hkdfSync('sha256', passphrase, 'analytics-server', 'secret-box:v1', 32));
}

/** A stored secret that the configured ENCRYPTION_KEY cannot open (another key, or altered data). */
export class SecretDecryptionError extends Error {
  constructor() {
    super('A stored secret could not be decrypted: ENCRYPTION_KEY is not the key it was encrypted with, or the value was altered');
  }
}

/**
 * AES-256-GCM for secrets at rest (sensitive settings, warehouse passwords). Without ENCRYPTION_KEY values are
 * stored as they are (the server warns at boot); values written encrypted stay readable once a key is set.
 */
export class SecretBox {
  private readonly key?: Buffer;
  private legacy?: Buffer;

  /** The key is derived here, once: build one SecretBox per process, at boot. */
  constructor(private readonly passphrase?: string) {
    if (passphrase) this.key = deriveKey(passphrase);
  }

  get enabled(): boolean {
    return this.key !== undefined;
  }

  seal(plain: string): string {
    if (!this.key) return plain;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
  }

  open(stored: string): string {
    const v2 = stored.startsWith(PREFIX);
    if (!v2 && !stored.startsWith(LEGACY_PREFIX)) return stored;
    if (!this.key || !this.passphrase) throw new Error('A stored secret is encrypted but ENCRYPTION_KEY is not set');
    const key = v2 ? this.key : (this.legacy ??= legacyKey(this.passphrase));
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
    if (raw.length < 28) throw new SecretDecryptionError();
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretDecryptionError();
    }
  }
}
