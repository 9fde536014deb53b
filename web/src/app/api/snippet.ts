import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { Dto } from './schema';

/** A snippet as `GET /api/native-query-snippet` lists it (src/modules/snippets/snippet.view.ts): the keys the app reads. */
export interface Snippet {
  id: number;
  name: string;
  description: string | null;
  content: string;
  collection_id: number | null;
  archived: boolean;
}

export type CreateSnippetBody = Dto<'CreateSnippetDto'>;
export type UpdateSnippetBody = Dto<'UpdateSnippetDto'>;

export const snippetKeys = {
  all: ['native-query-snippet'] as const,
};

export function useSnippets() {
  return useQuery({
    queryKey: snippetKeys.all,
    queryFn: ({ signal }) => api<Snippet[]>('GET', '/api/native-query-snippet', { signal }),
  });
}

/** Create (no id) or edit a snippet; a form shows the errors at its fields. */
export function useSaveSnippet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: CreateSnippetBody & UpdateSnippetBody }) =>
      id === undefined
        ? api<Snippet>('POST', '/api/native-query-snippet', { body })
        : api<Snippet>('PUT', `/api/native-query-snippet/${id}`, { body }),
    meta: { errors: 'caller' },
    onSuccess: () => client.invalidateQueries({ queryKey: snippetKeys.all }),
  });
}
