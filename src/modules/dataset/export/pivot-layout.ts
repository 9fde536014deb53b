import type { CompiledColumn } from '../../../query-engine/compile/contract';
import { columnTitles } from './column-titles';

/**
 * The pivot table as Metabase shows it and exports it with `pivot_results=true` (its `metabase.pivot.core`, shared
 * by the app and the exports), built from what POST /api/dataset/pivot answers: the breakout columns,
 * `pivot-grouping` (bit i set = breakout i collapsed into a subtotal), then the aggregations.
 *
 * - Row-header columns first (one per row breakout), then one column per leaf of the column breakouts' values ×
 *   value column; a "Row totals" group last when the outermost column breakout has more than one value.
 * - Rows in the order of the detail rows (or `pivot_table.column_sort_order` of the column's settings), a
 *   "Totals for <value>" row after each group of every row breakout but the innermost, and a "Grand totals" last
 *   row when the outermost row breakout has more than one value.
 * - Every cell is the query's own answer for its grouping (detail row or subtotal row), never a sum made here: an
 *   average or a distinct count does not add up, and Metabase's table shows the query's subtotals too. A cell the
 *   query did not answer is null.
 * - `pivot.show_row_totals` / `pivot.show_column_totals` false drop the totals column group / the subtotal and grand
 *   totals rows; `pivot_table.column_show_totals` false on a row breakout drops its subtotals;
 *   `pivot.condense_duplicate_totals` true skips the subtotal of a group with a single member.
 *   Not followed: `pivot_table.collapsed_rows` (a state of the app's table, not of the data).
 * Pure, no I/O.
 */

type Column = Pick<CompiledColumn, 'name' | 'display_name' | 'field_ref'> & { source?: string };

export interface PivotLayout {
  /** One title per output column: the row breakouts' titles, then the column headers' levels joined by " / ". */
  titles: string[];
  /** The same headers on several rows, as Metabase's file has them: one row per column breakout (and one for the values). */
  headerRows: (string | null)[][];
  rows: unknown[][];
  /** For each output column, the index in `cols` of the column whose values it holds (to type and format its cells). */
  sources: number[];
}

export interface PivotLayoutOptions {
  /** How a breakout value reads in a column header and in "Totals for …" (`cols` index); default: as text, null "(empty)". */
  label?: (value: unknown, col: number) => string;
  /** The split by breakout index when the settings have none (the query's pivot_rows/pivot_cols); default: all rows. */
  pivotRows?: number[];
  pivotCols?: number[];
}

export const PIVOT_GROUPING = 'pivot-grouping';
export const ROW_TOTALS = 'Row totals';
export const GRAND_TOTALS = 'Grand totals';
const EMPTY = '(empty)';

export function totalsFor(label: string): string {
  return `Totals for ${label}`;
}

