import type { BookmarkModel } from '../../schema/bookmark.entity';

/** One row of a bookmarked object, as the lookup below selects it. */
export type BookmarkedRow = Record<string, unknown> & {
  id: number;
  name: string;
  description: string | null;
  /** Cards and dashboards only. */
  collection_id?: number | null;
  /** Collections only. */
  personal_owner_id?: number | null;
};

/**
 * Where each kind of bookmarkable object lives, for the bookmark queries: its table, the column holding the
 * collection its read access follows (for a collection, its own id), and what a bookmark listing shows of it.
 */
export interface BookmarkableModel {
  table: string;
  /** The collection id column its access follows; null in it means the Root collection. */
  accessColumn: string;
  /** Extra columns of the object (`o.`) and of its collection (`c.`, joined on `o.collection_id` when `joinsCollection`). */
  columns: string[];
  joinsCollection: boolean;
  view(row: BookmarkedRow): Record<string, unknown>;
}

export const BOOKMARKABLE: Record<BookmarkModel, BookmarkableModel | undefined> = {
  card: {
    table: 'report_card',
    accessColumn: 'o.collection_id',
    columns: ['o.display AS display', 'o.type AS card_type', 'o.collection_id AS collection_id', 'c.authority_level AS authority_level'],
    joinsCollection: true,
    view: (r) => ({
      display: r.display,
      card_type: r.card_type,
      dataset: r.card_type === 'model',
      collection_id: r.collection_id ?? null,
      authority_level: r.authority_level ?? null,
    }),
  },
  collection: {
    table: 'collection',
    accessColumn: 'o.id',
    columns: ['o.authority_level AS authority_level', 'o.personal_owner_id AS personal_owner_id', 'o.location AS location'],
    joinsCollection: false,
    view: (r) => ({
      authority_level: r.authority_level ?? null,
      personal_owner_id: r.personal_owner_id ?? null,
      location: r.location,
    }),
  },
  dashboard: {
    table: 'report_dashboard',
    accessColumn: 'o.collection_id',
    columns: ['o.collection_id AS collection_id', 'c.authority_level AS authority_level'],
    joinsCollection: true,
    view: (r) => ({ collection_id: r.collection_id ?? null, authority_level: r.authority_level ?? null }),
  },
};
