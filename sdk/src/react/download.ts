import { saveBlob } from '../../../web/src/api/http';
import type { AuthClient } from '../auth/auth-client';

/** Downloads a query result file through the session (a plain link would carry no session header). */
export async function downloadResult(client: AuthClient, path: string, parameters: unknown[], fileName: string): Promise<void> {
  const res = await client.fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ parameters, format_rows: true }),
  });
  if (!res.ok) throw new Error(`Download failed (HTTP ${res.status})`);
  saveBlob(await res.blob(), fileName);
}
