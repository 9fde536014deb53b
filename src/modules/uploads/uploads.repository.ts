import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { inList, raw, sql } from '../../common/database/sql';
import { idsOf, typedRow, type RowShape } from '../../common/database/row-values';
import { WarehouseDatabase } from '../../schema/database.entity';

export interface UploadTableRow {
  id: number;
  db_id: number;
  schema: string | null;
  name: string;
  is_upload: boolean;
  active: boolean;
}

export const UPLOAD_TABLE_ROW_SHAPE: RowShape = { numbers: ['id', 'db_id'], booleans: ['is_upload', 'active'] };

export interface UploadFieldRow {
  name: string;
  base_type: string;
}

/** What uploads read and mark in the app DB: grants, the tables uploads made, their fields and models. */
@Injectable()
export class UploadsRepository {
  private readonly sql: AppSql;

  constructor(private readonly db: DataSource) {
    this.sql = new AppSql(db);
  }

  database(id: number): Promise<WarehouseDatabase | null> {
    return this.db.manager.findOneBy(WarehouseDatabase, { id });
  }

  /** Whether any of these groups may upload to the database: an `upload` grant counts only with data access. */
  async mayUpload(groupIds: number[], dbId: number): Promise<boolean> {
    if (groupIds.length === 0) return false;
    const rows = await this.sql.query<{ n: number }>(
      sql`SELECT 1 AS n FROM database_permission
        WHERE db_id = ${dbId} AND ${inList(raw('group_id'), groupIds)} AND data = 'unrestricted' AND upload = 'yes'`,
    );
    return rows.length > 0;
  }

  async findTable(dbId: number, schema: string | null, name: string): Promise<UploadTableRow | null> {
    const rows = await this.sql.query<Record<string, unknown>>(
      'SELECT id, db_id, schema, name, is_upload, active FROM metabase_table' +
        ` WHERE db_id = $1 AND name = $2 AND ${schema === null ? 'schema IS NULL' : 'schema = $3'}`,
      schema === null ? [dbId, name] : [dbId, name, schema],
    );
    return rows[0] ? typedRow<UploadTableRow>(rows[0], UPLOAD_TABLE_ROW_SHAPE) : null;
  }

  async table(id: number): Promise<UploadTableRow | null> {
    const rows = await this.sql.query<Record<string, unknown>>(
      'SELECT id, db_id, schema, name, is_upload, active FROM metabase_table WHERE id = $1',
      [id],
    );
    return rows[0] ? typedRow<UploadTableRow>(rows[0], UPLOAD_TABLE_ROW_SHAPE) : null;
  }

  async markUpload(tableId: number): Promise<void> {
    await this.sql.execute('UPDATE metabase_table SET is_upload = $1 WHERE id = $2', [true, tableId]);
  }

  /** The table's columns as the last sync saw them, in their order. */
  fields(tableId: number): Promise<UploadFieldRow[]> {
    return this.sql.query<UploadFieldRow>(
      'SELECT name, base_type FROM metabase_field WHERE table_id = $1 AND active = $2 ORDER BY database_position, id',
      [tableId, true],
    );
  }

  /** The models whose query starts from the table. */
  async modelIds(tableId: number): Promise<number[]> {
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT id FROM report_card WHERE table_id = $1 AND type = 'model' AND archived = $2`,
      [tableId, false],
    );
    return idsOf(rows);
  }

  async archiveCards(ids: number[]): Promise<void> {
    for (const id of ids)
      await this.sql.execute('UPDATE report_card SET archived = $1, archived_directly = $2 WHERE id = $3', [true, true, id]);
  }

  async deactivateTable(id: number): Promise<void> {
    await this.sql.execute('UPDATE metabase_table SET active = $1 WHERE id = $2', [false, id]);
  }
}
