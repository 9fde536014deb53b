import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** One event of a timeline: an instant, and the zone it was entered in (for display). */
@Entity('timeline_event')
export class TimelineEvent {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  timeline_id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: Date })
  timestamp: Date;

  /** false: only the day counts (the event is drawn on the day, whatever the time). */
  @Column({ type: 'boolean', default: false })
  time_matters: boolean;

  @Column({ type: 'varchar', length: 255 })
  timezone: string;

  @Column({ type: 'varchar', length: 128, default: 'star' })
  icon: string;

  @Column({ type: 'boolean', default: false })
  archived: boolean;

  @Column({ type: 'integer' })
  creator_id: number;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
