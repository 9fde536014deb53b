import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { DatasetQuery } from '../../query-engine/mbql/types';
import { segmentsMetricsOf } from '../content';
import { EventBus } from '../../common/events/event-bus';
import { DatabasesRepository } from '../databases';
import { FieldHydrator, FieldsRepository, MetadataAccess, tableView } from '../fields';
import { WarehouseField } from '../../schema/field.entity';
import { DIMENSION_OPTIONS, fieldDimensionOptions } from '../tables';
import { WarehouseTable } from '../../schema/table.entity';
import { checkQueryBody, datasetQueryOf, normalizedOrError } from './query-body';

/**
 * POST /api/dataset/query_metadata (v0.51): what the query builder needs to show an ad-hoc query, as Metabase's
 * batch-fetch-query-metadata: its database; the tables it touches (`source-table` at every level and in joins,
 * plus the tables the foreign keys of those tables point at, which implicit joins reach), each with its fields;
 * and the fields of native field filters. What the caller may not read is left out. The segments and metrics of all
 * the tables come in one query each (this is also how a dashboard's query_metadata gets them, per database).
 */
@Injectable()
export class DatasetMetadataService {
  constructor(
    private readonly access: MetadataAccess,
    private readonly fields: FieldsRepository,
    private readonly databases: DatabasesRepository,
    private readonly hydrator: FieldHydrator,
    private readonly bus: EventBus,
  ) {}

  async queryMetadata(caller: AuthUser, body: unknown) {
    const query = parseBody(body);
    const db = await this.databases.findById(query.database);
    if (!db) throw new NotFoundError();
    const dbViews = await this.access.readableDbViews(caller, [db.id]);
    const dbView = dbViews.get(db.id);
    if (!dbView) return { databases: [], tables: [], fields: [] };

    const ids = { tables: new Set<number>(), tagFields: new Set<number>() };
    collect(query, ids, false);
    const sources = await this.tablesIn(db.id, [...ids.tables]);
    // FK targets of the source tables' fields: implicit joins and remapping reach those tables.
    const targetIds = (await this.fields.activeFields(sources.map((t) => t.id)))
      .map((f) => f.fk_target_field_id)
      .filter((x): x is number => x !== null);
    const targetTables = (await this.fields.fieldsByIds(targetIds)).filter((f) => f.active).map((f) => f.table_id);
    const tables = await this.tablesIn(db.id, [...new Set([...sources.map((t) => t.id), ...targetTables])]);

    const binning = dbView.features.includes('binning');
    const tableIds = tables.map((t) => t.id);
    const all = await this.fields.activeFields(tableIds);
    const [hydrated, segments, metrics] = await Promise.all([
      this.hydrator.detailed(all.filter(shown)),
      segmentsMetricsOf(this.bus, 'segment', tableIds),
      segmentsMetricsOf(this.bus, 'metric', tableIds),
    ]);
    const tableViews = tables.map((t) => ({
      ...tableView(t),
      db: { ...dbView, details: undefined },
      fields: hydrated.filter((f) => f.table_id === t.id).map((f) => ({ ...f, ...fieldDimensionOptions(f, binning) })),
      segments: segments.get(t.id) ?? [],
      metrics: metrics.get(t.id) ?? [],
      dimension_options: DIMENSION_OPTIONS,
    }));
    const tagFields = (await this.fields.fieldsByIds([...ids.tagFields])).filter((f) => f.active && shown(f)).sort((a, b) => a.id - b.id);
    const tagTables = new Set(
      (
        await this.tablesIn(
          db.id,
          tagFields.map((f) => f.table_id),
        )
      ).map((t) => t.id),
    );
    const fields = (await this.hydrator.detailed(tagFields.filter((f) => tagTables.has(f.table_id)))).map((f) => ({
      ...f,
      ...fieldDimensionOptions(f, binning),
    }));
    return { databases: [dbView], tables: tableViews, fields };
  }

  /** Active tables of the database among `ids`, ordered by id. */
  private async tablesIn(dbId: number, ids: number[]): Promise<WarehouseTable[]> {
    const found = await this.fields.tablesByIds([...new Set(ids)]);
    return found.filter((t) => t.active && t.db_id === dbId).sort((a, b) => a.id - b.id);
  }
}

/** Retired, hidden and sensitive fields are not shown to the query builder (as GET /api/table/:id/query_metadata). */
function shown(f: WarehouseField): boolean {
  return !['retired', 'hidden', 'sensitive'].includes(f.visibility_type);
}

/**
 * The body is the dataset query (`{database, type, query}`, or MBQL 5), or `{database, query}` with `query` inner or
 * whole (query-body.ts, as every query endpoint). A query that does not normalize is a 400 naming the clause.
 */
function parseBody(body: unknown): DatasetQuery {
  const query = datasetQueryOf(checkQueryBody(body, 'required'));
  const normalized = normalizedOrError(query);
  if (normalized instanceof Error) throw ValidationError.of('query', normalized.message, query);
  return normalized;
}

/** Table ids (`source-table` at any level and in joins) and the fields of native field filters. */
function collect(node: unknown, ids: { tables: Set<number>; tagFields: Set<number> }, inTag: boolean): void {
  if (Array.isArray(node)) {
    if (inTag && node[0] === 'field' && typeof node[1] === 'number') ids.tagFields.add(node[1]);
    node.forEach((n) => collect(n, ids, inTag));
  } else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'source-table' && typeof v === 'number') ids.tables.add(v);
      else collect(v, ids, inTag || k === 'template-tags');
    }
  }
}
