import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { inList, raw, sql } from '../../common/database/sql';
import { UNUSABLE_VISIBILITY } from './xray-fields';
import { idsOf, typedRow, typedRows, type RowShape } from '../../common/database/row-values';
import { X_FIELD_ROW_SHAPE, X_TABLE_ROW_SHAPE, type XFieldRow, type XTableRow } from './xray.types';

export interface SegmentMetricRow {
  id: number;
  table_id: number;
  name: string;
  definition: string;
  archived: boolean;
}

export const SEGMENT_METRIC_ROW_SHAPE: RowShape = { numbers: ['id', 'table_id'], booleans: ['archived'] };

export interface ModelIndexRow {
  id: number;
  model_id: number;
  pk_ref: string;
  value_ref: string | null;
}

export const MODEL_INDEX_ROW_SHAPE: RowShape = { numbers: ['id', 'model_id'] };

const TABLE_COLS = 'id, db_id, schema, name, display_name, description, entity_type, visibility_type, estimated_row_count';
const FIELD_COLS =
  'id, table_id, name, display_name, base_type, effective_type, semantic_type, fk_target_field_id, visibility_type, fingerprint, position';

/** The app-DB reads of the x-rays: tables, fields and their links, segments and legacy metrics, model indexes. */
@Injectable()
export class AutomagicRepository {
  private readonly sql: AppSql;

  constructor(db: DataSource) {
    this.sql = new AppSql(db);
  }

  async table(id: number): Promise<XTableRow | null> {
    const [r] = await this.sql.query<Record<string, unknown>>(`SELECT ${TABLE_COLS} FROM metabase_table WHERE id = $1 AND active = $2`, [
      id,
      true,
    ]);
    return r ? typedRow<XTableRow>(r, X_TABLE_ROW_SHAPE) : null;
  }

  async tables(ids: number[]): Promise<XTableRow[]> {
    if (ids.length === 0) return [];
    return typedRows<XTableRow>(
      await this.sql.query(sql`SELECT ${raw(TABLE_COLS)} FROM metabase_table WHERE active = ${true} AND ${inList(raw('id'), ids)}`),
      X_TABLE_ROW_SHAPE,
    );
  }

  async databaseTables(dbId: number): Promise<XTableRow[]> {
    return typedRows<XTableRow>(
      await this.sql.query(`SELECT ${TABLE_COLS} FROM metabase_table WHERE db_id = $1 AND active = $2 ORDER BY id`, [dbId, true]),
      X_TABLE_ROW_SHAPE,
    );
  }

  async databaseExists(id: number): Promise<boolean> {
    return (await this.sql.query('SELECT id FROM metabase_database WHERE id = $1', [id])).length > 0;
  }

  async field(id: number): Promise<XFieldRow | null> {
    const [r] = await this.sql.query<Record<string, unknown>>(`SELECT ${FIELD_COLS} FROM metabase_field WHERE id = $1 AND active = $2`, [
      id,
      true,
    ]);
    return r ? typedRow<XFieldRow>(r, X_FIELD_ROW_SHAPE) : null;
  }

  async fieldsByIds(ids: number[]): Promise<XFieldRow[]> {
    if (ids.length === 0) return [];
    return typedRows<XFieldRow>(
      await this.sql.query(sql`SELECT ${raw(FIELD_COLS)} FROM metabase_field WHERE active = ${true} AND ${inList(raw('id'), ids)}`),
      X_FIELD_ROW_SHAPE,
    );
  }

  /** Which of these fields (active or not) are sensitive or retired: never an x-ray's subject, dimension or metric. */
  async unusableFieldIds(ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT id FROM metabase_field WHERE ${inList(raw('visibility_type'), UNUSABLE_VISIBILITY)} AND ${inList(raw('id'), ids)}`,
    );
    return idsOf(rows);
  }

  /** Active fields of these tables, in table order. */
  async fieldsOf(tableIds: number[]): Promise<XFieldRow[]> {
    if (tableIds.length === 0) return [];
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT ${raw(FIELD_COLS)} FROM metabase_field WHERE active = ${true} AND ${inList(raw('table_id'), tableIds)}
        ORDER BY table_id, position, id`,
    );
    return typedRows<XFieldRow>(rows, X_FIELD_ROW_SHAPE);
  }

  /** Foreign keys of other tables pointing at a field of this one: `[fk field, its table]`. */
  async linkingHere(tableId: number): Promise<Array<{ fk: XFieldRow; table_id: number }>> {
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT ${FIELD_COLS.split(', ')
        .map((c) => `f.${c}`)
        .join(', ')} FROM metabase_field f JOIN metabase_field t ON t.id = f.fk_target_field_id
       WHERE t.table_id = $1 AND f.active = $2 AND f.table_id <> $1 ORDER BY f.table_id, f.id`,
      [tableId, true],
    );
    return typedRows<XFieldRow>(rows, X_FIELD_ROW_SHAPE).map((fk) => ({ fk, table_id: fk.table_id }));
  }

  async segmentOrMetric(kind: 'segment' | 'metric', id: number): Promise<SegmentMetricRow | null> {
    const [r] = await this.sql.query<Record<string, unknown>>(
      `SELECT id, table_id, name, definition, archived FROM ${kind} WHERE id = $1`,
      [id],
    );
    return r ? typedRow<SegmentMetricRow>(r, SEGMENT_METRIC_ROW_SHAPE) : null;
  }

  async segmentsOf(tableId: number): Promise<SegmentMetricRow[]> {
    const rows = await this.sql.query<Record<string, unknown>>(
      'SELECT id, table_id, name, definition, archived FROM segment WHERE table_id = $1 AND archived = $2 ORDER BY id',
      [tableId, false],
    );
    return typedRows<SegmentMetricRow>(rows, SEGMENT_METRIC_ROW_SHAPE);
  }

  async modelIndex(id: number): Promise<ModelIndexRow | null> {
    const [r] = await this.sql.query<Record<string, unknown>>('SELECT id, model_id, pk_ref, value_ref FROM model_index WHERE id = $1', [
      id,
    ]);
    return r ? typedRow<ModelIndexRow>(r, MODEL_INDEX_ROW_SHAPE) : null;
  }

  /** The indexed name of one row of a model index, when the index holds it. */
  async modelIndexValue(indexId: number, pk: number): Promise<string | null> {
    const [r] = await this.sql.query<{ name: string }>('SELECT name FROM model_index_value WHERE model_index_id = $1 AND model_pk = $2', [
      indexId,
      pk,
    ]);
    return r ? r.name : null;
  }
}
