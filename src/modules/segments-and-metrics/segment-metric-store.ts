import { Injectable } from '@nestjs/common';
import type { SegmentMetricKind, SegmentMetricView } from '../content';
import { SegmentsAndMetricsRepository } from './segments-and-metrics.repository';
import { SegmentMetricHydrator } from './segment-metric-hydrator';

/**
 * The content module's SegmentsMetricsOfTablesQuery, answered: the segments or metrics of many tables in one query, hydrated
 * together (a few more, whatever their number).
 */
@Injectable()
export class SegmentMetricStore {
  constructor(
    private readonly repo: SegmentsAndMetricsRepository,
    private readonly hydrator: SegmentMetricHydrator,
  ) {}

  async onTables(kind: SegmentMetricKind, tableIds: number[]): Promise<Map<number, SegmentMetricView[]>> {
    const views = await this.hydrator.views(kind, await this.repo.activeOnTables(kind, tableIds));
    const byTable = new Map<number, SegmentMetricView[]>();
    for (const v of views) {
      const list = byTable.get(v.table_id) ?? [];
      list.push(v);
      byTable.set(v.table_id, list);
    }
    return byTable;
  }
}
