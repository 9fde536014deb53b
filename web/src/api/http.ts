/** An answer other than 2xx: the status and the server's message (JSON `message`, or the plain text the embed API sends). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** GET of a JSON answer; same-origin, no credentials sent: the link or token in the path is the only authority. */
export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { credentials: 'omit', headers: { Accept: 'application/json' }, signal });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, errorMessage(text, res.status));
  return JSON.parse(text) as T;
}

function errorMessage(text: string, status: number): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (body && typeof body.message === 'string') return body.message;
  } catch {
    /* plain text */
  }
  return text.trim() || `Request failed (${status})`;
}

/** Starts a browser download of `url` (a GET the server answers with Content-Disposition) without leaving the page. */
export function downloadUrl(url: string): Promise<void> {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noreferrer';
  a.download = '';
  document.body.appendChild(a);
  a.click();
  a.remove();
  return Promise.resolve();
}

/** Saves text the page made itself (CSV/JSON of results a client has no export endpoint for). */
export function saveText(text: string, fileName: string, type: string): void {
  saveBlob(new Blob([text], { type }), fileName);
}

/** Hands a file already in memory to the browser as a download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const enc = encodeURIComponent;
