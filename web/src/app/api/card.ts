import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Dto } from './schema';
import { api } from './client';

/** Entries of `GET /api/card/public` and `/api/card/embeddable` (admins; src/modules/cards/card-sharing.service.ts). */
export interface SharedCard {
  id: number;
  name: string;
  public_uuid?: string;
}

export const cardKeys = {
  all: ['card'] as const,
  public: () => ['card', 'public'] as const,
  embeddable: () => ['card', 'embeddable'] as const,
};

/** Questions with a public link; the server answers 400 while public sharing is off (`enabled` false skips the call). */
export function usePublicCards(enabled: boolean) {
  return useQuery({
    queryKey: cardKeys.public(),
    queryFn: ({ signal }) => api<SharedCard[]>('GET', '/api/card/public', { signal }),
    enabled,
  });
}

/** Questions with static embedding on; 400 while static embedding is off. */
export function useEmbeddableCards(enabled: boolean) {
  return useQuery({
    queryKey: cardKeys.embeddable(),
    queryFn: ({ signal }) => api<SharedCard[]>('GET', '/api/card/embeddable', { signal }),
    enabled,
  });
}

/** `DELETE /api/card/:id/public_link`: the link stops working at once. */
export function useRevokeCardLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>('DELETE', `/api/card/${id}/public_link`),
    onSuccess: () => client.invalidateQueries({ queryKey: cardKeys.all }),
  });
}

/** An entry of `GET /api/card` (src/modules/cards/card-view.ts): the keys the app reads. */
export interface CardSummary {
  id: number;
  name: string;
  type: 'question' | 'model' | 'metric';
  display: string;
  collection_id: number | null;
}

/**
 * `GET /api/card?f=recent`: the questions the person ran lately, latest first. The server keeps no view log of its own
 * (no /api/activity/recent_views): its query log stands in, so dashboards opened are not among them.
 */
export function useRecentCards() {
  return useQuery({
    queryKey: [...cardKeys.all, 'recent'] as const,
    queryFn: ({ signal }) => api<CardSummary[]>('GET', '/api/card', { query: { f: 'recent' }, signal }),
  });
}

/** A card's item kind in collection listings and search: models are `dataset`. */
export const cardModel = (c: Pick<CardSummary, 'type'>) => (c.type === 'model' ? 'dataset' : c.type === 'metric' ? 'metric' : 'card');

/** `GET /api/card/:id` (src/modules/cards/card-view.ts toCardView): the keys the question page reads. */
export interface Card extends CardSummary {
  description: string | null;
  dataset_query: Record<string, unknown>;
  visualization_settings: Record<string, unknown>;
  parameters: Array<Record<string, unknown>>;
  result_metadata: Array<Record<string, unknown>> | null;
  database_id: number | null;
  can_write: boolean;
  archived: boolean;
  collection: { id: number; name: string; personal_owner_id: number | null } | null;
  public_uuid?: string | null;
  enable_embedding?: boolean;
  embedding_params?: Record<string, string> | null;
}

export type CreateCardBody = Dto<'CreateCardDto'>;
/**
 * The OpenAPI document describes `result_metadata` as a map (its custom validator, cards.dto.ts ResultMetadata, has no
 * schema): the server takes, and stores, a list of columns.
 */
export type UpdateCardBody = Omit<Dto<'UpdateCardDto'>, 'result_metadata'> & { result_metadata?: Array<Record<string, unknown>> | null };

export const cardDetailKey = (id: number) => [...cardKeys.all, id] as const;

export function useCard(id: number | null) {
  return useQuery({
    queryKey: cardDetailKey(id ?? 0),
    queryFn: ({ signal }) => api<Card>('GET', `/api/card/${id}`, { signal }),
    enabled: id !== null,
  });
}

/** `POST /api/card` (a new question, or "save as new"); the save dialog shows its errors at its fields. */
export function useCreateCard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCardBody) => api<Card>('POST', '/api/card', { body }),
    meta: { errors: 'caller' },
    onSuccess: () => client.invalidateQueries({ queryKey: ['collection'] }),
  });
}

/** `PUT /api/card/:id`: replace the original, rename, move, archive, turn into a model, edit a model's columns. */
export function useUpdateCard(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateCardBody) => api<Card>('PUT', `/api/card/${id}`, { body }),
    onSuccess: (card) => {
      client.setQueryData(cardDetailKey(id), card);
      return Promise.all([client.invalidateQueries({ queryKey: cardKeys.all }), client.invalidateQueries({ queryKey: ['revision'] })]);
    },
  });
}
