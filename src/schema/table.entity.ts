import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type TableVisibility = 'cruft' | 'hidden' | 'technical' | null;
export type FieldOrder = 'alphabetical' | 'custom' | 'database' | 'smart';

/** A table (or view) of a warehouse, as sync found it. Ids never change across syncs; vanished tables go inactive. */
@Entity('metabase_table')
export class WarehouseTable {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  db_id: number;

  @Column({ type: 'varchar', length: 254, nullable: true })
  schema: string | null;

  @Column({ type: 'varchar', length: 254 })
  name: string;

  @Column({ type: 'varchar', length: 254 })
  display_name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  entity_type: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  visibility_type: TableVisibility;

  @Column({ type: 'varchar', length: 16, default: 'database' })
  field_order: FieldOrder;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ type: 'boolean', default: false })
  is_view: boolean;

  @Column({ type: 'boolean', default: false })
  show_in_getting_started: boolean;

  @Column({ type: 'text', nullable: true })
  points_of_interest: string | null;

  @Column({ type: 'text', nullable: true })
  caveats: string | null;

  @Column({
    type: 'bigint',
    nullable: true,
    transformer: { to: (v: number | null) => v, from: (v: string | number | null) => (v === null ? null : Number(v)) },
  })
  estimated_row_count: number | null;

  @Column({ type: 'varchar', length: 16, default: 'complete' })
  initial_sync_status: string;

  /** Which of the user-editable columns a person changed; sync never overwrites those. */
  @Column({ type: 'simple-json', nullable: true })
  user_edited: string[] | null;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
