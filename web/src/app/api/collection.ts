import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { Dto, QueryOf } from './schema';

/** An entry of `GET /api/collection/tree` (src/modules/collections/collection-tree.service.ts): the keys the app reads. */
export interface CollectionNode {
  id: number;
  name: string;
  slug: string;
  personal_owner_id: number | null;
  archived: boolean;
  can_write?: boolean;
  /** A shallow tree answers whether there are any. */
  children?: CollectionNode[] | boolean;
}

export type TreeQuery = QueryOf<'/api/collection/tree', 'get'>;
export type ItemsQuery = QueryOf<'/api/collection/{id}/items', 'get'>;
export type CollectionId = number | 'root';

/** One entry of `effective_ancestors` of `GET /api/collection/:id` (the Root first, then the readable ancestors). */
export interface Ancestor {
  id: number | 'root';
  name: string;
  slug?: string;
}

/** `GET /api/collection/:id` and `/root` (src/modules/collections/collection.view.ts): the keys the app reads. */
export interface Collection {
  id: CollectionId;
  name: string;
  slug?: string;
  description: string | null;
  parent_id: number | null;
  personal_owner_id?: number | null;
  is_personal: boolean;
  archived?: boolean;
  can_write: boolean;
  effective_ancestors: Ancestor[];
}

export type ItemModel = 'card' | 'dataset' | 'metric' | 'dashboard' | 'collection' | 'snippet' | 'timeline' | 'pulse';

/** An entry of `GET /api/collection/:id/items` (src/modules/collections/item-keys.ts and the item sources). */
export interface CollectionItem {
  id: number;
  model: ItemModel;
  name: string;
  description: string | null;
  slug?: string | null;
  display?: string | null;
  collection_position: number | null;
  personal_owner_id?: number | null;
  archived?: boolean;
  can_write?: boolean;
  can_restore?: boolean;
  can_delete?: boolean;
  last_edited_at: string | null;
  last_edited_by: string | null;
}

export interface ItemsPage {
  total: number;
  data: CollectionItem[];
}

export const collectionKeys = {
  all: ['collection'] as const,
  tree: (query: TreeQuery) => ['collection', 'tree', query] as const,
  graph: () => ['collection', 'graph'] as const,
  detail: (id: CollectionId) => ['collection', id] as const,
  items: (id: CollectionId, query: ItemsQuery) => ['collection', id, 'items', query] as const,
};

export function useCollectionTree(query: TreeQuery, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: collectionKeys.tree(query),
    queryFn: ({ signal }) => api<CollectionNode[]>('GET', '/api/collection/tree', { query, signal }),
    enabled: opts.enabled ?? true,
  });
}

/** One level of the tree: the children of a collection (or the top level), each saying whether it has children itself. */
export const useCollectionLevel = (parent: number | null, enabled = true) =>
  useCollectionTree({ shallow: 'true', 'exclude-archived': 'true', ...(parent === null ? {} : { 'collection-id': parent }) }, { enabled });

/** A collection's page: `/collection/<id>-<slug>` as Metabase links it (the slug is decorative). */
export const collectionPath = (c: { id: CollectionId; slug?: string | null }) =>
  c.id === 'root' ? '/collection/root' : `/collection/${c.id}${c.slug ? `-${c.slug}` : ''}`;

export function useCollection(id: CollectionId | null) {
  return useQuery({
    queryKey: collectionKeys.detail(id ?? 'root'),
    queryFn: ({ signal }) => api<Collection>('GET', `/api/collection/${id}`, { signal }),
    enabled: id !== null,
  });
}

export function useCollectionItems(id: CollectionId, query: ItemsQuery) {
  return useQuery({
    queryKey: collectionKeys.items(id, query),
    queryFn: ({ signal }) => api<ItemsPage>('GET', `/api/collection/${id}/items`, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export type CreateCollectionBody = Dto<'CreateCollectionDto'>;
export type UpdateCollectionBody = Dto<'UpdateCollectionDto'>;

export function useCreateCollection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCollectionBody) => api<Collection & { id: number }>('POST', '/api/collection', { body }),
    meta: { errors: 'caller' },
    onSuccess: () => client.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}

/** `PUT /api/collection/:id`: rename (a form shows its errors), move (`parent_id`), archive or restore. */
export function useUpdateCollection(opts: { formErrors?: boolean } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateCollectionBody & { id: number }) => api<Collection>('PUT', `/api/collection/${id}`, { body }),
    meta: opts.formErrors ? { errors: 'caller' } : undefined,
    onSuccess: () => client.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}

/** `GET /api/collection/graph` (src/modules/collections/collection-graph.service.ts): per group, per collection or `root`. */
export type CollectionAccess = 'write' | 'read' | 'none';
export interface CollectionGraph {
  revision: number;
  groups: Record<string, Record<string, CollectionAccess>>;
}

export function useCollectionGraph() {
  return useQuery({
    queryKey: collectionKeys.graph(),
    queryFn: ({ signal }) => api<CollectionGraph>('GET', '/api/collection/graph', { signal }),
    // Edits are drafted on this revision: a refetch under them would hide a conflict.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

/** `PUT /api/collection/graph` with the revision read and only the entries changed; 409 when someone saved meanwhile. */
export function useSaveCollectionGraph() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CollectionGraph) =>
      api<CollectionGraph>('PUT', '/api/collection/graph', { body: body satisfies Dto<'GraphBodyDto'> }),
    meta: { errors: 'caller' },
    onSuccess: (graph) => client.setQueryData(collectionKeys.graph(), graph),
  });
}
