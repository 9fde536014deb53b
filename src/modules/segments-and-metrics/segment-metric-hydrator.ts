import { Injectable } from '@nestjs/common';
import { parseJson } from '../../common/database/stored-json';
import { SegmentsAndMetricsRepository } from './segments-and-metrics.repository';
import type { SegmentOrMetric, SegmentMetricKind } from './segment-metric-kind';
import { creatorView, toSegmentMetricView } from './segment-metric-view';
import { describeQuery, references } from './query-description';

/** Segments and metrics as the API answers them: creator and query description hydrated, a page in a few queries. */
@Injectable()
export class SegmentMetricHydrator {
  constructor(private readonly repo: SegmentsAndMetricsRepository) {}

  async views(model: SegmentMetricKind, rows: SegmentOrMetric[], opts: { databaseIds?: boolean } = {}) {
    if (rows.length === 0) return [];
    const definitions = rows.map((r) => parseJson<unknown>(r.definition, {}));
    const refs = definitions.map(references);
    const [users, tables, fields, segments, metrics] = await Promise.all([
      this.repo.users(rows.map((r) => r.creator_id)),
      this.repo.tables(rows.map((r) => r.table_id)),
      this.repo.fields(refs.flatMap((r) => r.fields)),
      this.repo.names(
        'segment',
        refs.flatMap((r) => r.segments),
      ),
      this.repo.names(
        'metric',
        refs.flatMap((r) => r.metrics),
      ),
    ]);
    const userById = new Map(users.map((u) => [u.id, u]));
    const tableById = new Map(tables.map((t) => [t.id, t]));
    const fieldNames = new Map(fields.map((f) => [f.id, f.display_name]));
    return rows.map((r, i) => {
      const user = userById.get(r.creator_id);
      const table = tableById.get(r.table_id);
      return toSegmentMetricView(model, r, {
        creator: user ? creatorView(user) : null,
        query_description: describeQuery(definitions[i], { table: table?.display_name ?? null, fields: fieldNames, segments, metrics }),
        ...(opts.databaseIds ? { database_id: table?.db_id ?? null } : {}),
      });
    });
  }

  async view(model: SegmentMetricKind, row: SegmentOrMetric) {
    return (await this.views(model, [row]))[0];
  }
}
