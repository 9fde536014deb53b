/**
 * The one way the application calls the server: same-origin fetch with the session cookie (the CSRF guard accepts
 * state-changing requests from this site's own origin), JSON in and out, and every answer other than 2xx thrown as
 * an ApiError that keeps the API's error shapes (Metabase's: `{message}`, `{errors: {field: why}}`, or plain text).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** `errors` of a validation or login failure: the parameter each message is about. */
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(message);
  }
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type QueryValue = string | number | boolean | null | undefined;
/** A list goes as the parameter repeated (`models=card&models=dataset`), as the API's list parameters take it. */
export type QueryParams = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestOptions {
  body?: unknown;
  query?: QueryParams;
  signal?: AbortSignal;
}

export async function api<T>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(withQuery(path, opts.query), {
    method,
    credentials: 'same-origin',
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: opts.signal,
  });
  const text = await res.text();
  if (!res.ok) throw toApiError(res.status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

function withQuery(path: string, query?: QueryParams): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {}))
    for (const one of Array.isArray(v) ? v : [v]) if (one !== undefined && one !== null) params.append(k, String(one));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The API's error body as an ApiError: field errors when it names parameters, else its message or text. */
export function toApiError(status: number, text: string): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new ApiError(status, text.trim() || `Request failed (${status})`);
  }
  const obj = (body && typeof body === 'object' ? body : {}) as { message?: unknown; errors?: unknown };
  const fieldErrors: Record<string, string> = {};
  if (obj.errors && typeof obj.errors === 'object') {
    for (const [k, v] of Object.entries(obj.errors as Record<string, unknown>)) if (typeof v === 'string') fieldErrors[k] = v;
  }
  const message = typeof obj.message === 'string' ? obj.message : Object.values(fieldErrors)[0];
  return new ApiError(status, message ?? `Request failed (${status})`, fieldErrors);
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
