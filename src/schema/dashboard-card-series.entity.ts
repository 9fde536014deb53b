import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An extra card drawn on a dashcard (a combined series), in `position` order. */
@Entity('dashboardcard_series')
export class DashboardCardSeries {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  dashboardcard_id: number;

  @Column({ type: 'integer' })
  card_id: number;

  @Column({ type: 'integer', default: 0 })
  position: number;
}
