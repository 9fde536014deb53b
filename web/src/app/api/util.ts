import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from './client';

export type PasswordVerdict = { valid: true } | { valid: false; message: string };

/**
 * `POST /api/util/password_check`: a password the rules refuse is a 400 naming why; here a verdict, not an error.
 * (Its DTO leaves `password` untyped for the policy to judge, so the document cannot say it is a string.)
 */
export async function checkPassword(password: string, signal?: AbortSignal): Promise<PasswordVerdict> {
  try {
    await api('POST', '/api/util/password_check', { body: { password }, signal });
    return { valid: true };
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) return { valid: false, message: e.fieldErrors.password ?? e.message };
    throw e;
  }
}

/**
 * The server's verdict on a password as it is typed (pass it debounced). Kept out of the cache once unused: the key
 * holds the password.
 */
export function usePasswordCheck(password: string) {
  return useQuery({
    queryKey: ['util', 'password_check', password],
    queryFn: ({ signal }) => checkPassword(password, signal),
    enabled: password.length > 0,
    gcTime: 0,
    staleTime: Infinity,
  });
}

export const utilKeys = {
  all: ['util'] as const,
  logs: () => ['util', 'logs'] as const,
  bugReport: () => ['util', 'bug_report_details'] as const,
  pools: () => ['util', 'diagnostic_info', 'connection_pool_info'] as const,
};

/** `GET /api/util/random_token`: 64 hexadecimal characters (32 random bytes), the form of the embedding and JWT keys. */
export const randomToken = () => api<{ token: string }>('GET', '/api/util/random_token').then((r) => r.token);

/** A line of `GET /api/util/logs` (admins; the server's LogEntry), newest first. */
export interface LogLine {
  timestamp: string;
  level: string;
  fqns: string;
  msg: string;
  exception: string | null;
  process_uuid: string;
  request_id?: string;
}

/** The server's recent log lines; `refetchInterval` (ms) keeps them coming while the page is open, false stops it. */
export function useLogs(refetchInterval: number | false) {
  return useQuery({
    queryKey: utilKeys.logs(),
    queryFn: ({ signal }) => api<LogLine[]>('GET', '/api/util/logs', { signal }),
    refetchInterval,
    staleTime: 0,
  });
}

/** `GET /api/util/bug_report_details` (admins): system and server facts for a bug report, no secrets. */
export function useBugReportDetails() {
  return useQuery({
    queryKey: utilKeys.bugReport(),
    queryFn: ({ signal }) => api<Record<string, unknown>>('GET', '/api/util/bug_report_details', { signal }),
  });
}

/** A pool of `GET /api/util/diagnostic_info/connection_pool_info` (the server's PoolStats: connection-pools.ts), by name. */
export interface PoolStats {
  numConnections: number;
  numIdleConnections: number;
  numBusyConnections: number;
  numWaiting: number;
  maxPoolSize: number;
  /** Warehouse pools: queries waiting for a query slot. */
  numQueuedQueries?: number;
}

export function useConnectionPools() {
  return useQuery({
    queryKey: utilKeys.pools(),
    queryFn: ({ signal }) =>
      api<{ 'connection-pools': Record<string, PoolStats> }>('GET', '/api/util/diagnostic_info/connection_pool_info', { signal }).then(
        (r) => r['connection-pools'],
      ),
    staleTime: 0,
  });
}
