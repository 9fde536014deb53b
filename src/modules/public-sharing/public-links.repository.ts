import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { typedRow, type RowShape } from '../../common/database/row-values';
import { ID_SHAPE } from '../../schema/row-shape';

export type SharedModel = 'card' | 'dashboard';

const TABLE: Record<SharedModel, string> = { card: 'report_card', dashboard: 'report_dashboard' };

/** A card's or dashboard's public link, and whether it is archived. */
interface LinkRow {
  public_uuid: string | null;
  archived: boolean;
}

const LINK_ROW_SHAPE: RowShape = { booleans: ['archived'] };
/** The public links of cards and dashboards: `public_uuid` and `made_public_by_id` on their rows. */
@Injectable()
export class PublicLinksRepository {
  private readonly sql: AppSql;

  constructor(db: DataSource) {
    this.sql = new AppSql(db);
  }

  /** The id of the unarchived object whose link is `uuid`; null when there is none. */
  async idByUuid(model: SharedModel, uuid: string): Promise<number | null> {
    const [row] = await this.sql.query<Record<string, unknown>>(`SELECT id FROM ${TABLE[model]} WHERE public_uuid = $1 AND archived = $2`, [
      uuid,
      false,
    ]);
    return row ? typedRow<{ id: number }>(row, ID_SHAPE).id : null;
  }

  async link(model: SharedModel, id: number): Promise<LinkRow | null> {
    const [row] = await this.sql.query<Record<string, unknown>>(`SELECT public_uuid, archived FROM ${TABLE[model]} WHERE id = $1`, [id]);
    return row ? typedRow<LinkRow>(row, LINK_ROW_SHAPE) : null;
  }

  /** Sets the link unless one exists (a concurrent POST keeps the first); the link the object then has. */
  async share(model: SharedModel, id: number, uuid: string, userId: number): Promise<string | null> {
    await this.sql.execute(`UPDATE ${TABLE[model]} SET public_uuid = $1, made_public_by_id = $2 WHERE id = $3 AND public_uuid IS NULL`, [
      uuid,
      userId,
      id,
    ]);
    return (await this.link(model, id))?.public_uuid ?? null;
  }

  async unshare(model: SharedModel, id: number): Promise<void> {
    await this.sql.execute(`UPDATE ${TABLE[model]} SET public_uuid = NULL, made_public_by_id = NULL WHERE id = $1`, [id]);
  }
}
