import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { uniqueOr } from '../../common/database/unique-violation';
import { MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { CreateEmbeddingKeyDto, EmbeddingKeyView, KID_PATTERN, toEmbeddingKeyView } from './embedding-keys.dto';
import { EmbeddingKeysRepository, type EmbeddingKeyWithSecret } from './embedding-keys.repository';

export const KID_TAKEN = 'A signing key with this kid already exists.';
export const KEY_REVOKED = 'This signing key has been revoked.';

/** 256 random bits as 64 hex characters: the format of `embedding-secret-key`. */
const generateSecret = () => randomBytes(32).toString('hex');

const kidTaken = (kid: string) => ValidationError.of('kid', KID_TAKEN, kid);

/**
 * Named signing keys of static embedding. Secrets are sealed at rest, shown in full only in the answer that makes
 * them (create, rotate), and handed to the token guards by `kid`; a revoked key's row stays so its `kid` is never
 * reused and its old tokens keep failing.
 */
@Injectable()
export class EmbeddingKeysService {
  constructor(
    private readonly keys: EmbeddingKeysRepository,
    private readonly box: SecretBox,
  ) {}

  async list(): Promise<EmbeddingKeyView[]> {
    return (await this.keys.list()).map((k) => toEmbeddingKeyView(k, this.box.open(k.secret)));
  }

  async create(dto: CreateEmbeddingKeyDto): Promise<EmbeddingKeyView> {
    if (await this.keys.findByKid(dto.kid)) throw kidTaken(dto.kid);
    const secret = dto.secret ?? generateSecret();
    await uniqueOr(
      () => this.keys.insert({ kid: dto.kid, name: dto.name, secret: this.box.seal(secret) }),
      () => kidTaken(dto.kid),
    );
    return this.reveal(dto.kid, secret);
  }

  /** A new secret under the same `kid`: tokens signed with the old one fail from this commit on. */
  async rotate(kid: string): Promise<EmbeddingKeyView> {
    await this.requireLive(kid);
    const secret = generateSecret();
    // Revoked between the check and the write: the update finds no live row.
    if (!(await this.keys.replaceSecret(kid, this.box.seal(secret)))) throw new MessageError(KEY_REVOKED);
    return this.reveal(kid, secret);
  }

  /** Revoking twice is not an error: the key is revoked either way, since the first time. */
  async revoke(kid: string): Promise<void> {
    if (!(await this.find(kid))) throw new NotFoundError();
    await this.keys.revoke(kid, new Date());
  }

  /**
   * The secret that verifies tokens naming `kid`, or null when no live key has that kid (unknown or revoked): the
   * caller refuses those tokens as it refuses a bad signature, so a probe learns nothing about which kids exist.
   */
  async secretFor(kid: string): Promise<string | null> {
    const key = await this.find(kid);
    return key && !key.revoked_at ? this.box.open(key.secret) : null;
  }

  private async requireLive(kid: string): Promise<EmbeddingKeyWithSecret> {
    const key = await this.find(kid);
    if (!key) throw new NotFoundError();
    if (key.revoked_at) throw new MessageError(KEY_REVOKED);
    return key;
  }

  /** A kid that could not have been created is not looked up. */
  private find(kid: string): Promise<EmbeddingKeyWithSecret | null> {
    return KID_PATTERN.test(kid) ? this.keys.findByKid(kid) : Promise.resolve(null);
  }

  private async reveal(kid: string, secret: string): Promise<EmbeddingKeyView> {
    return toEmbeddingKeyView((await this.keys.findByKid(kid))!, secret, true);
  }
}
