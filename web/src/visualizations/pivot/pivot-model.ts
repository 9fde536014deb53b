import { columnTitle, formatValue } from '../format/column';
import type { Column, Dataset, Settings } from '../types';

/**
 * The pivot table from the pivot endpoint's answer: the breakout columns, `pivot-grouping` (bit i set = breakout i
 * rolled up into a subtotal), then the aggregations. `pivot_table.column_split` ({rows, columns, values}, column
 * names or field refs) says which breakouts go down and which across; without it, the last breakout goes across.
 * Every cell is the query's own answer for its grouping (a detail or a subtotal row), never a sum made here, so
 * averages and distinct counts stay right. `pivot_table.collapsed_rows.value` lists collapsed groups (a JSON array of
 * the path's values) or whole levels (the level number as text); a collapsed group shows as its subtotal row.
 * Pure, no React: the unit tests read the same headers the table draws.
 */

export const PIVOT_GROUPING = 'pivot-grouping';

export interface HeaderCell {
  label: string;
  span: number;
  /** True for the "Row totals" group. */
  total?: boolean;
}

export interface RowHeader {
  label: string;
  /** JSON of the path of values down to this header (what collapsed_rows stores). */
  path: string;
  /** The group has children that can be collapsed (every level but the innermost). */
  collapsible: boolean;
  collapsed: boolean;
}

export interface PivotRow {
  kind: 'detail' | 'subtotal' | 'collapsed' | 'grand';
  /** Row headers, one per row breakout: null where the header above spans this row (shown once per group). */
  headers: Array<RowHeader | null>;
  /** A "Totals for X" / "Grand totals" label over the headers of a subtotal row, and the level it starts at. */
  totalLabel?: string;
  level: number;
  cells: unknown[];
}

export interface PivotModel {
  rowDims: number[];
  colDims: number[];
  values: number[];
  /** Titles of the row breakouts (the header's top-left corner). */
  rowTitles: string[];
  /** One header row per column breakout, then one with the value titles (when there is more than one value or no column breakout). */
  headerRows: HeaderCell[][];
  rows: PivotRow[];
  /** For each cell position, the column index in `cols` of its value (to format it). */
  cellCols: number[];
}

interface SplitSetting {
  rows?: unknown[];
  columns?: unknown[];
  values?: unknown[];
}

interface Node {
  value: unknown;
  children: Map<string, Node>;
}

const keyOf = (v: unknown) => JSON.stringify(v ?? null);

function refIndex(cols: Column[], ref: unknown, limit: number): number {
  if (typeof ref === 'string') return cols.findIndex((c, i) => i < limit && c.name === ref);
  if (!Array.isArray(ref)) return -1;
  const json = JSON.stringify(ref);
  const exact = cols.findIndex((c, i) => i < limit && JSON.stringify(c.field_ref) === json);
  if (exact >= 0) return exact;
  // ["field", id, opts] against a column whose ref has the same id (the options may differ, e.g. binning details).
  return cols.findIndex(
    (c, i) =>
      i < limit && Array.isArray(c.field_ref) && (c.field_ref as unknown[])[0] === ref[0] && (c.field_ref as unknown[])[1] === ref[1],
  );
}

export function pivotSplit(cols: Column[], settings: Settings): { rowDims: number[]; colDims: number[]; values: number[] } {
  const grouping = cols.findIndex((c) => c.name === PIVOT_GROUPING);
  const breakoutCount = grouping >= 0 ? grouping : cols.filter((c) => c.source === 'breakout').length;
  const breakouts = Array.from({ length: breakoutCount }, (_, i) => i);
  const aggregations = cols.map((_, i) => i).filter((i) => i >= breakoutCount && i !== grouping);
  const split = settings['pivot_table.column_split'] as SplitSetting | undefined;
  if (split && (split.rows || split.columns)) {
    const rowDims = (split.rows ?? []).map((r) => refIndex(cols, r, breakoutCount)).filter((i) => i >= 0);
    const colDims = (split.columns ?? []).map((r) => refIndex(cols, r, breakoutCount)).filter((i) => i >= 0 && !rowDims.includes(i));
    const named = (split.values ?? [])
      .map((r) =>
        typeof r === 'string' ? cols.findIndex((c, i) => i > breakoutCount - 1 && c.name === r) : refIndex(cols, r, cols.length),
      )
      .filter((i) => aggregations.includes(i));
    // Breakouts the setting leaves out go down with the rows, so every detail row still has a place.
    for (const b of breakouts) if (!rowDims.includes(b) && !colDims.includes(b)) rowDims.push(b);
    return { rowDims, colDims, values: named.length ? named : aggregations };
  }
  if (breakouts.length < 2) return { rowDims: breakouts, colDims: [], values: aggregations };
  return { rowDims: breakouts.slice(0, -1), colDims: breakouts.slice(-1), values: aggregations };
}

