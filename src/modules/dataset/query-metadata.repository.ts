import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
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
    const [r] = await this.sql.query<{ id: number; engine: DatabaseMeta['engine']; details: string }>(
      'SELECT id, engine, details FROM metabase_database WHERE id = $1',
      [id],
    );
    return r ? { id: Number(r.id), engine: r.engine, details: JSON.parse(r.details) as Record<string, unknown> } : null;
  }

  async table(id: number): Promise<TableMeta | null> {
    const [r] = await this.sql.query<{ id: number; db_id: number; schema: string | null; name: string; display_name: string }>(
      'SELECT id, db_id, schema, name, display_name FROM metabase_table WHERE id = $1 AND active = $2',
      [id, true],
    );
    return r ? { id: Number(r.id), dbId: Number(r.db_id), schema: r.schema, name: r.name, displayName: r.display_name } : null;
  }

  async tableFields(tableId: number): Promise<FieldMeta[]> {
    const rows = await this.sql.query<FieldRow>(
      `SELECT ${FIELD_COLUMNS} FROM metabase_field WHERE table_id = $1 AND active = $2 ORDER BY position, id`,
      [tableId, true],
    );
    return rows.map(toFieldMeta);
  }

  async field(id: number): Promise<FieldMeta | null> {
    const [r] = await this.sql.query<FieldRow>(`SELECT ${FIELD_COLUMNS} FROM metabase_field WHERE id = $1 AND active = $2`, [id, true]);
    return r ? toFieldMeta(r) : null;
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

function toFieldMeta(f: FieldRow): FieldMeta {
  return {
    id: Number(f.id),
    tableId: Number(f.table_id),
    name: f.name,
    displayName: f.display_name,
    baseType: f.base_type,
    effectiveType: f.effective_type,
    semanticType: f.semantic_type,
    fkTargetFieldId: f.fk_target_field_id === null ? null : Number(f.fk_target_field_id),
    visibilityType: f.visibility_type,
    coercionStrategy: f.coercion_strategy,
    fingerprint: f.fingerprint ? JSON.parse(f.fingerprint) : null,
    position: Number(f.position),
  };
}
