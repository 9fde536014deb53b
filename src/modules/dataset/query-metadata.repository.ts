import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { typedRow, typedRows, type RowShape } from '../../common/database/row-values';
import { ID_SHAPE } from '../../schema/row-shape';
import type { DatabaseMeta, FieldMeta, TableMeta } from '../../query-engine/metadata';

const FIELD_COLUMNS = `id, table_id, name, display_name, base_type, effective_type, semantic_type, fk_target_field_id,
  visibility_type, coercion_strategy, fingerprint, position`;

/** What opening a connection to a warehouse needs (details still sealed). */
export interface ConnectionRow {
  id: number;
  engine: DatabaseMeta['engine'];
  details: Record<string, unknown>;
}

/**
 * The app-DB reads behind a query run: databases, tables and fields as the engine sees them. Plain SQL rather than
 * the ORM's query builder: building the SQL cost more than running it (see bench/).
 */
@Injectable()
export class QueryMetadataRepository {
  private readonly sql: AppSql;

  constructor(db: DataSource) {
    this.sql = new AppSql(db);
  }

  async connection(id: number): Promise<ConnectionRow | null> {
    const [row] = await this.sql.query<Record<string, unknown>>('SELECT id, engine, details FROM metabase_database WHERE id = $1', [id]);
    if (!row) return null;
    const r = typedRow<{ id: number; engine: DatabaseMeta['engine']; details: string }>(row, ID_SHAPE);
    return { id: r.id, engine: r.engine, details: JSON.parse(r.details) as Record<string, unknown> };
  }

  async table(id: number): Promise<TableMeta | null> {
    const [row] = await this.sql.query<Record<string, unknown>>(
      'SELECT id, db_id, schema, name, display_name FROM metabase_table WHERE id = $1 AND active = $2',
      [id, true],
    );
    if (!row) return null;
    const r = typedRow<{ id: number; db_id: number; schema: string | null; name: string; display_name: string }>(row, {
      numbers: ['id', 'db_id'],
    });
    return { id: r.id, dbId: r.db_id, schema: r.schema, name: r.name, displayName: r.display_name };
  }

  async tableFields(tableId: number): Promise<FieldMeta[]> {
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT ${FIELD_COLUMNS} FROM metabase_field WHERE table_id = $1 AND active = $2 ORDER BY position, id`,
      [tableId, true],
    );
    return typedRows<FieldRow>(rows, FIELD_ROW_SHAPE).map(toFieldMeta);
  }

  async field(id: number): Promise<FieldMeta | null> {
    const [r] = await this.sql.query<Record<string, unknown>>(`SELECT ${FIELD_COLUMNS} FROM metabase_field WHERE id = $1 AND active = $2`, [
      id,
      true,
    ]);
    return r ? toFieldMeta(typedRow<FieldRow>(r, FIELD_ROW_SHAPE)) : null;
  }
}

interface FieldRow {
  id: number;
  table_id: number;
  name: string;
  display_name: string;
  base_type: string;
  effective_type: string | null;
  semantic_type: string | null;
  fk_target_field_id: number | null;
  visibility_type: string;
  coercion_strategy: string | null;
  fingerprint: string | null;
  position: number;
}

const FIELD_ROW_SHAPE: RowShape = { numbers: ['id', 'table_id', 'fk_target_field_id', 'position'] };

function toFieldMeta(f: FieldRow): FieldMeta {
  return {
    id: f.id,
    tableId: f.table_id,
    name: f.name,
    displayName: f.display_name,
    baseType: f.base_type,
    effectiveType: f.effective_type,
    semanticType: f.semantic_type,
    fkTargetFieldId: f.fk_target_field_id,
    visibilityType: f.visibility_type,
    coercionStrategy: f.coercion_strategy,
    fingerprint: f.fingerprint ? JSON.parse(f.fingerprint) : null,
    position: f.position,
  };
}