/** The collapsed groups and levels from `pivot_table.collapsed_rows` ({value: [...]} or a bare list). */
export function collapsedSet(settings: Settings): Set<string> {
  const raw = settings['pivot_table.collapsed_rows'];
  const list = Array.isArray(raw)
    ? raw
    : raw && typeof raw === 'object' && Array.isArray((raw as { value?: unknown[] }).value)
      ? (raw as { value: unknown[] }).value
      : [];
  return new Set(list.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))));
}

export function buildPivot(data: Dataset, settings: Settings, collapsed: Set<string> = collapsedSet(settings)): PivotModel {
  const { cols, rows } = data;
  const grouping = cols.findIndex((c) => c.name === PIVOT_GROUPING);
  const { rowDims, colDims, values } = pivotSplit(cols, settings);
  const breakouts = [...rowDims, ...colDims].sort((a, b) => a - b);

  // Every answer row by its grouping and the values of the breakouts it keeps.
  const cells = new Map<string, unknown[]>();
  const detail: unknown[][] = [];
  for (const row of rows) {
    const mask = grouping >= 0 ? Number(row[grouping]) || 0 : 0;
    if (mask === 0) detail.push(row);
    const active = breakouts.filter((b) => (mask & (1 << b)) === 0);
    cells.set(`${mask}|${keyOf(active.map((b) => row[b]))}`, row);
  }
  const lookup = (mask: number, fixed: Map<number, unknown>): unknown[] | undefined => {
    const active = breakouts.filter((b) => (mask & (1 << b)) === 0);
    return cells.get(`${mask}|${keyOf(active.map((b) => fixed.get(b)))}`);
  };

  const tree = (dims: number[]): Node => {
    const root: Node = { value: null, children: new Map() };
    for (const row of detail) {
      let node = root;
      for (const d of dims) {
        const k = keyOf(row[d]);
        let next = node.children.get(k);
        if (!next) {
          next = { value: row[d], children: new Map() };
          node.children.set(k, next);
        }
        node = next;
      }
    }
    return root;
  };

  // Column leaves (paths of the column breakouts' values) and the header rows over them.
  const colTree = tree(colDims);
  const leaves: unknown[][] = [];
  const walkCols = (node: Node, path: unknown[]) => {
    if (path.length === colDims.length) leaves.push(path);
    else for (const child of node.children.values()) walkCols(child, [...path, child.value]);
  };
  walkCols(colTree, []);
  const rowTotals = colDims.length > 0 && settings['pivot.show_row_totals'] !== false;
  const valueTitles = values.map((v) => columnTitle(cols[v], settings));
  const headerRows: HeaderCell[][] = colDims.map((d, level) => {
    const out: HeaderCell[] = [];
    leaves.forEach((leaf, i) => {
      const prefix = keyOf(leaf.slice(0, level + 1));
      if (i > 0 && keyOf(leaves[i - 1].slice(0, level + 1)) === prefix) out[out.length - 1].span += values.length;
      else out.push({ label: formatValue(leaf[level], cols[d], settings), span: values.length });
    });
    if (rowTotals) out.push({ label: level === 0 ? 'Row totals' : '', span: values.length, total: true });
    return out;
  });
  if (values.length > 1 || colDims.length === 0) {
    const row: HeaderCell[] = [];
    for (let i = 0; i < Math.max(1, leaves.length); i++) for (const t of valueTitles) row.push({ label: t, span: 1 });
    if (rowTotals) for (const t of valueTitles) row.push({ label: t, span: 1, total: true });
    headerRows.push(row);
  }
  const cellCols: number[] = [];
  for (let i = 0; i < Math.max(1, leaves.length) + (rowTotals ? 1 : 0); i++) cellCols.push(...values);

  /** The cells of one row: its row values fixed, the row breakouts past `depth` rolled up. */
  const cellsFor = (rowPath: unknown[], depth: number): unknown[] => {
    const fixed = new Map<number, unknown>();
    rowPath.forEach((v, i) => fixed.set(rowDims[i], v));
    let rolled = 0;
    rowDims.forEach((d, i) => {
      if (i >= depth) rolled |= 1 << d;
    });
    const out: unknown[] = [];
    const leafList = colDims.length ? leaves : [[]];
    for (const leaf of leafList) {
      const f = new Map(fixed);
      leaf.forEach((v, i) => f.set(colDims[i], v));
      const row = lookup(rolled, f);
      for (const v of values) out.push(row ? row[v] : null);
    }
    if (rowTotals) {
      const colBits = colDims.reduce((m, d) => m | (1 << d), 0);
      const row = lookup(rolled | colBits, fixed);
      for (const v of values) out.push(row ? row[v] : null);
    }
    return out;
  };

  const showSubtotals = settings['pivot.show_column_totals'] !== false;
  const condense = settings['pivot.condense_duplicate_totals'] !== false;
  const subtotalsOff = (level: number): boolean => {
    const colSetting = (settings['column_settings'] ?? {}) as Record<string, { 'pivot_table.column_show_totals'?: boolean }>;
    const name = cols[rowDims[level]]?.name;
    return Object.entries(colSetting).some(([k, s]) => k.includes(`"${name}"`) && s['pivot_table.column_show_totals'] === false);
  };
  const isCollapsed = (path: unknown[], level: number) => collapsed.has(JSON.stringify(path)) || collapsed.has(String(level));

  const out: PivotRow[] = [];
  const rowTree = tree(rowDims);
  const headerFor = (path: unknown[], level: number, withToggle: boolean, isCollapsedNow: boolean): RowHeader => ({
    label: formatValue(path[level], cols[rowDims[level]], settings, { inTable: true }) || '(empty)',
    path: JSON.stringify(path.slice(0, level + 1)),
    collapsible: withToggle,
    collapsed: isCollapsedNow,
  });
  const walkRows = (node: Node, path: unknown[], depth: number) => {
    for (const child of node.children.values()) {
      const here = [...path, child.value];
      const row = (kind: PivotRow['kind'], collapsible: boolean, isCollapsedNow: boolean): PivotRow => {
        const r: PivotRow = { kind, headers: rowDims.map(() => null), level: depth, cells: cellsFor(here, depth + 1) };
        r.headers[depth] = headerFor(here, depth, collapsible, isCollapsedNow);
        return r;
      };
      if (depth === rowDims.length - 1) {
        out.push(row('detail', false, false));
      } else if (isCollapsed(here, depth)) {
        out.push(row('collapsed', true, true));
      } else {
        // The group's header shows on its first row only (the table draws it spanning the group).
        const start = out.length;
        walkRows(child, here, depth + 1);
        if (out[start]) out[start].headers[depth] = headerFor(here, depth, true, false);
        if (showSubtotals && !subtotalsOff(depth) && !(condense && child.children.size === 1)) {
          out.push({
            kind: 'subtotal',
            headers: rowDims.map(() => null),
            level: depth,
            totalLabel: `Totals for ${headerFor(here, depth, false, false).label}`,
            cells: cellsFor(here, depth + 1),
          });
        }
      }
    }
  };
  if (rowDims.length) walkRows(rowTree, [], 0);
  const grand = rowDims.length === 0 || (showSubtotals && rowTree.children.size > 1);
  if (grand)
    out.push({
      kind: 'grand',
      headers: rowDims.map(() => null),
      level: 0,
      totalLabel: rowDims.length ? 'Grand totals' : '',
      cells: cellsFor([], 0),
    });
  return { rowDims, colDims, values, rowTitles: rowDims.map((d) => columnTitle(cols[d], settings)), headerRows, rows: out, cellCols };
}
