import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bookmarkKeys } from './bookmark';
import { cardKeys } from './card';
import { api } from './client';
import { collectionKeys } from './collection';
import { dashboardKeys } from './dashboard';
import { searchKeys } from './search';

/**
 * What lives in collections (questions, models, metrics, dashboards, collections), as the listings, search and
 * bookmarks name them: one item, whatever its kind, for the operations a collection page offers on several at once.
 */
export interface ItemRef {
  model: string;
  id: number;
  name: string;
  slug?: string | null;
}

const CARD_MODELS = new Set(['card', 'dataset', 'metric']);

/** Where an item opens, at Metabase's paths (`/question/12-orders`, `/model/…`, `/dashboard/…`, `/collection/…`). */
export function itemPath(item: ItemRef): string {
  const slug = slugOf(item);
  const tail = `${item.id}${slug ? `-${slug}` : ''}`;
  switch (item.model) {
    case 'dataset':
      return `/model/${tail}`;
    case 'metric':
      return `/metric/${tail}`;
    case 'dashboard':
      return `/dashboard/${tail}`;
    case 'collection':
      return `/collection/${tail}`;
    case 'table':
      return `/browse/tables/${item.id}`;
    case 'database':
      return `/browse/databases/${item.id}`;
    default:
      return `/question/${tail}`;
  }
}

const slugOf = (item: ItemRef) =>
  item.slug ??
  item.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/** The resource path an item is written at: `/api/card/12`, `/api/dashboard/3`, `/api/collection/7`. */
function resourceOf(item: ItemRef): string {
  if (CARD_MODELS.has(item.model)) return `/api/card/${item.id}`;
  if (item.model === 'dashboard') return `/api/dashboard/${item.id}`;
  if (item.model === 'collection') return `/api/collection/${item.id}`;
  throw new Error(`${item.name} cannot be changed here`);
}

/** One after the other: the server has no call that writes several kinds of item at once, and order keeps errors plain. */
async function each(items: ItemRef[], write: (item: ItemRef) => Promise<unknown>): Promise<void> {
  for (const item of items) await write(item);
}

function useItemsMutation<V>(write: (vars: V) => Promise<void>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () =>
      Promise.all(
        [collectionKeys.all, cardKeys.all, dashboardKeys.all, searchKeys.all, bookmarkKeys.all].map((queryKey) =>
          client.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

/** Moves items into a collection (`null`: Our analytics); a collection moves with what is inside it. */
export const useMoveItems = () =>
  useItemsMutation(({ items, to }: { items: ItemRef[]; to: number | null }) =>
    each(items, (item) => api('PUT', resourceOf(item), { body: item.model === 'collection' ? { parent_id: to } : { collection_id: to } })),
  );

/** Moves items to the trash (`archived: true`) or back out of it. */
export const useArchiveItems = () =>
  useItemsMutation(({ items, archived }: { items: ItemRef[]; archived: boolean }) =>
    each(items, (item) => api('PUT', resourceOf(item), { body: { archived } })),
  );

/** Deletes trashed items for good. */
export const useDeleteItems = () =>
  useItemsMutation(({ items }: { items: ItemRef[] }) => each(items, (item) => api('DELETE', resourceOf(item))));

/** What a collection can pin (put first, with a preview): questions, models, metrics and dashboards. */
export const PINNABLE = new Set(['card', 'dataset', 'metric', 'dashboard']);

/** Pins an item first in its collection (`collection_position`), or unpins it (null). */
export const usePinItem = () =>
  useItemsMutation(({ item, pinned }: { item: ItemRef; pinned: boolean }) =>
    each([item], (i) => api('PUT', resourceOf(i), { body: { collection_position: pinned ? 1 : null } })),
  );
