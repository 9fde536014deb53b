import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { idsOf, typedRows, type RowShape } from '../../common/database/row-values';
import { sql, type Sql } from '../../common/database/sql';
import { WarehouseField } from '../../schema/field.entity';
import { WarehouseTable } from '../../schema/table.entity';
import { User } from '../../schema/user.entity';
import { MetricImportantField } from '../../schema/segment-metric.entity';
import { SegmentOrMetric, KIND_ENTITIES, SegmentMetricKind } from './segment-metric-kind';

/** A card on the table of a segment or metric, as the related answer lists it. */
export interface RelatedCardRow {
  id: number;
  name: string;
  description: string | null;
  display: string;
  type: string | null;
  collection_id: number | null;
}

export const RELATED_CARD_ROW_SHAPE: RowShape = { numbers: ['id', 'collection_id'] };

/** Every app-DB access of segments and metrics (and what their answers show of tables, fields and users). */
@Injectable()
export class SegmentsAndMetricsRepository {
  private readonly sql: AppSql;

  constructor(private readonly db: DataSource) {
    this.sql = new AppSql(db);
  }

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  find(model: SegmentMetricKind, id: number, tx: EntityManager = this.db.manager): Promise<SegmentOrMetric | null> {
    return tx.findOneBy(KIND_ENTITIES[model], { id });
  }

  /** Those not archived, by name as Metabase orders them (case-insensitive). */
  async active(model: SegmentMetricKind, tableId?: number): Promise<SegmentOrMetric[]> {
    const rows: SegmentOrMetric[] = await this.db.manager.find(KIND_ENTITIES[model], {
      where: { archived: false, ...(tableId === undefined ? {} : { table_id: tableId }) },
    });
    return rows.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id);
  }

  async insert(tx: EntityManager, model: SegmentMetricKind, values: Partial<SegmentOrMetric>): Promise<SegmentOrMetric> {
    const entity = KIND_ENTITIES[model];
    return tx.save(entity, tx.create(entity, values));
  }

  async update(tx: EntityManager, model: SegmentMetricKind, id: number, changes: Partial<SegmentOrMetric>): Promise<void> {
    if (Object.keys(changes).length > 0) await tx.update(KIND_ENTITIES[model], { id }, { ...changes, updated_at: new Date() });
  }

  /**
   * The unarchived ones on any of `tableIds`, in one query whatever their number, by table then by name as `active`
   * orders them: for the answers listing the segments and metrics of several tables at once.
   */
  async activeOnTables(model: SegmentMetricKind, tableIds: number[]): Promise<SegmentOrMetric[]> {
    const ids = [...new Set(tableIds)];
    if (ids.length === 0) return [];
    const rows: SegmentOrMetric[] = await this.db.manager.find(KIND_ENTITIES[model], { where: { archived: false, table_id: In(ids) } });
    return rows.sort((a, b) => a.table_id - b.table_id || a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id);
  }

  /** Names by id, for query descriptions naming the segments and metrics a definition uses. */
  async names(model: SegmentMetricKind, ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows: SegmentOrMetric[] = await this.db.manager.find(KIND_ENTITIES[model], {
      where: { id: In(ids) },
      select: { id: true, name: true },
    });
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  users(ids: number[]): Promise<User[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.manager.find(User, { where: { id: In([...new Set(ids)]) } });
  }

  tables(ids: number[]): Promise<WarehouseTable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.manager.find(WarehouseTable, { where: { id: In([...new Set(ids)]) } });
  }

  fields(ids: number[]): Promise<WarehouseField[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.manager.find(WarehouseField, { where: { id: In([...new Set(ids)]) } });
  }

  /**
   * Visible active tables linked to `tableId` through a foreign key: `from` those with a key pointing at it (Metabase's
   * `linked-from`), `to` those its keys point at (`linking-to`).
   */
  async linkedTables(tableId: number, direction: 'from' | 'to', limit: number): Promise<WarehouseTable[]> {
    const [mine, theirs] = direction === 'from' ? ['dst', 'src'] : ['src', 'dst'];
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT DISTINCT ${theirs}.table_id AS id FROM metabase_field src JOIN metabase_field dst ON dst.id = src.fk_target_field_id
       WHERE ${mine}.table_id = $1 AND src.active = $2 AND ${theirs}.table_id <> $1`,
      [tableId, true],
    );
    if (rows.length === 0) return [];
    const tables = await this.db.manager.find(WarehouseTable, {
      where: { id: In(idsOf(rows)), active: true },
      order: { display_name: 'ASC', id: 'ASC' },
    });
    return tables.filter((t) => t.visibility_type === null).slice(0, limit);
  }

  /** Unarchived cards on the table that `readable` lets the caller see, most viewed first. */
  async cardsOnTable(tableId: number, readable: Sql, limit: number): Promise<RelatedCardRow[]> {
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT c.id, c.name, c.description, c.display, c.type, c.collection_id FROM report_card c
       WHERE c.table_id = ${tableId} AND c.archived = ${false} AND ${readable} ORDER BY c.view_count DESC, c.id LIMIT ${Math.floor(limit)}`,
    );
    return typedRows<RelatedCardRow>(rows, RELATED_CARD_ROW_SHAPE);
  }

  async importantFieldIds(tx: EntityManager, metricId: number): Promise<number[]> {
    return (await tx.find(MetricImportantField, { where: { metric_id: metricId } })).map((f) => f.field_id);
  }

  async setImportantFields(tx: EntityManager, metricId: number, remove: number[], add: number[]): Promise<void> {
    if (remove.length) await tx.delete(MetricImportantField, { metric_id: metricId, field_id: In(remove) });
    if (add.length)
      await tx.insert(
        MetricImportantField,
        add.map((field_id) => ({ metric_id: metricId, field_id })),
      );
  }
}
