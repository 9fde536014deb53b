import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { cardKeys, useRevokeCardLink, useUpdateCard, type Card } from '../../api/card';
import { dashboardKeys, useRevokeDashboardLink } from '../../api/dashboard';
import { useUpdateDashboard } from '../../api/dashboard-edit';
import type { DashboardData } from '../../api/dashboard-view';

/** What the sharing dialog shares: a dashboard or a saved question, with the keys its three panels read. */
export interface ShareTarget {
  kind: 'dashboard' | 'question';
  id: number;
  name: string;
  public_uuid: string | null;
  enable_embedding: boolean;
  embedding_params: Record<string, string> | null;
  parameters: Array<{ id: string; slug: string; name: string }>;
}

export function dashboardTarget(d: DashboardData): ShareTarget {
  return { kind: 'dashboard', ...pick(d), parameters: d.parameters ?? [] };
}

export function questionTarget(c: Card): ShareTarget {
  const parameters = (c.parameters ?? []).flatMap((p) =>
    typeof p.id === 'string' && typeof p.slug === 'string' ? [{ id: p.id, slug: p.slug, name: String(p.name ?? p.slug) }] : [],
  );
  return { kind: 'question', ...pick(c), parameters };
}

function pick(o: { id: number; name: string; public_uuid?: string | null; enable_embedding?: boolean; embedding_params?: unknown }) {
  return {
    id: o.id,
    name: o.name,
    public_uuid: o.public_uuid ?? null,
    enable_embedding: o.enable_embedding === true,
    embedding_params: (o.embedding_params as Record<string, string> | null | undefined) ?? null,
  };
}

/** `POST /api/{dashboard,card}/:id/public_link` (superusers, public sharing on): the link's uuid, kept if it exists. */
export function useCreatePublicLink(target: ShareTarget) {
  const client = useQueryClient();
  const path = target.kind === 'dashboard' ? 'dashboard' : 'card';
  return useMutation({
    mutationFn: () => api<{ uuid: string }>('POST', `/api/${path}/${target.id}/public_link`),
    onSuccess: () => client.invalidateQueries({ queryKey: target.kind === 'dashboard' ? dashboardKeys.all : cardKeys.all }),
  });
}

/** `DELETE /api/{dashboard,card}/:id/public_link`: the link stops working at once. */
export function useRevokePublicLink(target: ShareTarget) {
  const dashboard = useRevokeDashboardLink();
  const card = useRevokeCardLink();
  return target.kind === 'dashboard' ? dashboard : card;
}

/** Publishing for static embedding: `enable_embedding` and `embedding_params` in one PUT of the dashboard or question. */
export function usePublishEmbed(target: ShareTarget) {
  const dashboard = useUpdateDashboard(target.id);
  const card = useUpdateCard(target.id);
  const mutation = target.kind === 'dashboard' ? dashboard : card;
  return {
    isPending: mutation.isPending,
    error: mutation.error,
    mutate: (body: { enable_embedding: boolean; embedding_params: Record<string, string> }, opts: { onSuccess: () => void }) =>
      target.kind === 'dashboard' ? dashboard.mutate(body, opts) : card.mutate(body, opts),
  };
}
