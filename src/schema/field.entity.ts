import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type FieldVisibility = 'details-only' | 'hidden' | 'normal' | 'retired' | 'sensitive';
export type HasFieldValues = 'auto-list' | 'list' | 'none' | 'search';

export interface Fingerprint {
  global: { 'distinct-count': number; 'nil%': number };
  type?: {
    'type/Number'?: { min: number | null; max: number | null; avg: number | null };
    'type/Text'?: { 'average-length': number | null };
    'type/DateTime'?: { earliest: string | null; latest: string | null };
  };
}

/** A column of a warehouse table. Ids never change across syncs; user edits survive them (see `user_edited`). */
@Entity('metabase_field')
export class WarehouseField {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  table_id: number;

  @Column({ type: 'varchar', length: 254 })
  name: string;

  @Column({ type: 'varchar', length: 254 })
  display_name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 254 })
  database_type: string;

  @Column({ type: 'varchar', length: 64 })
  base_type: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  effective_type: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  semantic_type: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  coercion_strategy: string | null;

  @Column({ type: 'integer', nullable: true })
  fk_target_field_id: number | null;

  @Column({ type: 'simple-json', nullable: true })
  nfc_path: string[] | null;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ type: 'integer', default: 0 })
  position: number;

  @Column({ type: 'integer', default: 0 })
  database_position: number;

  @Column({ type: 'integer', default: 0 })
  custom_position: number;

  @Column({ type: 'boolean', default: false })
  database_is_pk: boolean;

  @Column({ type: 'boolean', default: false })
  database_required: boolean;

  @Column({ type: 'varchar', length: 16, default: 'normal' })
  visibility_type: FieldVisibility;

  @Column({ type: 'varchar', length: 16, default: 'none' })
  has_field_values: HasFieldValues;

  @Column({ type: 'simple-json', nullable: true })
  settings: Record<string, unknown> | null;

  @Column({ type: 'boolean', nullable: true })
  json_unfolding: boolean | null;

  @Column({ type: 'simple-json', nullable: true })
  fingerprint: Fingerprint | null;

  @Column({ type: 'text', nullable: true })
  points_of_interest: string | null;

  @Column({ type: 'text', nullable: true })
  caveats: string | null;

  @Column({ type: 'boolean', default: true })
  preview_display: boolean;

  @Column({ type: 'simple-json', nullable: true })
  user_edited: string[] | null;

  @Column({ type: Date, nullable: true })
  last_analyzed: Date | null;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
