import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { Dto } from './schema';

/**
 * `GET /api/session/properties`: the settings the caller may read (public ones when signed out). The keys the app
 * reads; the server's setting registry (src/modules/settings/setting-registry.ts) is their source.
 */
export interface SessionProperties {
  'site-name': string;
  'site-url': string | null;
  'enable-password-login': boolean;
  /** JWT or SAML sign-in is on and configured: the sign-in page offers "Sign in with SSO". */
  'other-sso-enabled?'?: boolean;
  /** Present only while no user exists: first-run setup is pending. */
  'setup-token'?: string;
  'has-user-setup': boolean;
  'password-complexity': 'weak' | 'normal' | 'strong';
  version: { tag: string };
  [key: string]: unknown;
}

export const sessionKeys = {
  all: ['session'] as const,
  properties: () => ['session', 'properties'] as const,
};

export const getSessionProperties = (signal?: AbortSignal) => api<SessionProperties>('GET', '/api/session/properties', { signal });

/** The instance's public settings: asked by every page, and by main.tsx before the page's code has loaded. */
export const sessionPropertiesQuery = {
  queryKey: sessionKeys.properties(),
  queryFn: ({ signal }: { signal: AbortSignal }) => getSessionProperties(signal),
};

export function useSessionProperties() {
  return useQuery(sessionPropertiesQuery);
}

export type LoginBody = Dto<'LoginDto'>;

/** Signs in (the server sets the session cookie); everything cached belonged to nobody or to someone else: dropped. */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => api<{ id: string }>('POST', '/api/session', { body }),
    meta: { on401: 'throw', errors: 'caller' },
    onSuccess: () => client.removeQueries(),
  });
}

/** Signs out; an already-ended session (401) is as good as signed out. */
export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<void>('DELETE', '/api/session').catch((e: { status?: number }) => (e.status === 401 ? undefined : Promise.reject(e))),
    meta: { on401: 'throw' },
    onSuccess: () => client.removeQueries(),
  });
}
