import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * What a legacy segment and a legacy metric share: a named MBQL fragment on a table, stored as JSON text in
 * `definition` (a segment's `{source-table, filter}`, a metric's `{source-table, aggregation, filter?}`).
 */
export abstract class SegmentMetricRow {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  table_id: number;

  @Column({ type: 'integer' })
  creator_id: number;

  @Column({ type: 'varchar', length: 254 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: false })
  archived: boolean;

  @Column({ type: 'text' })
  definition: string;

  @Column({ type: 'text', nullable: true })
  caveats: string | null;

  @Column({ type: 'text', nullable: true })
  points_of_interest: string | null;

  @Column({ type: 'boolean', default: false })
  show_in_getting_started: boolean;

  @Column({ type: 'varchar', length: 21, nullable: true })
  entity_id: string | null;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}

/** A legacy segment: a saved filter, used in queries as `["segment", id]`. */
@Entity('segment')
export class Segment extends SegmentMetricRow {}

/** A legacy metric: a saved aggregation, used in queries as `["metric", id]`. */
@Entity('metric')
export class LegacyMetric extends SegmentMetricRow {
  @Column({ type: 'text', nullable: true })
  how_is_this_calculated: string | null;
}

/** One of the (at most three) important fields of a metric, for the Getting Started guide. */
@Entity('metric_important_field')
export class MetricImportantField {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  metric_id: number;

  @Column({ type: 'integer' })
  field_id: number;
}