export function layoutPivot(
  cols: readonly Column[],
  rows: readonly unknown[][],
  vizSettings: Record<string, unknown> = {},
  options: PivotLayoutOptions = {},
): PivotLayout {
  const groupingAt = cols.findIndex((c) => c.name === PIVOT_GROUPING);
  // Positions in the columns without pivot-grouping (as the split and Metabase count them) -> positions in `cols`.
  const kept = cols.map((_, i) => i).filter((i) => i !== groupingAt);
  const columns = kept.map((i) => cols[i]);
  const numBreakouts = groupingAt >= 0 ? groupingAt : columns.filter((c) => c.source === 'breakout').length;
  const split = resolveSplit(columns, numBreakouts, vizSettings['pivot_table.column_split'], options);
  const label = (v: unknown, at: number) =>
    options.label ? options.label(v, kept[at]) : v === null || v === undefined ? EMPTY : String(v);
  const titleOf = columnTitles(columns, vizSettings);
  const settingOf = columnSettings(columns, vizSettings);

  // Every row by its grouping and the values of its active breakouts.
  const cells = new Map<string, unknown[]>();
  const detail: unknown[][] = [];
  for (const raw of rows) {
    const mask = groupingAt >= 0 ? Number(raw[groupingAt]) : 0;
    const row = groupingAt >= 0 ? raw.filter((_, i) => i !== groupingAt) : [...raw];
    if (mask === 0) detail.push(row);
    const active = range(numBreakouts).filter((b) => (mask & (1 << b)) === 0);
    cells.set(
      cellKey(
        mask,
        active.map((b) => row[b]),
      ),
      split.values.map((v) => row[v] ?? null),
    );
  }
  const all = (1 << numBreakouts) - 1;
  // A breakout in neither rows nor columns makes the detail rows finer than the table's cells: as Metabase, a cell
  // of the detail level then holds the last detail row with its row and column values.
  const shown = [...split.rows, ...split.cols].sort((a, b) => a - b);
  const finer = new Map<string, unknown[]>();
  if (shown.length < numBreakouts) {
    for (const row of detail)
      finer.set(
        cellKey(
          0,
          shown.map((b) => row[b]),
        ),
        split.values.map((v) => row[v] ?? null),
      );
  }
  const lookup = (activeIdx: number[], values: unknown[]): unknown[] | undefined => {
    const order = activeIdx.map((b, i) => [b, values[i]] as const).sort((a, b) => a[0] - b[0]);
    const mask = order.reduce((m, [b]) => m & ~(1 << b), all);
    const key = order.map(([, v]) => v);
    return cells.get(cellKey(mask, key)) ?? (order.length === shown.length ? finer.get(cellKey(0, key)) : undefined);
  };

  const sortOrders = (idx: number[]) => idx.map((i) => settingOf[i]?.['pivot_table.column_sort_order']);
  const rowTree = sortTree(buildTree(detail, split.rows), sortOrders(split.rows));
  const colTree = sortTree(buildTree(detail, split.cols), sortOrders(split.cols));
  const showColumnTotals = vizSettings['pivot.show_column_totals'] !== false;
  const showRowTotals = vizSettings['pivot.show_row_totals'] !== false;
  const condense = vizSettings['pivot.condense_duplicate_totals'] === true;
  const subtotalsOn = split.rows.map((i) => showColumnTotals && settingOf[i]?.['pivot_table.column_show_totals'] !== false);

  // Rows of the table: each a path of row-breakout values, a subtotal (a shorter path) or the grand total (empty path).
  type RowPath = { path: unknown[]; kind: 'detail' | 'subtotal' | 'grand' };
  const rowPaths: RowPath[] = [];
  const walkRows = (nodes: TreeNode[], path: unknown[]) => {
    for (const node of nodes) {
      const here = [...path, node.value];
      if (node.children.length === 0) {
        rowPaths.push({ path: here, kind: 'detail' });
        continue;
      }
      walkRows(node.children, here);
      if (subtotalsOn[path.length] && (!condense || node.children.length > 1)) rowPaths.push({ path: here, kind: 'subtotal' });
    }
  };
  walkRows(rowTree, []);
  if (split.rows.length === 0 && detail.length > 0) rowPaths.push({ path: [], kind: 'detail' });
  if (showColumnTotals && rowTree.length > 1) rowPaths.push({ path: [], kind: 'grand' });

  // Columns of the table: each a path of column-breakout values, or the row totals (empty path).
  const colPaths: { path: unknown[]; totals: boolean }[] = [];
  const walkCols = (nodes: TreeNode[], path: unknown[]) => {
    for (const node of nodes) {
      if (node.children.length === 0) colPaths.push({ path: [...path, node.value], totals: false });
      else walkCols(node.children, [...path, node.value]);
    }
  };
  walkCols(colTree, []);
  if (colPaths.length === 0) colPaths.push({ path: [], totals: false });
  else if (showRowTotals && colTree.length > 1) colPaths.push({ path: [], totals: true });

  // Headers: one level per column breakout, and one for the value titles when there are several or no column breakouts.
  const colLevels = colTree.length > 0 ? split.cols.length : 0;
  const valueLevel = split.values.length > 1 || colLevels === 0;
  const levels = colLevels + (valueLevel ? 1 : 0);
  const headerRows: (string | null)[][] = range(levels).map((level) => split.rows.map((r) => (level === levels - 1 ? titleOf[r] : null)));
  const sources = split.rows.map((r) => kept[r]);
  for (const col of colPaths) {
    for (const v of split.values) {
      for (let level = 0; level < levels; level++) {
        let text: string | null = null;
        if (valueLevel && level === levels - 1) text = titleOf[v];
        else if (col.totals) text = level === 0 ? ROW_TOTALS : null;
        else text = label(col.path[level], split.cols[level]);
        headerRows[level].push(text);
      }
      sources.push(kept[v]);
    }
  }
  const titles = range(sources.length).map((c) =>
    headerRows
      .map((h) => h[c])
      .filter((t): t is string => t !== null)
      .join(' / '),
  );

  const out = rowPaths.map(({ path, kind }) => {
    const head: unknown[] = split.rows.map((_, depth) => (depth < path.length ? path[depth] : null));
    if (kind === 'subtotal') {
      const depth = path.length - 1;
      head[depth] = totalsFor(label(path[depth], split.rows[depth]));
    } else if (kind === 'grand' && head.length > 0) {
      head[0] = GRAND_TOTALS;
    }
    const rowIdx = split.rows.slice(0, path.length);
    for (const col of colPaths) {
      const found = lookup([...rowIdx, ...split.cols.slice(0, col.path.length)], [...path, ...col.path]);
      for (let i = 0; i < split.values.length; i++) head.push(found?.[i] ?? null);
    }
    return head;
  });
  return { titles, headerRows, rows: out, sources };
}

interface Split {
  rows: number[];
  cols: number[];
  values: number[];
}

