import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, LessThan, MoreThan } from 'typeorm';
import { LoginFailure } from './login-attempt.entity';
import { Session } from './session.entity';

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

  /** Failures since `since`, by username and by IP, and the oldest of each (to say when to retry). */
  async failures(username: string, ip: string, since: Date) {
    const m = this.db.manager;
    const [byUser, byIp] = await Promise.all([
      m.find(LoginFailure, { where: { username, created_at: MoreThan(since) }, order: { created_at: 'ASC' }, select: { created_at: true } }),
      m.find(LoginFailure, { where: { ip, created_at: MoreThan(since) }, order: { created_at: 'ASC' }, select: { created_at: true } }),
    ]);
    return { byUser: byUser.map((f) => f.created_at), byIp: byIp.map((f) => f.created_at) };
  }

  async recordFailure(username: string, ip: string, pruneBefore: Date): Promise<void> {
    await this.db.transaction(async (m) => {
      await m.delete(LoginFailure, { created_at: LessThan(pruneBefore) });
      await m.insert(LoginFailure, { username, ip });
    });
  }

  async clearFailures(username: string): Promise<void> {
    await this.db.manager.delete(LoginFailure, { username });
  }
}
