import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';

/**
 * AES-256-GCM for secrets at rest (sensitive settings, warehouse passwords). Without ENCRYPTION_KEY values are
 * stored as they are (the server warns at boot); values written encrypted stay readable once a key is set.
 */
export class SecretBox {
  private readonly key?: Buffer;

  constructor(passphrase?: string) {
    if (passphrase) {
      this.key = Buffer.from(hkdfSync('sha256', passphrase, 'analytics-server', 'secret-box:v1', 32));
    }
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
    if (!stored.startsWith(PREFIX)) return stored;
    if (!this.key) throw new Error('A stored secret is encrypted but ENCRYPTION_KEY is not set');
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
