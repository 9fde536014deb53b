import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { parseJson } from '../../common/database/stored-json';
import { CollectionAccessService } from '../collections';
import { tableView } from '../fields';
import { SegmentsAndMetricsRepository } from './segments-and-metrics.repository';
import { SegmentsAndMetricsService } from './segments-and-metrics.service';
import { SegmentMetricHydrator } from './segment-metric-hydrator';
import type { SegmentOrMetric, SegmentMetricKind } from './segment-metric-kind';
import { comparableDefinition, rankBySimilarity } from '../content';

/** How many entries each list holds at most (Metabase's related API: 3 best and 2 other matches). */
export const RELATED_MAX = 5;

/** The part of a definition Metabase compares: a metric's aggregation and filter, a segment's filter. */
function comparable(m: SegmentOrMetric, model: SegmentMetricKind): unknown {
  return comparableDefinition(model, parseJson<unknown>(m.definition, {}));
}

/**
 * GET /api/segment/:id/related and /api/metric/:id/related (Metabase's related.clj): the table, the table's other
 * metrics and segments most alike first, the tables linked to it through foreign keys both ways, and the saved
 * questions on it the caller may see; each list bounded. All of it is on the one database the caller may read.
 */
@Injectable()
export class SegmentMetricRelatedService {
  constructor(
    private readonly service: SegmentsAndMetricsService,
    private readonly repo: SegmentsAndMetricsRepository,
    private readonly hydrator: SegmentMetricHydrator,
    private readonly collections: CollectionAccessService,
  ) {}

  async related(caller: AuthUser, model: SegmentMetricKind, id: number) {
    const self = await this.service.readable(caller, model, id);
    const [table] = await this.repo.tables([self.table_id]);
    const reference = comparable(self, model);
    const others = async (kind: SegmentMetricKind) => {
      const rows = (await this.repo.active(kind, self.table_id)).filter((r) => !(kind === model && r.id === self.id));
      return this.hydrator.views(
        kind,
        rankBySimilarity(reference, rows, (r) => comparable(r, kind), RELATED_MAX),
      );
    };
    const [metrics, segments, linkedFrom, linkingTo, cards] = await Promise.all([
      others('metric'),
      others('segment'),
      this.repo.linkedTables(self.table_id, 'from', RELATED_MAX),
      this.repo.linkedTables(self.table_id, 'to', RELATED_MAX),
      this.readableCardsOnTable(caller, self.table_id),
    ]);
    return {
      table: table ? tableView(table) : null,
      metrics,
      segments,
      'linked-from': linkedFrom.map(tableView),
      'linking-to': linkingTo.map(tableView),
      cards,
    };
  }

  private async readableCardsOnTable(caller: AuthUser, tableId: number) {
    return this.repo.cardsOnTable(tableId, await this.collections.readableWhere(caller, 'c.collection_id'), RELATED_MAX);
  }
}
