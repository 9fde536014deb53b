import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

export type BookmarkType = 'card' | 'dashboard' | 'collection';

/** An entry of `GET /api/bookmark` (src/modules/bookmarks/bookmarks.service.ts): the keys the app reads. */
export interface Bookmark {
  id: string;
  type: BookmarkType;
  item_id: number;
  name: string;
  card_type?: 'question' | 'model' | 'metric';
  slug?: string | null;
}

export const bookmarkKeys = {
  all: ['bookmark'] as const,
};

export function useBookmarks() {
  return useQuery({
    queryKey: bookmarkKeys.all,
    queryFn: ({ signal }) => api<Bookmark[]>('GET', '/api/bookmark', { signal }),
  });
}

/** The kind of bookmark an item of a listing takes: models and metrics are cards. */
export const bookmarkType = (model: string): BookmarkType | null =>
  model === 'dashboard'
    ? 'dashboard'
    : model === 'collection'
      ? 'collection'
      : ['card', 'dataset', 'metric'].includes(model)
        ? 'card'
        : null;

/** `POST` or `DELETE /api/bookmark/:type/:id`. */
export function useToggleBookmark() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ type, id, on }: { type: BookmarkType; id: number; on: boolean }) =>
      api<unknown>(on ? 'POST' : 'DELETE', `/api/bookmark/${type}/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: bookmarkKeys.all }),
  });
}
