import { useCallback, useSyncExternalStore } from 'react';
import type { AuthStatus } from '../auth/auth-client';
import { useAnalyticsContext } from './context';

/** `{status: 'loading'}`, `{status: 'success'}` or `{status: 'error', error: {message}}`; inside AnalyticsProvider only. */
export function useAnalyticsAuthStatus(): AuthStatus {
  const { client } = useAnalyticsContext('useAnalyticsAuthStatus()');
  const subscribe = useCallback((onChange: () => void) => client.subscribe(onChange), [client]);
  const get = useCallback(() => client.status, [client]);
  return useSyncExternalStore(subscribe, get, get);
}
