import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type CardType = 'question' | 'model' | 'metric';

/**
 * A saved question, model or metric. The JSON columns hold text: `dataset_query` exactly as it was sent (legacy MBQL
 * or MBQL 5), so it is answered back the same way.
 */
@Entity('report_card')
export class Card {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 254 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 254 })
  display: string;

  @Column({ type: 'text' })
  dataset_query: string;

  @Column({ type: 'text' })
  visualization_settings: string;

  @Column({ type: 'text', nullable: true })
  parameters: string | null;

  @Column({ type: 'text', nullable: true })
  parameter_mappings: string | null;

  @Column({ type: 'text', nullable: true })
  result_metadata: string | null;

  @Column({ type: 'varchar', length: 16, default: 'question' })
  type: CardType;

  @Column({ type: 'varchar', length: 16, nullable: true })
  query_type: string | null;

  @Column({ type: 'integer', nullable: true })
  database_id: number | null;

  @Column({ type: 'integer', nullable: true })
  table_id: number | null;

  @Column({ type: 'integer', nullable: true })
  source_card_id: number | null;

  @Column({ type: 'integer', nullable: true })
  collection_id: number | null;

  @Column({ type: 'integer', nullable: true })
  collection_position: number | null;

  @Column({ type: 'integer', nullable: true })
  cache_ttl: number | null;

  @Column({ type: 'boolean', default: false })
  archived: boolean;

  /** Archived on its own (not with its collection): unarchiving the collection leaves it archived. */
  @Column({ type: 'boolean', default: false })
  archived_directly: boolean;

  @Column({ type: 'boolean', default: true })
  collection_preview: boolean;

  @Column({ type: 'boolean', default: false })
  enable_embedding: boolean;

  @Column({ type: 'text', nullable: true })
  embedding_params: string | null;

  @Column({ type: 'varchar', length: 36, nullable: true })
  public_uuid: string | null;

  @Column({ type: 'integer', nullable: true })
  made_public_by_id: number | null;

  @Column({ type: 'integer' })
  creator_id: number;

  @Column({ type: 'varchar', length: 21, nullable: true })
  entity_id: string | null;

  @Column({ type: 'integer', default: 0 })
  view_count: number;

  @Column({ type: Date, nullable: true })
  last_used_at: Date | null;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
