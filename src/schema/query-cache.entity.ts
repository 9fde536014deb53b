import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One cached result (see QueryCacheService). */
@Entity('query_cache')
export class QueryCacheEntry {
  /** The cache key: sha256 hex of the query, its parameters and the caller's permission shape. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  query_hash: string;

  /** gzip + base64 of the result JSON. */
  @Column({ type: 'text' })
  results: string;

  /** Size of the result JSON before compression. */
  @Column({ type: 'integer' })
  size_bytes: number;

  /** When the result was stored. */
  @Column({ type: Date })
  updated_at: Date;

  @Column({ type: Date })
  expires_at: Date;
}
