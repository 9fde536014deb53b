import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EmbeddingKey } from '../../schema/embedding-key.entity';

/** A key with its stored (possibly sealed) secret: only the service that opens it asks for this. */
export type EmbeddingKeyWithSecret = EmbeddingKey & { secret: string };

@Injectable()
export class EmbeddingKeysRepository {
  constructor(private readonly db: DataSource) {}

  /** Every key, revoked ones too, with their stored secrets (the listing masks them). */
  list(): Promise<EmbeddingKeyWithSecret[]> {
    return this.withSecret().orderBy('k.created_at', 'ASC').addOrderBy('k.id', 'ASC').getMany() as Promise<EmbeddingKeyWithSecret[]>;
  }

  findByKid(kid: string): Promise<EmbeddingKeyWithSecret | null> {
    return this.withSecret().where('k.kid = :kid', { kid }).getOne() as Promise<EmbeddingKeyWithSecret | null>;
  }

  async insert(values: Pick<EmbeddingKey, 'kid' | 'name' | 'secret'>): Promise<void> {
    await this.db.manager.insert(EmbeddingKey, values);
  }

  /** Replaces the secret of a key that is not revoked; false when there was none. */
  async replaceSecret(kid: string, secret: string): Promise<boolean> {
    const res = await this.db
      .createQueryBuilder()
      .update(EmbeddingKey)
      .set({ secret })
      .where('kid = :kid AND revoked_at IS NULL', { kid })
      .execute();
    return (res.affected ?? 0) > 0;
  }

  /** Marks a key revoked once; a second revocation keeps the first instant. */
  async revoke(kid: string, at: Date): Promise<void> {
    await this.db
      .createQueryBuilder()
      .update(EmbeddingKey)
      .set({ revoked_at: at })
      .where('kid = :kid AND revoked_at IS NULL', { kid })
      .execute();
  }

  private withSecret() {
    return this.db.manager.createQueryBuilder(EmbeddingKey, 'k').addSelect('k.secret');
  }
}