/**
 * `pivot_table.column_split` against the columns (pivot-grouping left out): entries are column names or refs (field
 * refs matched whatever their options, but not across joins; `["aggregation", i]` is the i-th aggregation). Rows and
 * columns must be breakouts, values must not. Without a split: the options' indexes, else every breakout a row; values
 * default to every non-breakout column.
 */
function resolveSplit(columns: readonly Column[], numBreakouts: number, raw: unknown, options: PivotLayoutOptions): Split {
  const isBreakout = (i: number) => i >= 0 && i < numBreakouts;
  const setting = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const find = (entry: unknown) => indexOfColumn(columns, numBreakouts, entry);
  const list = (v: unknown, keep: (i: number) => boolean) => (Array.isArray(v) ? unique(v.map(find).filter((i) => i >= 0 && keep(i))) : []);
  let rows = list(setting.rows, isBreakout);
  let cols = list(setting.columns, isBreakout).filter((i) => !rows.includes(i));
  if (rows.length === 0 && cols.length === 0) {
    const valid = (v: number[] | undefined) => unique((v ?? []).filter((i) => Number.isInteger(i) && isBreakout(i)));
    rows = valid(options.pivotRows);
    cols = valid(options.pivotCols).filter((i) => !rows.includes(i));
    if (rows.length === 0 && cols.length === 0) rows = range(numBreakouts);
  }
  let values = list(setting.values, (i) => i >= numBreakouts);
  if (values.length === 0) values = range(columns.length).filter((i) => i >= numBreakouts);
  return { rows, cols, values };
}

function indexOfColumn(columns: readonly Column[], numBreakouts: number, entry: unknown): number {
  if (typeof entry === 'string') return columns.findIndex((c) => c.name === entry);
  if (!Array.isArray(entry)) return -1;
  if (entry[0] === 'aggregation' && typeof entry[1] === 'number') {
    const aggregations = range(columns.length).filter((i) => i >= numBreakouts && columns[i].source !== 'breakout');
    return aggregations[entry[1]] ?? -1;
  }
  const text = JSON.stringify(entry);
  const exact = columns.findIndex((c) => JSON.stringify(c.field_ref) === text);
  if (exact >= 0) return exact;
  return columns.findIndex(
    (c) =>
      entry[0] === 'field' &&
      c.field_ref?.[0] === 'field' &&
      c.field_ref[1] === entry[1] &&
      joinAlias(c.field_ref[2]) === joinAlias(entry[2]),
  );
}

function joinAlias(options: unknown): unknown {
  return options && typeof options === 'object' ? ((options as Record<string, unknown>)['join-alias'] ?? null) : null;
}

/** `column_settings` of each column, by its `["name", …]` or `["ref", …]` key (JSON text, as Metabase stores them). */
function columnSettings(columns: readonly Column[], vizSettings: Record<string, unknown>): (Record<string, unknown> | undefined)[] {
  const settings = vizSettings.column_settings;
  if (!settings || typeof settings !== 'object' || Array.isArray(settings)) return columns.map(() => undefined);
  const byKey = settings as Record<string, Record<string, unknown>>;
  return columns.map((c) => byKey[JSON.stringify(['name', c.name])] ?? byKey[JSON.stringify(['ref', c.field_ref])]);
}

interface TreeNode {
  value: unknown;
  children: TreeNode[];
}

/** The distinct paths of values at `idx` in the rows, as a tree in order of first appearance. */
function buildTree(rows: readonly unknown[][], idx: readonly number[]): TreeNode[] {
  const root: TreeNode = { value: null, children: [] };
  const index = new Map<TreeNode, Map<string, TreeNode>>();
  for (const row of rows) {
    let node = root;
    for (const i of idx) {
      let kids = index.get(node);
      if (!kids) index.set(node, (kids = new Map()));
      const k = valueKey(row[i]);
      let next = kids.get(k);
      if (!next) {
        next = { value: row[i] ?? null, children: [] };
        kids.set(k, next);
        node.children.push(next);
      }
      node = next;
    }
  }
  return root.children;
}

/** Each level sorted as its column's `pivot_table.column_sort_order` says (`ascending`/`descending`), else kept in order. */
function sortTree(nodes: TreeNode[], orders: readonly unknown[]): TreeNode[] {
  const [order, ...rest] = orders;
  const sorted =
    order === 'ascending' || order === 'descending'
      ? [...nodes].sort((a, b) => compare(a.value, b.value) * (order === 'ascending' ? 1 : -1))
      : nodes;
  return sorted.map((n) => ({ value: n.value, children: sortTree(n.children, rest) }));
}

const collator = new Intl.Collator('en');

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'string' || typeof b === 'string') return collator.compare(String(a), String(b));
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

function valueKey(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Date) return `d${v.toISOString()}`;
  return JSON.stringify(v) ?? String(v);
}

function cellKey(mask: number, values: readonly unknown[]): string {
  return `${mask}|${values.map(valueKey).join('\u0001')}`;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

function unique(xs: number[]): number[] {
  return [...new Set(xs)];
}
