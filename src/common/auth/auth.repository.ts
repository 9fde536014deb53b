import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

interface CallerRow {
  id: number;
  is_superuser: boolean | number;
  group_ids: string | null;
}

/** The two look-ups every authenticated request makes, each one round trip. */
@Injectable()
export class AuthRepository {
  constructor(private readonly db: DataSource) {}

  async userBySession(keyHash: string, notBefore: Date): Promise<CallerRow | undefined> {
    return this.one(
      `FROM core_session s JOIN core_user u ON u.id = s.user_id
       WHERE s.key_hash = $1 AND s.created_at > $2 AND u.is_active = $3`,
      [keyHash, notBefore, true],
    );
  }

  async userByApiKey(keyHash: string): Promise<(CallerRow & { api_key_id: number }) | undefined> {
    return this.one<CallerRow & { api_key_id: number }>(
      `FROM api_key k JOIN core_user u ON u.id = k.user_id WHERE k.key_hash = $1 AND u.is_active = $2`,
      [keyHash, true],
      ', k.id AS api_key_id',
    );
  }

  private async one<T extends CallerRow>(from: string, params: unknown[], extra = ''): Promise<T | undefined> {
    const pg = this.db.options.type === 'postgres';
    const groups = pg ? `string_agg(m.group_id::text, ',')` : `group_concat(m.group_id)`;
    const sql = `SELECT u.id, u.is_superuser${extra},
        (SELECT ${groups} FROM permissions_group_membership m WHERE m.user_id = u.id) AS group_ids
      ${from}`;
    const rows: T[] = await this.db.query(pg ? sql : sql.replace(/\$\d+/g, '?'), params.map((p) => toDriverValue(p, pg)));
    return rows[0];
  }
}

/** Raw queries bypass TypeORM's conversions: SQLite stores datetimes as UTC text and booleans as 0/1. */
export function toDriverValue(value: unknown, pg: boolean): unknown {
  if (pg) return value;
  if (value instanceof Date) return value.toISOString().replace('T', ' ').replace('Z', '');
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}
