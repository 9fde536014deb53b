import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A card placed on a dashboard (card_id null: a text, heading or link card). JSON columns hold text. */
@Entity('report_dashboardcard')
export class DashboardCard {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  dashboard_id: number;

  @Column({ type: 'integer', nullable: true })
  card_id: number | null;

  @Column({ type: 'integer', nullable: true })
  dashboard_tab_id: number | null;

  @Column({ type: 'integer', nullable: true })
  action_id: number | null;

  @Column({ type: 'integer', default: 0 })
  row: number;

  @Column({ type: 'integer', default: 0 })
  col: number;

  @Column({ type: 'integer', default: 4 })
  size_x: number;

  @Column({ type: 'integer', default: 4 })
  size_y: number;

  @Column({ type: 'text', nullable: true })
  parameter_mappings: string | null;

  @Column({ type: 'text', nullable: true })
  visualization_settings: string | null;

  @Column({ type: 'text', nullable: true })
  inline_parameters: string | null;

  @Column({ type: 'varchar', length: 21, nullable: true })
  entity_id: string | null;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
