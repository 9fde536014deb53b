import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, LessThan } from 'typeorm';
import { User } from '../../schema/user.entity';
import { Revision } from '../../schema/revision.entity';

/** Metabase keeps the last 15 revisions of an object (its `max-revisions`). */
export const MAX_REVISIONS = 15;

export type RevisionAuthor = Pick<User, 'id' | 'first_name' | 'last_name' | 'email'>;

@Injectable()
export class RevisionsRepository {
  constructor(private readonly db: DataSource) {}

  /** Every kept revision of an object, newest first (at most MAX_REVISIONS, plus one a concurrent save may add). */
  list(model: string, modelId: number): Promise<Revision[]> {
    return this.db.manager.find(Revision, { where: { model, model_id: modelId }, order: { id: 'DESC' } });
  }

  findOf(model: string, modelId: number, id: number, tx: EntityManager = this.db.manager): Promise<Revision | null> {
    return tx.findOne(Revision, { where: { id, model, model_id: modelId } });
  }

  latest(tx: EntityManager, model: string, modelId: number): Promise<Revision | null> {
    return tx.findOne(Revision, { where: { model, model_id: modelId }, order: { id: 'DESC' } });
  }

  async authors(ids: number[]): Promise<Map<number, RevisionAuthor>> {
    if (ids.length === 0) return new Map();
    const users = await this.db.manager.find(User, {
      select: { id: true, first_name: true, last_name: true, email: true },
      where: { id: In(ids) },
    });
    return new Map(users.map((u) => [u.id, u]));
  }

  async collectionNames(tx: EntityManager, ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows: Array<{ id: number; name: string }> = await tx
      .createQueryBuilder()
      .select(['c.id AS id', 'c.name AS name'])
      .from('collection', 'c')
      .where('c.id IN (:...ids)', { ids })
      .getRawMany();
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  }

  /** Drops the revisions of an object older than its MAX_REVISIONS newest. */
  async prune(tx: EntityManager, model: string, modelId: number): Promise<void> {
    const oldestKept = await tx.find(Revision, {
      select: { id: true },
      where: { model, model_id: modelId },
      order: { id: 'DESC' },
      skip: MAX_REVISIONS - 1,
      take: 1,
    });
    if (oldestKept[0]) await tx.delete(Revision, { model, model_id: modelId, id: LessThan(oldestKept[0].id) });
  }
}
