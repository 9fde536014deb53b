import { columnTitle, formatValue, isNumeric } from '../format/column';
import type { Column, Dataset, Settings } from '../types';

/**
 * The table as shown: the columns `table.columns` enables (in its order; others hidden), their titles from
 * `column_settings`, rows sorted by a clicked header, and `table.pivot` (a three-column answer turned into a
 * grid: first column down, second across, third in the cells). Pure.
 */

export interface TableColumn {
  /** Index in the answer's cols (-1 for a pivoted column). */
  index: number;
  title: string;
  numeric: boolean;
  col?: Column;
}

export interface TableModel {
  columns: TableColumn[];
  /** The rows as given (for a pivoted table, its built rows); `source` maps a shown row back to the answer's row. */
  rows: unknown[][];
  source: number[];
  /** True for `table.pivot`: cells are positions in the built rows, not answer columns. */
  pivoted: boolean;
}

interface TableColumnSetting {
  name?: string;
  enabled?: boolean;
  fieldRef?: unknown;
}

export function visibleColumns(cols: Column[], settings: Settings): number[] {
  const listed = settings['table.columns'];
  if (!Array.isArray(listed) || !listed.length) return cols.map((_, i) => i);
  const out: number[] = [];
  for (const entry of listed as TableColumnSetting[]) {
    const i = cols.findIndex(
      (c) => c.name === entry.name || (entry.fieldRef !== undefined && JSON.stringify(entry.fieldRef) === JSON.stringify(c.field_ref)),
    );
    if (i >= 0 && entry.enabled !== false && !out.includes(i)) out.push(i);
  }
  // Columns the setting does not mention (added to the query later) still show, as Metabase's.
  cols.forEach((c, i) => {
    if (!(listed as TableColumnSetting[]).some((e) => e.name === c.name) && !out.includes(i)) out.push(i);
  });
  return out.length ? out : cols.map((_, i) => i);
}

export function buildTable(data: Dataset, settings: Settings): TableModel {
  const { cols, rows } = data;
  if (settings['table.pivot'] === true && cols.length === 3) return pivotTable(data, settings);
  const columns = visibleColumns(cols, settings).map((i) => ({
    index: i,
    title: columnTitle(cols[i], settings),
    numeric: isNumeric(cols[i]),
    col: cols[i],
  }));
  return { columns, rows, source: rows.map((_, i) => i), pivoted: false };
}

function pivotTable(data: Dataset, settings: Settings): TableModel {
  const [down, across, cell] = data.cols;
  const rowKeys: unknown[] = [];
  const colKeys: unknown[] = [];
  const grid = new Map<string, unknown>();
  const key = (a: unknown, b: unknown) => JSON.stringify([a, b]);
  for (const r of data.rows) {
    if (!rowKeys.some((k) => k === r[0])) rowKeys.push(r[0]);
    if (!colKeys.some((k) => k === r[1])) colKeys.push(r[1]);
    grid.set(key(r[0], r[1]), r[2]);
  }
  const columns: TableColumn[] = [
    { index: 0, title: columnTitle(down, settings), numeric: false, col: down },
    ...colKeys.map((k) => ({ index: 2, title: formatValue(k, across, settings), numeric: isNumeric(cell), col: cell })),
  ];
  const rows = rowKeys.map((rk) => [rk, ...colKeys.map((ck) => grid.get(key(rk, ck)) ?? null)]);
  return { columns, rows, source: rows.map(() => -1), pivoted: true };
}

export type SortDirection = 'asc' | 'desc';

/** Row order for a sort on a shown column (position in `columns`): numbers by value, others as text, nulls last. */
export function sortOrder(model: TableModel, position: number, dir: SortDirection): number[] {
  const idx = model.rows.map((_, i) => i);
  const at = model.pivoted ? position : (model.columns[position]?.index ?? 0);
  const cmp = (a: unknown, b: unknown): number => {
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a).localeCompare(String(b));
  };
  return idx.sort((x, y) => {
    const a = model.rows[x][at];
    const b = model.rows[y][at];
    if (a === null || a === undefined || b === null || b === undefined) return cmp(a, b);
    return dir === 'asc' ? cmp(a, b) : -cmp(a, b);
  });
}

/** The value of a shown cell (row in `rows`, position in `columns`). */
export function cellValue(model: TableModel, row: number, position: number): unknown {
  return model.rows[row][model.pivoted ? position : model.columns[position].index];
}
