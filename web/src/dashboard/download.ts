import type { Dataset } from '../visualizations';

/** CSV of results already on the page (RFC 4180 quoting), headers the columns' display names. */
export function toCsv(data: Dataset): string {
  const cell = (v: unknown) => {
    const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [data.cols.map((c) => cell(c.display_name ?? c.name)).join(',')];
  for (const row of data.rows) lines.push(row.map(cell).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** JSON as Metabase's export writes it: one object per row keyed by column display name. */
export function toJson(data: Dataset): string {
  return JSON.stringify(data.rows.map((row) => Object.fromEntries(data.cols.map((c, i) => [c.display_name ?? c.name, row[i]]))));
}

/** A file name from the card's name and the time, as Metabase names downloads. */
export function fileName(name: string, ext: string): string {
  const stamp = new Date()
    .toISOString()
    .slice(0, 19)
    .replace(/[:T]/g, (m) => (m === 'T' ? 'T' : '_'));
  return `${name.replace(/[^\w -]+/g, '').trim() || 'results'}_${stamp}.${ext}`;
}
