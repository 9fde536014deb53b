import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A dashboard. `parameters` and `embedding_params` hold JSON text. */
@Entity('report_dashboard')
export class Dashboard {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 254 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text', nullable: true })
  parameters: string | null;

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

  @Column({ type: 'text', nullable: true })
  points_of_interest: string | null;

  @Column({ type: 'text', nullable: true })
  caveats: string | null;

  @Column({ type: 'integer', nullable: true })
  position: number | null;

  @Column({ type: 'boolean', default: false })
  show_in_getting_started: boolean;

  @Column({ type: 'varchar', length: 16, default: 'fixed' })
  width: string;

  @Column({ type: 'boolean', default: true })
  auto_apply_filters: boolean;

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
  last_viewed_at: Date | null;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
