import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { typedRows, type RowShape } from '../../common/database/row-values';
import { raw, sql, type Sql } from '../../common/database/sql';
import { Bookmark, BookmarkModel } from '../../schema/bookmark.entity';
import { BOOKMARKABLE, BookmarkableModel, BookmarkedRow } from './bookmark-models';

export interface BookmarkListRow extends BookmarkedRow {
  bookmark_id: number;
  ordering: number | null;
  created_at: string | Date;
}

/** Columns a model does not select (collection_id of a collection, say) stay absent. */
export const BOOKMARK_LIST_ROW_SHAPE: RowShape = { numbers: ['bookmark_id', 'ordering', 'id', 'collection_id', 'personal_owner_id'] };

@Injectable()
export class BookmarksRepository {
  private readonly sql: AppSql;

  constructor(private readonly db: DataSource) {
    this.sql = new AppSql(db);
  }

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

  /** The object, when it exists (archived or not), and whether `readable` holds for it. */
  async object(m: BookmarkableModel, id: number, readable: Sql): Promise<{ exists: boolean; readable: boolean }> {
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT CASE WHEN ${readable} THEN 1 ELSE 0 END AS ok FROM ${raw(m.table)} o WHERE o.id = ${id}`,
    );
    const [row] = typedRows<{ ok: boolean }>(rows, { booleans: ['ok'] });
    return { exists: row !== undefined, readable: row?.ok === true };
  }

  /** The user's bookmarks of one kind whose objects are there, unarchived and readable. */
  async listOf(userId: number, model: BookmarkModel, m: BookmarkableModel, readable: Sql): Promise<BookmarkListRow[]> {
    const join = raw(m.joinsCollection ? ' LEFT JOIN collection c ON c.id = o.collection_id' : '');
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT b.id AS bookmark_id, b.ordering AS ordering, b.created_at AS created_at, o.id AS id, o.name AS name,
         o.description AS description, ${raw(m.columns.join(', '))}
       FROM bookmark b JOIN ${raw(m.table)} o ON o.id = b.model_id${join}
       WHERE b.user_id = ${userId} AND b.model = ${model} AND o.archived = FALSE AND ${readable}`,
    );
    return typedRows<BookmarkListRow>(rows, BOOKMARK_LIST_ROW_SHAPE);
  }

  find(userId: number, model: BookmarkModel, id: number): Promise<Bookmark | null> {
    return this.db.manager.findOneBy(Bookmark, { user_id: userId, model, model_id: id });
  }

  insert(userId: number, model: BookmarkModel, id: number): Promise<Bookmark> {
    return this.db.manager.save(this.db.manager.create(Bookmark, { user_id: userId, model, model_id: id, ordering: null }));
  }

  async remove(userId: number, model: BookmarkModel, id: number): Promise<void> {
    await this.db.manager.delete(Bookmark, { user_id: userId, model, model_id: id });
  }

  /** The user's order: the listed bookmarks get their place, the others none (they follow, newest first). */
  async saveOrdering(userId: number, orderings: Array<{ type: BookmarkModel; item_id: number }>): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.update(Bookmark, { user_id: userId }, { ordering: null });
      for (const [i, o] of orderings.entries())
        await tx.update(Bookmark, { user_id: userId, model: o.type, model_id: o.item_id }, { ordering: i });
    });
  }

  static models(): Array<[BookmarkModel, BookmarkableModel]> {
    return (Object.entries(BOOKMARKABLE) as Array<[BookmarkModel, BookmarkableModel | undefined]>).filter(
      (e): e is [BookmarkModel, BookmarkableModel] => e[1] !== undefined,
    );
  }
}
