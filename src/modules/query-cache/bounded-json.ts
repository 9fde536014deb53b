import { randomBytes } from 'node:crypto';

/**
 * JSON.stringify of a query result, or null as soon as it would exceed `maxBytes`: the rows are serialized one
 * by one and the work stops at the bound, so a huge result costs no more than `maxBytes` of serialization.
 */
export function boundedJson(result: unknown, maxBytes: number): string | null {
  const rows = (result as { data?: { rows?: unknown } } | null)?.data?.rows;
  if (!Array.isArray(rows)) {
    const json = JSON.stringify(result);
    return Buffer.byteLength(json, 'utf8') > maxBytes ? null : json;
  }
  const data = (result as { data: Record<string, unknown> }).data;
  const token = `__rows_${randomBytes(8).toString('hex')}__`;
  const marker = `"${token}"`;
  const shell = JSON.stringify({ ...(result as object), data: { ...data, rows: token } });
  const at = shell.indexOf(marker);
  const parts: string[] = [shell.slice(0, at), '['];
  let size = Buffer.byteLength(shell, 'utf8') - marker.length + 2;
  for (let i = 0; i < rows.length; i++) {
    const row = (i === 0 ? '' : ',') + JSON.stringify(rows[i] ?? null);
    size += Buffer.byteLength(row, 'utf8');
    if (size > maxBytes) return null;
    parts.push(row);
  }
  parts.push(']', shell.slice(at + marker.length));
  return parts.join('');
}
