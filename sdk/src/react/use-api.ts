import { useEffect, useState } from 'react';
import type { AuthClient } from '../auth/auth-client';
import { useAnalyticsContext } from './context';

export type Loaded<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'error'; message: string };

/**
 * Loads with the provider's client whenever `key` changes (null: nothing to load yet); the answer of an older key is
 * dropped, and its request aborted.
 */
export function useApi<T>(key: string | null, load: (client: AuthClient, signal: AbortSignal) => Promise<T>): Loaded<T> {
  const { client } = useAnalyticsContext('An embedded analytics component');
  const [result, setResult] = useState<{ key: string | null; value: Loaded<T> }>({ key: null, value: { state: 'loading' } });
  useEffect(() => {
    if (key === null) return;
    const abort = new AbortController();
    setResult({ key, value: { state: 'loading' } });
    load(client, abort.signal).then(
      (data) => !abort.signal.aborted && setResult({ key, value: { state: 'ready', data } }),
      (e: unknown) =>
        !abort.signal.aborted && setResult({ key, value: { state: 'error', message: e instanceof Error ? e.message : String(e) } }),
    );
    return () => abort.abort();
    // `load` is a new closure each render; `key` says when it means something else.
  }, [client, key]);
  return result.key === key ? result.value : { state: 'loading' };
}

/** POSTs JSON and reads the JSON answer (query endpoints answer 202 with the result). */
export function postJson<T>(client: AuthClient, path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  return client.fetchJson<T>(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal });
}
