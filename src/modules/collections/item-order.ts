import type { CollectionItem } from './collection-item-source';

export interface SortOptions {
  sortColumn?: 'model' | 'name' | 'last_edited_by' | 'last_edited_at';
  sortDirection?: 'asc' | 'desc';
  /** Official collections before everything else (Metabase's default). */
  officialFirst?: boolean;
}

/** Metabase's order of models for `sort_column=model`. */
const MODEL_RANK: Record<string, number> = {
  dashboard: 1,
  pulse: 2,
  dataset: 3,
  metric: 4,
  card: 5,
  snippet: 6,
  collection: 7,
  timeline: 8,
};

const lower = (s: unknown) => String(s ?? '').toLowerCase();
const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/** Nulls last in either direction, as Metabase sorts on Postgres. */
function nullsLast(a: string | null, b: string | null, dir: number): number | null {
  if (a === null && b === null) return null;
  if (a === null) return 1;
  if (b === null) return -1;
  const c = cmp(a, b) * dir;
  return c === 0 ? null : c;
}

function time(v: string | null): string | null {
  if (v === null || v === undefined) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? v : new Date(t).toISOString();
}

/**
 * The order of GET /api/collection/:id/items: official collections first, then the chosen column (name by default;
 * ties by name), then model and id so that paging is deterministic.
 */
export function compareItems(a: CollectionItem, b: CollectionItem, o: SortOptions): number {
  if (o.officialFirst !== false) {
    const oa = a.model === 'collection' && a.authority_level === 'official' ? 0 : 1;
    const ob = b.model === 'collection' && b.authority_level === 'official' ? 0 : 1;
    if (oa !== ob) return oa - ob;
  }
  const dir = o.sortDirection === 'desc' ? -1 : 1;
  let c: number | null = null;
  switch (o.sortColumn ?? 'name') {
    case 'name':
      c = cmp(lower(a.name), lower(b.name)) * dir;
      break;
    case 'model':
      c = cmp(MODEL_RANK[a.model] ?? 100, MODEL_RANK[b.model] ?? 100) * dir;
      break;
    case 'last_edited_at':
      c = nullsLast(time(a.last_edited_at), time(b.last_edited_at), dir);
      break;
    case 'last_edited_by':
      c = nullsLast(
        a.last_edited_by === null ? null : lower(a.last_edited_by),
        b.last_edited_by === null ? null : lower(b.last_edited_by),
        dir,
      );
      break;
  }
  if (c) return c;
  return cmp(lower(a.name), lower(b.name)) || cmp(MODEL_RANK[a.model] ?? 100, MODEL_RANK[b.model] ?? 100) || a.id - b.id;
}
