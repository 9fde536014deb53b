import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { uniqueOr } from '../../common/database/unique-violation';
import { ForbiddenError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import { CollectionAccessService } from '../collections';
import { sqlTime } from '../../common/database/sql-time';
import { BOOKMARKABLE, BookmarkableModel } from './bookmark-models';
import { Bookmark, BookmarkModel } from '../../schema/bookmark.entity';
import { BookmarkListRow, BookmarksRepository } from './bookmarks.repository';

const alreadyThere = () => new MessageError('Bookmark already exists');

/**
 * The caller's bookmarks of cards, dashboards and collections. A bookmark never shows what the caller can no longer
 * read (its collection's grants changed) or what is archived; it stays stored and comes back with access.
 */
@Injectable()
export class BookmarksService {
  constructor(
    private readonly repo: BookmarksRepository,
    private readonly access: CollectionAccessService,
  ) {}

  /** Metabase's order: the caller's `ordering` first, then the newest bookmarks. */
  async list(user: AuthUser) {
    const rows: Array<BookmarkListRow & { model: BookmarkModel; m: BookmarkableModel }> = [];
    for (const [model, m] of BookmarksRepository.models()) {
      const found = await this.repo.listOf(user.id, model, m, await this.access.readableWhere(user, m.accessColumn));
      rows.push(...found.map((r) => ({ ...r, model, m })));
    }
    rows.sort(
      (a, b) =>
        order(a.ordering, b.ordering) ||
        (sqlTime(b.created_at) ?? '').localeCompare(sqlTime(a.created_at) ?? '') ||
        b.bookmark_id - a.bookmark_id,
    );
    return rows.map((r) => ({
      id: `${r.model}-${r.id}`,
      type: r.model,
      item_id: r.id,
      name: r.name,
      description: r.description,
      ...r.m.view(r),
      created_at: sqlTime(r.created_at),
    }));
  }

  /** 404 for a missing object, 403 for one the caller may not read, 400 when already bookmarked (Metabase). */
  async create(user: AuthUser, model: BookmarkModel, id: number) {
    const m = this.lookup(model);
    const found = await this.repo.object(m, id, await this.access.readableWhere(user, m.accessColumn));
    if (!found.exists) throw new NotFoundError();
    if (!found.readable) throw new ForbiddenError();
    if (await this.repo.find(user.id, model, id)) throw alreadyThere();
    return view(await uniqueOr(() => this.repo.insert(user.id, model, id), alreadyThere));
  }

  async remove(user: AuthUser, model: BookmarkModel, id: number): Promise<void> {
    await this.repo.remove(user.id, model, id);
  }

  async saveOrdering(user: AuthUser, orderings: Array<{ type: BookmarkModel; item_id: number }>): Promise<void> {
    await this.repo.saveOrdering(user.id, orderings);
  }

  private lookup(model: BookmarkModel): BookmarkableModel {
    const m = BOOKMARKABLE[model];
    // A kind whose module has not arrived has no objects to bookmark.
    if (!m) throw new NotFoundError();
    return m;
  }
}

const order = (a: number | null, b: number | null) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : a - b);

/** The stored bookmark, as Metabase answers a new one (`card_id`, `dashboard_id` or `collection_id`). */
function view(b: Bookmark) {
  return { id: b.id, user_id: b.user_id, [`${b.model}_id`]: b.model_id, created_at: sqlTime(b.created_at) };
}
