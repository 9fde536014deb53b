import type { ResultColumn } from '../../api/dataset';

/** A cell as text: numbers in the reader's locale, dates as they came (ISO), objects as JSON, empty for null. */
export function formatCell(v: unknown, col: ResultColumn): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number')
    return /Integer|BigInteger/.test(col.base_type) && /PK|FK/.test(String(col.semantic_type ?? '')) ? String(v) : v.toLocaleString();
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
