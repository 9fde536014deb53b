import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A named signing key of static embedding (one per customer, say): tokens whose header names its `kid` are checked
 * against this key only, so one customer's key can be rotated or revoked without touching the others.
 */
@Entity('embedding_key')
export class EmbeddingKey {
  @PrimaryGeneratedColumn()
  id: number;

  /** The slug hosts put in the token header; it stays taken after revocation so an old `kid` never names a new key. */
  @Column({ type: 'varchar', length: 64, unique: true })
  kid: string;

  @Column({ type: 'varchar', length: 254 })
  name: string;

  /** Sealed with the SecretBox when ENCRYPTION_KEY is set; never selected unless asked for. */
  @Column({ type: 'text', select: false })
  secret: string;

  @CreateDateColumn()
  created_at: Date;

  @Column({ type: Date, nullable: true })
  revoked_at: Date | null;
}
