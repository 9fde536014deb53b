import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../database/app-sql';

interface CallerRow {
  id: number;
  is_superuser: boolean | number;
  group_ids: string | null;
}

/** The look-ups that say who is calling, each one round trip (CallerCache keeps their answers). */
@Injectable()
export class AuthRepository {
  private readonly sql: AppSql;

  constructor(db: DataSource) {
    this.sql = new AppSql(db);
  }

  /**
   * The session's user, if the session was made after `notBefore`; `lasts` says whether it was also made after
   * `lastsIf` (so it is still valid a while from now: see CallerCache). Both compared in the database, as stored.
   */
  async userBySession(keyHash: string, notBefore: Date, lastsIf: Date): Promise<(CallerRow & { lasts: boolean | number }) | undefined> {
    return this.one<CallerRow & { lasts: boolean | number }>(
      `FROM core_session s JOIN core_user u ON u.id = s.user_id
       WHERE s.key_hash = $1 AND s.created_at > $2 AND u.is_active = $3`,
      [keyHash, notBefore, true, lastsIf],
      `, CASE WHEN s.created_at > $4 THEN 1 ELSE 0 END AS lasts`,
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
    const groups = this.sql.pg ? `string_agg(m.group_id::text, ',')` : `group_concat(m.group_id)`;
    const rows = await this.sql.query<T>(
      `SELECT u.id, u.is_superuser${extra},
        (SELECT ${groups} FROM permissions_group_membership m WHERE m.user_id = u.id) AS group_ids
      ${from}`,
      params,
    );
    return rows[0];
  }
}
