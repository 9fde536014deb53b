import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * The SAML state in the app DB, shared by all instances: pending AuthnRequest ids (with the return path they
 * carry) and the ids of accepted assertions. Every write is one statement, so two instances racing on the same
 * id see exactly one winner.
 */
@Injectable()
export class SamlStateRepository {
  constructor(private readonly db: DataSource) {}

  private get pg(): boolean {
    return this.db.options.type === 'postgres';
  }

  private params(n: number): string[] {
    return Array.from({ length: n }, (_, i) => (this.pg ? `$${i + 1}` : '?'));
  }

  async saveRequest(id: string, returnTo: string | null, expiresAt: number): Promise<void> {
    const [a, b, c] = this.params(3);
    await this.db.query(`INSERT INTO saml_request (id, return_to, expires_at) VALUES (${a}, ${b}, ${c})`, [id, returnTo, expiresAt]);
  }

  /** The pending request, when it exists and has not expired. */
  async findRequest(id: string, now: number): Promise<{ returnTo: string | null } | null> {
    const [a, b] = this.params(2);
    const rows = (await this.db.query(`SELECT return_to FROM saml_request WHERE id = ${a} AND expires_at > ${b}`, [id, now])) as Array<{
      return_to: string | null;
    }>;
    return rows.length ? { returnTo: rows[0].return_to } : null;
  }

  /** Removes a pending request; true only for the one caller that removed it while it was still valid. */
  async consumeRequest(id: string, now: number): Promise<boolean> {
    const res = await this.db
      .createQueryBuilder()
      .delete()
      .from('saml_request')
      .where('id = :id AND expires_at > :now', { id, now })
      .execute();
    return (res.affected ?? 0) === 1;
  }

  /** Records an accepted assertion id; false when it was seen before (a replay), on any instance. */
  async markSeen(id: string, expiresAt: number): Promise<boolean> {
    const [a, b] = this.params(2);
    const rows: unknown[] = await this.db.query(
      `INSERT INTO saml_seen_assertion (id, expires_at) VALUES (${a}, ${b}) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [id, expiresAt],
    );
    return rows.length === 1;
  }

  /** Drops what has expired: requests never answered, and assertion ids that could no longer be accepted anyway. */
  async prune(now: number): Promise<void> {
    const [a] = this.params(1);
    await this.db.query(`DELETE FROM saml_request WHERE expires_at <= ${a}`, [now]);
    await this.db.query(`DELETE FROM saml_seen_assertion WHERE expires_at <= ${a}`, [now]);
  }
}
