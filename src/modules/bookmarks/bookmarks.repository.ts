import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { Bookmark, BookmarkModel } from './bookmark.entity';

@Injectable()
export class BookmarksRepository {
  constructor(private readonly db: DataSource) {}

  /** Which of `ids` (all, when omitted) the user has bookmarked. */
  async bookmarkedIds(userId: number, model: BookmarkModel, ids?: number[]): Promise<Set<number>> {
    if (ids && ids.length === 0) return new Set();
    const rows = await this.db.manager.find(Bookmark, {
      select: { model_id: true },
      where: { user_id: userId, model, ...(ids && ids.length <= 500 ? { model_id: In(ids) } : {}) },
    });
    return new Set(rows.map((r) => r.model_id));
  }

  /** Drops every user's bookmark of an object that is deleted for good. */
  async forget(tx: EntityManager, model: BookmarkModel, id: number): Promise<void> {
    await tx.delete(Bookmark, { model, model_id: id });
  }
}
