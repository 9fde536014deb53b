import type { CompiledColumn } from '../../../query-engine/compile/contract';
import { currencyIdentifier, isCurrency, type ColumnSettings } from './column-format';

type ColumnKey = Pick<CompiledColumn, 'name' | 'display_name' | 'field_ref'>;

/** The columns of a file: which result columns, in which order, under which titles, formatted how. */
export interface ExportColumns {
  /** Index in the result row of each exported column. */
  indices: number[];
  cols: CompiledColumn[];
  titles: string[];
  settings: ColumnSettings[];
}

/**
 * Reads a card's `visualization_settings` for a download:
 * - `table.columns` (`[{name, fieldRef?, enabled}]`): the enabled entries, in their order, are the file's columns
 *   (as Metabase's `export-column-order`); none enabled or absent: every column in result order.
 * - `column_settings`, keyed by `["name","TOTAL"]` or `["ref",["field",12,null]]` (JSON text): each column's
 *   settings (a ref entry over a name entry); `column_title` renames the header. With `formatRows`, a currency
 *   column whose `currency_in_header` is not false gets its currency in the header (`Total ($)`), as in Metabase.
 */
export function exportColumns(cols: CompiledColumn[], viz: Record<string, unknown>, formatRows: boolean): ExportColumns {
  const indices = columnOrder(cols, viz['table.columns']);
  const picked = indices.map((i) => cols[i]);
  const settings = columnSettingsOf(picked, viz);
  const titles = picked.map((col, i) => {
    const s = settings[i];
    const title = typeof s.column_title === 'string' && s.column_title !== '' ? s.column_title : col.display_name;
    return formatRows && isCurrency(col, s) && s.currency_in_header !== false ? `${title} (${currencyIdentifier(s)})` : title;
  });
  return { indices, cols: picked, titles, settings };
}

/** Each column's settings from `column_settings` (see exportColumns), in the order of `cols`. */
export function columnSettingsOf(cols: ColumnKey[], viz: Record<string, unknown>): ColumnSettings[] {
  const entries = settingEntries(viz.column_settings);
  return cols.map((col) => settingsFor(col, entries));
}

type Entry = [key: unknown, settings: ColumnSettings];

function settingEntries(raw: unknown): Entry[] {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return [];
  const entries: Entry[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    try {
      entries.push([JSON.parse(key), value as ColumnSettings]);
    } catch {
      // A key that is not JSON names no column.
    }
  }
  return entries;
}

/** Name entries first, ref entries over them (the more precise key wins). */
function settingsFor(col: ColumnKey, entries: Entry[]): ColumnSettings {
  const byName = entries.filter(([key]) => Array.isArray(key) && key[0] === 'name' && matches(key, col));
  const byRef = entries.filter(([key]) => Array.isArray(key) && key[0] === 'ref' && matches(key, col));
  return Object.assign({}, ...byName.map(([, s]) => s), ...byRef.map(([, s]) => s)) as ColumnSettings;
}

function matches(key: unknown, col: ColumnKey): boolean {
  if (!Array.isArray(key)) return false;
  if (key[0] === 'name') return key[1] === col.name;
  if (key[0] !== 'ref' || !Array.isArray(key[1])) return false;
  return sameRef(key[1] as unknown[], col.field_ref);
}

/** The same ref, or field refs of the same id or name: their options (base-type, temporal-unit...) differ, not the join alias. */
function sameRef(ref: unknown[], own: unknown): boolean {
  if (JSON.stringify(ref) === JSON.stringify(own)) return true;
  if (!Array.isArray(own)) return false;
  return ref[0] === 'field' && own[0] === 'field' && ref[1] === own[1] && joinAlias(ref[2]) === joinAlias(own[2]);
}

function joinAlias(o: unknown): unknown {
  return o && typeof o === 'object' ? ((o as Record<string, unknown>)['join-alias'] ?? null) : null;
}

/** The indices of the enabled `table.columns` entries that name a column (by name, or by field ref), in their order. */
function columnOrder(cols: ColumnKey[], tableColumns: unknown): number[] {
  const all = cols.map((_, i) => i);
  if (!Array.isArray(tableColumns)) return all;
  const picked: number[] = [];
  for (const entry of tableColumns) {
    if (!entry || typeof entry !== 'object') continue;
    const e = entry as { name?: unknown; fieldRef?: unknown; field_ref?: unknown; enabled?: unknown };
    if (e.enabled === false) continue;
    const ref = e.fieldRef ?? e.field_ref;
    let i = typeof e.name === 'string' ? cols.findIndex((c) => c.name === e.name) : -1;
    if (i < 0 && Array.isArray(ref)) i = cols.findIndex((c) => sameRef(ref, c.field_ref));
    if (i >= 0 && !picked.includes(i)) picked.push(i);
  }
  return picked.length ? picked : all;
}

/**
 * A dashcard's visualization settings over its card's (what the dashboard shows): keys of the dashcard win, and
 * `column_settings` are merged column by column.
 */
export function mergedVisualizationSettings(card: Record<string, unknown>, dashcard: Record<string, unknown>): Record<string, unknown> {
  const object = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, Record<string, unknown>>) : {});
  const merged: Record<string, unknown> = { ...card, ...dashcard };
  const a = object(card.column_settings);
  const b = object(dashcard.column_settings);
  if (Object.keys(a).length || Object.keys(b).length) {
    const columns: Record<string, unknown> = { ...a };
    for (const [key, value] of Object.entries(b)) columns[key] = { ...object(a[key]), ...object(value) };
    merged.column_settings = columns;
  }
  return merged;
}
