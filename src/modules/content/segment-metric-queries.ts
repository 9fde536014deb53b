import { BusQuery, type EventBus } from '../../common/events/event-bus';
import type { InnerQuery } from '../../query-engine/mbql/types';

/*
 * How the table, field, card and dataset answers, and the query engine, find segments and metrics without
 * depending on the segments-and-metrics module (which depends on the dataset and fields modules through the query
 * engine): they ask the event bus, and that module answers. Without it (no answer) there are none.
 */

export type SegmentMetricKind = 'segment' | 'metric';

/** A segment or metric as GET /api/segment/:id or /api/metric/:id answers it (creator and query description hydrated). */
export interface SegmentMetricView {
  id: number;
  table_id: number;
  name: string;
  description: string | null;
  archived: boolean;
  /** The MBQL fragment: a segment's `{source-table, filter}`, a metric's `{source-table, aggregation, filter?}`. */
  definition: unknown;
  [key: string]: unknown;
}

/**
 * The unarchived segments or metrics of each of `tableIds` (by name), hydrated, in a bounded number of app-DB
 * queries whatever the number of tables; a table without any is absent from the map. The asker has checked that
 * whoever asks may read the tables.
 */
export class SegmentsMetricsOfTablesQuery extends BusQuery<Map<number, SegmentMetricView[]>> {
  constructor(
    readonly kind: SegmentMetricKind,
    readonly tableIds: number[],
  ) {
    super();
  }
}

/** A segment or metric as the query engine expands `["segment", id]` and `["metric", id]`; null when there is none. */
export interface SegmentMetricDefinition {
  id: number;
  tableId: number;
  name: string;
  definition: InnerQuery;
}

export class SegmentMetricDefinitionQuery extends BusQuery<SegmentMetricDefinition | null> {
  constructor(
    readonly kind: SegmentMetricKind,
    readonly id: number,
  ) {
    super();
  }
}

/** The SegmentsMetricsOfTablesQuery's answer; no segments or metrics at all when no module answers. */
export async function segmentsMetricsOf(
  bus: EventBus,
  kind: SegmentMetricKind,
  tableIds: number[],
): Promise<Map<number, SegmentMetricView[]>> {
  return (await bus.askOne(new SegmentsMetricsOfTablesQuery(kind, tableIds))) ?? new Map();
}
