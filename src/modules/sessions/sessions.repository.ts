import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, LessThan, MoreThan } from 'typeorm';
import { LoginFailure } from '../../schema/login-attempt.entity';
import { Session } from '../../schema/session.entity';

@Injectable()
export class SessionsRepository {
  constructor(private readonly db: DataSource) {}

  async create(keyHash: string, userId: number, tx: EntityManager = this.db.manager): Promise<void> {
    await tx.insert(Session, { key_hash: keyHash, user_id: userId });
  }

  async delete(keyHash: string): Promise<void> {
    await this.db.manager.delete(Session, { key_hash: keyHash });
  }

  async deleteForUser(userId: number, tx: EntityManager = this.db.manager): Promise<void> {
    await tx.delete(Session, { user_id: userId });
  }

  async deleteExpired(before: Date): Promise<void> {
    await this.db.manager.delete(Session, { created_at: LessThan(before) });
  }

  /**
   * Writes an attempt before its password is checked, and answers its id. Ids order the attempts: each one is
   * judged by those before it, so of a parallel burst the first ones go ahead and the rest are throttled.
   */
  async recordAttempt(username: string, ip: string, at: Date): Promise<number> {
    const result = await this.db.manager.insert(LoginFailure, { username, ip, created_at: at });
    return Number(result.identifiers[0].id);
  }

  /** The attempts before `id` since `since`, of this username or from this address, oldest first. */
  async attemptsBefore(id: number, username: string, ip: string, since: Date): Promise<LoginFailure[]> {
    return this.db.manager.find(LoginFailure, {
      where: [
        { username, id: LessThan(id), created_at: MoreThan(since) },
        { ip, id: LessThan(id), created_at: MoreThan(since) },
      ],
      order: { id: 'ASC' },
    });
  }

  /** Drops an attempt that did not count (throttled before its password was checked). */
  async forget(id: number): Promise<void> {
    await this.db.manager.delete(LoginFailure, { id });
  }

  /** After a right password: the failures of this username from this address (and the attempt itself). */
  async clearPair(username: string, ip: string): Promise<void> {
    await this.db.manager.delete(LoginFailure, { username, ip });
  }

  async pruneBefore(before: Date): Promise<void> {
    await this.db.manager.delete(LoginFailure, { created_at: LessThan(before) });
  }
}
