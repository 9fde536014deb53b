import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../../common/database/app-sql';
import { sql } from '../../../common/database/sql';

/**
 * The SAML state in the app DB, shared by all instances: pending AuthnRequest ids (with the return path they
 * carry) and the ids of accepted assertions. Every write is one statement, so two instances racing on the same
 * id see exactly one winner.
 */
@Injectable()
export class SamlStateRepository {
  private readonly sql: AppSql;

  constructor(db: DataSource) {
    this.sql = new AppSql(db);
  }

  async saveRequest(id: string, returnTo: string | null, expiresAt: number): Promise<void> {
    await this.sql.execute(sql`INSERT INTO saml_request (id, return_to, expires_at) VALUES (${id}, ${returnTo}, ${expiresAt})`);
  }

  /** The pending request, when it exists and has not expired. */
  async findRequest(id: string, now: number): Promise<{ returnTo: string | null } | null> {
    const rows = await this.sql.query<{ return_to: string | null }>(
      sql`SELECT return_to FROM saml_request WHERE id = ${id} AND expires_at > ${now}`,
    );
    return rows.length ? { returnTo: rows[0].return_to } : null;
  }

  /** Removes a pending request; true only for the one caller that removed it while it was still valid. */
  async consumeRequest(id: string, now: number): Promise<boolean> {
    return (await this.sql.execute(sql`DELETE FROM saml_request WHERE id = ${id} AND expires_at > ${now}`)) === 1;
  }

  /** Records an accepted assertion id; false when it was seen before (a replay), on any instance. */
  async markSeen(id: string, expiresAt: number): Promise<boolean> {
    const rows = await this.sql.query(
      sql`INSERT INTO saml_seen_assertion (id, expires_at) VALUES (${id}, ${expiresAt}) ON CONFLICT (id) DO NOTHING RETURNING id`,
    );
    return rows.length === 1;
  }

  /** Drops what has expired: requests never answered, and assertion ids that could no longer be accepted anyway. */
  async prune(now: number): Promise<void> {
    await this.sql.execute(sql`DELETE FROM saml_request WHERE expires_at <= ${now}`);
    await this.sql.execute(sql`DELETE FROM saml_seen_assertion WHERE expires_at <= ${now}`);
  }
}
