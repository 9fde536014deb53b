import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A tab of a dashboard; dashcards point at it through `dashboard_tab_id`. */
@Entity('dashboard_tab')
export class DashboardTab {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  dashboard_id: number;

  @Column({ type: 'varchar', length: 254 })
  name: string;

  @Column({ type: 'integer', default: 0 })
  position: number;

  @Column({ type: 'varchar', length: 21, nullable: true })
  entity_id: string | null;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
