import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

/**
 * What a query or mutation says about its errors (`meta`):
 * - `on401: 'throw'`: a 401 is the caller's answer (the sign-in form: a wrong password is a 401), not a lost session;
 * - `errors: 'caller'`: the caller shows the error (a form puts it beside its fields), so no toast.
 */
export interface ApiMeta extends Record<string, unknown> {
  on401?: 'throw';
  errors?: 'caller';
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ApiMeta;
    mutationMeta: ApiMeta;
    defaultError: Error;
  }
}

export interface ErrorHandlers {
  /** A call answered 401: the session is gone (expired, signed out elsewhere, cookie removed). */
  onSessionLost(): void;
  /** An error nobody shows where it happened. */
  onUnhandled(error: Error): void;
}

/**
 * The app's one QueryClient. Errors go one way: a 401 to the sign-in page (then back), a mutation's other errors to
 * the toaster unless its form shows them; a query's errors to the component that reads it (its route's error
 * boundary when it throws). 4xx answers are not retried: asking again gives the same answer.
 */
export function createQueryClient(handlers: ErrorHandlers): QueryClient {
  const sessionLost = (error: Error, meta: ApiMeta | undefined) => {
    if (error instanceof ApiError && error.status === 401 && meta?.on401 !== 'throw') {
      handlers.onSessionLost();
      return true;
    }
    return false;
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => void sessionLost(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (sessionLost(error, mutation.meta)) return;
        if (mutation.meta?.errors !== 'caller') handlers.onUnhandled(error);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  });
}
