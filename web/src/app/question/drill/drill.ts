import type { ResultColumn } from '../../api/dataset';
import { kindOf, type Column } from '../../notebook/columns';
import { clause, clauses, fresh, isClause, isMap, withOptions, type Clause, type Stage } from '../../notebook/mbql';
import type { Mbql5Query } from '../../notebook/types';

/**
 * Drill-through, as Metabase's click actions: what a click on a chart point or a table cell of a structured question
 * offers, each action the new ad-hoc MBQL 5 query it leads to. Pure: the menu (DrillMenu.tsx) only shows and runs them.
 */

/** What was clicked: the question's query (MBQL 5), the answer's columns, the row and the clicked column. */
export interface DrillClick {
  query: Mbql5Query;
  cols: ResultColumn[];
  row: unknown[];
  colIndex: number;
}

export interface DrillAction {
  /** Stable per kind: `filter:=`, `records`, `breakout:<column key>`, `zoom`, `xray`. */
  id: string;
  section: 'filter' | 'records' | 'breakout' | 'zoom' | 'xray';
  label: string;
  query: Mbql5Query;
  /** The display the new question opens with; undefined keeps the question's. */
  display?: string;
  /** An x-ray opens the automatic dashboard of `query` instead of a new question. */
  xray?: true;
}

/** A dimension of the clicked point: a breakout reference of the last stage and the value the row has there. */
interface Dimension {
  ref: Clause;
  value: unknown;
  col: ResultColumn;
}

const lastIndex = (q: Mbql5Query) => q.stages.length - 1;
const lastStage = (q: Mbql5Query): Stage => q.stages[lastIndex(q)] ?? {};

/** Whether the answer is summarized: its columns are the last stage's breakouts, then its aggregations. */
export const isAggregated = (q: Mbql5Query) => clauses(lastStage(q), 'aggregation').length > 0;

/**
 * The clicked point's dimensions: every breakout when the stage is summarized; else the clicked column by its ref (not
 * a primary key: its cell opens the row's detail, as in Metabase).
 */
function dimensions(c: DrillClick): Dimension[] {
  if (isAggregated(c.query)) {
    return clauses(lastStage(c.query), 'breakout').map((ref, i) => ({ ref, value: c.row[i], col: c.cols[i] }));
  }
  const col = c.cols[c.colIndex];
  const ref = col && col.semantic_type !== 'type/PK' ? toMbql5Ref(col.field_ref) : null;
  return col && ref ? [{ ref, value: c.row[c.colIndex], col }] : [];
}

/** A legacy result `field_ref` (`["field", 12, {...}]`, `["expression", "x"]`) as an MBQL 5 reference; null otherwise. */
export function toMbql5Ref(ref: unknown): Clause | null {
  if (!Array.isArray(ref) || (ref[0] !== 'field' && ref[0] !== 'expression')) return null;
  if (isClause(ref)) return fresh(ref);
  const opts = isMap(ref[2]) ? ref[2] : {};
  return clause(ref[0] as string, opts, ref[1]);
}

/** The last stage with `changes`; keys set to undefined are removed. */
function withLastStage(q: Mbql5Query, changes: Stage): Mbql5Query {
  const stage: Stage = { ...lastStage(q) };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete stage[k];
    else stage[k] = v;
  }
  const stages = [...q.stages];
  stages[lastIndex(q)] = stage;
  return { ...q, stages };
}

/** `ref = value` (`is-null` for an empty value): on a bucketed date the whole period, as the server reads it. */
export function valueFilter(ref: Clause, value: unknown, op: '=' | '!=' | '<' | '>' = '='): Clause {
  if (value === null || value === undefined) return clause(op === '!=' ? 'not-null' : 'is-null', {}, fresh(ref));
  return clause(op, {}, fresh(ref), value);
}

const addFilters = (q: Mbql5Query, filters: Clause[]) => withLastStage(q, { filters: [...clauses(lastStage(q), 'filters'), ...filters] });

const isDate = (d: Dimension) => kindOf(String(d.col?.effective_type ?? d.col?.base_type ?? '')) === 'date';
const isNumber = (d: Dimension) => kindOf(String(d.col?.effective_type ?? d.col?.base_type ?? '')) === 'number';

/** "Filter by this value": = and ≠, and < and > for numbers and dates (Before / After for dates). */
function filterActions(c: DrillClick, d: Dimension): DrillAction[] {
  const ops: Array<{ op: '=' | '!=' | '<' | '>'; label: string }> = [
    { op: '=', label: isDate(d) ? 'On this date' : 'Is this value (=)' },
    { op: '!=', label: isDate(d) ? 'Not on this date' : 'Is not this value (≠)' },
  ];
  if (d.value !== null && (isNumber(d) || isDate(d)))
    ops.push({ op: '<', label: isDate(d) ? 'Before' : 'Less than (<)' }, { op: '>', label: isDate(d) ? 'After' : 'Greater than (>)' });
  return ops.map(({ op, label }) => ({
    id: `filter:${op}`,
    section: 'filter' as const,
    label,
    query: addFilters(c.query, [valueFilter(d.ref, d.value, op)]),
  }));
}

