import { sqlBool } from '../../common/database/row-values';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import type { FieldNode } from './chain-filter';

export interface FieldPlace extends FieldNode {
  db_id: number;
}

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
    const marks = ids.map((_, i) => `$${i + 1}`).join(', ');
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT f.id, f.table_id, f.fk_target_field_id, t.db_id, f.active AS f_active, t.active AS t_active
         FROM metabase_field f JOIN metabase_table t ON t.id = f.table_id WHERE f.id IN (${marks})`,
      ids,
    );
    return rows.filter((r) => sqlBool(r.f_active) && sqlBool(r.t_active)).map(toPlace);
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
    return rows.filter((r) => sqlBool(r.f_active) && sqlBool(r.t_active)).map(toPlace);
  }
}

function toPlace(r: Record<string, unknown>): FieldPlace {
  return {
    id: Number(r.id),
    table_id: Number(r.table_id),
    fk_target_field_id: r.fk_target_field_id === null ? null : Number(r.fk_target_field_id),
    db_id: Number(r.db_id),
  };
}
