import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity('api_key')
export class ApiKey {
  @PrimaryGeneratedColumn()
  id: number;

  /** The `api-key` user this key acts as; its group memberships are the key's permissions. */
  @Column({ type: 'integer' })
  user_id: number;

  @Column({ type: 'varchar', length: 254, unique: true })
  name: string;

  /** SHA-256 of the whole key: keys carry 256 random bits, so a fast hash is enough and allows a direct lookup. */
  @Column({ type: 'varchar', length: 64, unique: true, select: false })
  key_hash: string;

  /** The first characters of the key, shown masked so admins can tell keys apart. */
  @Column({ type: 'varchar', length: 16 })
  key_prefix: string;

  @Column({ type: 'integer' })
  creator_id: number;

  @Column({ type: 'integer' })
  updated_by_id: number;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
