import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { inList, raw, sql } from '../../common/database/sql';
import { typedRows, type RowShape } from '../../common/database/row-values';
import type { FieldNode } from './chain-filter';

export interface FieldPlace extends FieldNode {
  db_id: number;
}

/** A field with its table's database, and whether the field and its table are active. */
interface FieldPlaceRow extends FieldPlace {
  f_active: boolean;
  t_active: boolean;
}

const FIELD_PLACE_ROW_SHAPE: RowShape = { numbers: ['id', 'table_id', 'fk_target_field_id', 'db_id'], booleans: ['f_active', 't_active'] };

/** The warehouse metadata a chain filter needs: where fields live, and the FK edges of a database. */
@Injectable()
export class DashboardQueriesRepository {
  private readonly sql: AppSql;

  constructor(db: DataSource) {
    this.sql = new AppSql(db);
  }

  /** The active fields among `ids` with their table and database. */
  async places(ids: number[]): Promise<FieldPlace[]> {
    if (!ids.length) return [];
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT f.id, f.table_id, f.fk_target_field_id, t.db_id, f.active AS f_active, t.active AS t_active
         FROM metabase_field f JOIN metabase_table t ON t.id = f.table_id WHERE ${inList(raw('f.id'), ids)}`,
    );
    return typedRows<FieldPlaceRow>(rows, FIELD_PLACE_ROW_SHAPE)
      .filter((r) => r.f_active && r.t_active)
      .map(toPlace);
  }

  /** Every active field of the database that is a foreign key, with the fields they point to. */
  async fkGraph(dbId: number): Promise<FieldNode[]> {
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT f.id, f.table_id, f.fk_target_field_id, t.db_id, f.active AS f_active, t.active AS t_active
         FROM metabase_field f JOIN metabase_table t ON t.id = f.table_id
        WHERE t.db_id = $1
          AND (f.fk_target_field_id IS NOT NULL
               OR f.id IN (SELECT fk_target_field_id FROM metabase_field WHERE fk_target_field_id IS NOT NULL))`,
      [dbId],
    );
    return typedRows<FieldPlaceRow>(rows, FIELD_PLACE_ROW_SHAPE)
      .filter((r) => r.f_active && r.t_active)
      .map(toPlace);
  }
}

/** The flags only decide which rows are kept: the chain filter never sees them. */
function toPlace({ id, table_id, fk_target_field_id, db_id }: FieldPlaceRow): FieldPlace {
  return { id, table_id, fk_target_field_id, db_id };
}
