import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/** An event of `GET /api/timeline?include=events` (src/modules/timelines/timeline-view.ts): the keys the app reads. */
export interface TimelineEvent {
  id: number;
  timeline_id: number;
  name: string;
  timestamp: string;
  time_matters: boolean;
  archived: boolean;
}

export interface Timeline {
  id: number;
  name: string;
  collection_id: number | null;
  archived: boolean;
  default: boolean;
  collection?: { can_write?: boolean };
  events?: TimelineEvent[];
}

export const timelineKeys = {
  all: ['timeline'] as const,
  of: (cardId: number | null) => ['timeline', 'for', cardId] as const,
};

/**
 * The timelines a question shows, with their events: a saved card's (its collection's, `GET /api/card/:id/timelines`),
 * else every timeline the person may read (`GET /api/timeline`).
 */
export function useQuestionTimelines(cardId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: timelineKeys.of(cardId),
    queryFn: ({ signal }) =>
      api<Timeline[]>('GET', cardId === null ? '/api/timeline' : `/api/card/${cardId}/timelines`, { query: { include: 'events' }, signal }),
    enabled,
    staleTime: 30_000,
  });
}

export interface NewEvent {
  name: string;
  /** yyyy-mm-dd: the day it happened (time_matters false). */
  date: string;
  /** An existing timeline, or null to make the collection's default one ("Events") first. */
  timeline_id: number | null;
  collection_id: number | null;
}

/** `POST /api/timeline-event` (after `POST /api/timeline` when there is no timeline yet). */
export function useCreateEvent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (e: NewEvent) => {
      const timelineId =
        e.timeline_id ??
        (await api<Timeline>('POST', '/api/timeline', { body: { name: 'Events', collection_id: e.collection_id, default: true } })).id;
      const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
      return api<TimelineEvent>('POST', '/api/timeline-event', {
        body: { name: e.name, timestamp: e.date, time_matters: false, timezone, timeline_id: timelineId },
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: timelineKeys.all }),
  });
}