/** "View these Orders": the last stage's source rows the point summarizes, with no summary, sort or limit. */
export function underlyingRecords(c: DrillClick): Mbql5Query {
  const dims = dimensions(c);
  const filters = [...clauses(lastStage(c.query), 'filters'), ...dims.map((d) => valueFilter(d.ref, d.value))];
  return withLastStage(c.query, {
    aggregation: undefined,
    breakout: undefined,
    'order-by': undefined,
    limit: undefined,
    fields: undefined,
    filters: filters.length ? filters : undefined,
  });
}

/** The finer unit a zoom goes to (Metabase's order, without weeks, which straddle months). */
const FINER: Record<string, string> = { year: 'quarter', quarter: 'month', month: 'day', day: 'hour', hour: 'minute' };

/** "Zoom in": the point's period only, broken out by the next finer unit. Null when there is none. */
export function zoomIn(c: DrillClick): Mbql5Query | null {
  const dims = dimensions(c);
  const at = dims.findIndex((d) => isDate(d) && typeof d.ref[1]['temporal-unit'] === 'string');
  if (!isAggregated(c.query) || at < 0) return null;
  const d = dims[at];
  const unit = String(d.ref[1]['temporal-unit']);
  const finer = FINER[unit];
  const dateOnly = /type\/Date$/.test(String(d.col?.effective_type ?? d.col?.base_type ?? ''));
  if (!finer || (dateOnly && (finer === 'hour' || finer === 'minute')) || d.value === null) return null;
  const breakout = clauses(lastStage(c.query), 'breakout').map((b, i) =>
    i === at ? withOptions(fresh(b), { 'temporal-unit': finer }) : b,
  );
  return withLastStage(addFilters(c.query, [valueFilter(d.ref, d.value)]), { breakout });
}

/** Columns worth breaking out by: categories, dates (by month) and locations; not numbers, keys or long text. */
export function breakoutCandidates(columns: Column[]): Column[] {
  const wanted = (c: Column) => {
    const kind = kindOf(c.baseType);
    const sem = c.semanticType ?? '';
    if (/PK|FK|Description|Comment|Name|Title|URL|Email|ImageURL/.test(sem)) return /Category|City|State|Country|ZipCode/.test(sem);
    return (
      kind === 'date' || kind === 'boolean' || (kind === 'text' && (sem === '' || /Category|City|State|Country|ZipCode|Source/.test(sem)))
    );
  };
  return columns.filter(wanted);
}

/** "Break out by <column>": the point's rows, summarized the same way by another column (dates by month). */
export function breakOut(c: DrillClick, column: Column): Mbql5Query {
  const dims = dimensions(c);
  const ref = kindOf(column.baseType) === 'date' ? withOptions(fresh(column.ref), { 'temporal-unit': 'month' }) : fresh(column.ref);
  return withLastStage(
    addFilters(
      c.query,
      dims.map((d) => valueFilter(d.ref, d.value)),
    ),
    { breakout: [ref], 'order-by': undefined },
  );
}

/**
 * Every action a click offers: filters on the clicked dimension, the underlying records and their x-ray, zoom in, and
 * a break out by each candidate column (`columns`: the source's, from its metadata) not already a breakout.
 */
export function drillActions(c: DrillClick, columns: Column[], tableName: string): DrillAction[] {
  const dims = dimensions(c);
  if (!dims.length) return [];
  const aggregated = isAggregated(c.query);
  // A table cell of a breakout column filters on that column; a metric (a bar, a point) on the x axis' dimension.
  const clicked = aggregated && c.colIndex < dims.length ? dims[c.colIndex] : dims[0];
  const out: DrillAction[] = [...filterActions(c, clicked)];
  if (!aggregated) return out;
  const records = underlyingRecords(c);
  out.push({ id: 'records', section: 'records', label: `View these ${tableName}`, query: records, display: 'table' });
  // Metabase's "Automatic insights": the automatic dashboard of the point's rows.
  out.push({ id: 'xray', section: 'xray', label: `X-ray these ${tableName}`, query: records, xray: true });
  const zoom = zoomIn(c);
  if (zoom) out.push({ id: 'zoom', section: 'zoom', label: 'Zoom in', query: zoom });
  const used = new Set(dims.map((d) => `${d.ref[0]}:${String(d.ref[2])}`));
  for (const col of breakoutCandidates(columns)) {
    if (used.has(`${col.ref[0]}:${String(col.ref[2])}`) && !col.ref[1]['source-field']) continue;
    const kind = kindOf(col.baseType);
    out.push({
      id: `breakout:${col.key}`,
      section: 'breakout',
      label: kind === 'date' ? `${col.displayName}: Month` : col.displayName,
      query: breakOut(c, col),
      display: kind === 'date' ? 'line' : 'bar',
    });
  }
  return out;
}
