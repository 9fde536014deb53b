import { clause, isClause, type Clause } from './mbql';

/**
 * Custom column expressions as the analyst types them (Metabase's syntax: `[Total] * 2`, `concat([A], " ", [B])`,
 * `case([Total] > 100, "big", "small")`) to MBQL 5 clauses and back. The parser knows the syntax only: how many
 * arguments a function takes and what the engine runs is the API's to say (POST /api/dataset answers 400 with the
 * message, shown at the expression).
 */

/** The functions offered, as typed (Metabase's names) and as MBQL names them. */
export const FUNCTIONS: Record<string, string> = {
  abs: 'abs',
  ceil: 'ceil',
  floor: 'floor',
  round: 'round',
  sqrt: 'sqrt',
  power: 'power',
  exp: 'exp',
  log: 'log',
  concat: 'concat',
  substring: 'substring',
  length: 'length',
  lower: 'lower',
  upper: 'upper',
  trim: 'trim',
  ltrim: 'ltrim',
  rtrim: 'rtrim',
  replace: 'replace',
  regexextract: 'regex-match-first',
  coalesce: 'coalesce',
  case: 'case',
  if: 'if',
  contains: 'contains',
  doesnotcontain: 'does-not-contain',
  startswith: 'starts-with',
  endswith: 'ends-with',
  isnull: 'is-null',
  notnull: 'not-null',
  isempty: 'is-empty',
  notempty: 'not-empty',
  between: 'between',
  year: 'get-year',
  quarter: 'get-quarter',
  month: 'get-month',
  week: 'get-week',
  day: 'get-day',
  weekday: 'get-day-of-week',
  hour: 'get-hour',
  minute: 'get-minute',
  second: 'get-second',
  datetimeadd: 'datetime-add',
  datetimesubtract: 'datetime-subtract',
  datetimediff: 'datetime-diff',
  now: 'now',
};

/** How each function is shown and completed (Metabase's camelCase spelling). */
export const FUNCTION_NAMES = [
  'abs',
  'ceil',
  'floor',
  'round',
  'sqrt',
  'power',
  'exp',
  'log',
  'concat',
  'substring',
  'length',
  'lower',
  'upper',
  'trim',
  'ltrim',
  'rtrim',
  'replace',
  'regexExtract',
  'coalesce',
  'case',
  'if',
  'contains',
  'doesNotContain',
  'startsWith',
  'endsWith',
  'isNull',
  'notNull',
  'isEmpty',
  'notEmpty',
  'between',
  'year',
  'quarter',
  'month',
  'week',
  'day',
  'weekday',
  'hour',
  'minute',
  'second',
  'datetimeAdd',
  'datetimeSubtract',
  'datetimeDiff',
  'now',
];

/** Aggregation functions, allowed in a custom metric of the Summarize step (Metabase's names, lower-cased). */
export const AGGREGATION_FUNCTIONS: Record<string, string> = {
  count: 'count',
  sum: 'sum',
  average: 'avg',
  distinct: 'distinct',
  min: 'min',
  max: 'max',
  median: 'median',
  standarddeviation: 'stddev',
  variance: 'var',
  cumulativesum: 'cum-sum',
  cumulativecount: 'cum-count',
  countif: 'count-where',
  sumif: 'sum-where',
  share: 'share',
};
export const AGGREGATION_NAMES = [
  'Count',
  'Sum',
  'Average',
  'Distinct',
  'Min',
  'Max',
  'Median',
  'StandardDeviation',
  'Variance',
  'CumulativeSum',
  'CumulativeCount',
  'CountIf',
  'SumIf',
  'Share',
];

const BINARY: Array<[string[], 'left']> = [
  [['or'], 'left'],
  [['and'], 'left'],
  [['=', '!=', '<', '>', '<=', '>='], 'left'],
  [['+', '-'], 'left'],
  [['*', '/'], 'left'],
];

export class ExpressionError extends Error {
  constructor(
    message: string,
    /** Where in the text (0-based), for the message. */
    readonly at: number,
  ) {
    super(message);
  }
}

type Token =
  | { kind: 'number'; value: number; at: number }
  | { kind: 'string'; value: string; at: number }
  | { kind: 'column'; value: string; at: number }
  | { kind: 'name'; value: string; at: number }
  | { kind: 'op'; value: string; at: number };

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (/\s/.test(ch)) {
      i++;
    } else if (/[0-9.]/.test(ch)) {
      const m = /^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?/i.exec(text.slice(i));
      if (!m) throw new ExpressionError(`Unexpected "${ch}"`, i);
      out.push({ kind: 'number', value: Number(m[0]), at: i });
      i += m[0].length;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== ch) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        value += text[j];
        j++;
      }
      if (j >= text.length) throw new ExpressionError('Missing closing quotation mark', i);
      out.push({ kind: 'string', value, at: i });
      i = j + 1;
    } else if (ch === '[') {
      const end = text.indexOf(']', i);
      if (end < 0) throw new ExpressionError('Missing a closing bracket', i);
      out.push({ kind: 'column', value: text.slice(i + 1, end).trim(), at: i });
      i = end + 1;
    } else if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))!;
      out.push({ kind: 'name', value: m[0], at: i });
      i += m[0].length;
    } else {
      const two = text.slice(i, i + 2);
      const op = ['!=', '<=', '>='].includes(two) ? two : '+-*/(),=<>'.includes(ch) ? ch : null;
      if (!op) throw new ExpressionError(`Unexpected "${ch}"`, i);
      out.push({ kind: 'op', value: op, at: i });
      i += op.length;
    }
  }
  return out;
}

/** A column named in brackets as its MBQL 5 reference; null when no column has that name. */
export type ResolveColumn = (name: string) => Clause | null;

/**
 * The expression as an MBQL 5 clause (or a literal, which the caller wraps in `value`). `aggregations`: a custom
 * metric, where `Sum([Total]) / Count` may use the aggregation functions too.
 */
export function parseExpression(text: string, resolve: ResolveColumn, opts: { aggregations?: boolean } = {}): unknown {
  const tokens = tokenize(text);
  if (!tokens.length) throw new ExpressionError('Write an expression', 0);
  let pos = 0;
  const peek = () => tokens[pos];
  const isOp = (v: string) => peek()?.kind === 'op' && peek()!.value === v;
  const isWord = (v: string) => peek()?.kind === 'name' && String(peek()!.value).toLowerCase() === v;
  const expect = (v: string) => {
    if (!isOp(v)) throw new ExpressionError(`Expected "${v}"`, peek()?.at ?? text.length);
    pos++;
  };

  const binary = (level: number): unknown => {
    if (level >= BINARY.length) return unary();
    const [ops] = BINARY[level];
    let left = binary(level + 1);
    for (;;) {
      const t = peek();
      const op = t && ((t.kind === 'op' && ops.includes(t.value)) || (t.kind === 'name' && ops.includes(t.value.toLowerCase())));
      if (!op) return left;
      pos++;
      const name = t.value.toLowerCase();
      const right = binary(level + 1);
      // `a + b + c` is one clause with three arguments, as Metabase writes it.
      if (['+', '*', 'and', 'or'].includes(name) && isClause(left) && left[0] === name) left = [...left, right];
      else left = clause(name, {}, left, right);
    }
  };

  const unary = (): unknown => {
    if (isOp('-')) {
      pos++;
      const arg = unary();
      return typeof arg === 'number' ? -arg : clause('-', {}, 0, arg);
    }
    if (isWord('not')) {
      pos++;
      return clause('not', {}, unary());
    }
    return primary();
  };

  const primary = (): unknown => {
    const t = peek();
    if (!t) throw new ExpressionError('Expected a value', text.length);
    pos++;
    if (t.kind === 'number' || t.kind === 'string') return t.value;
    if (t.kind === 'column') {
      const ref = resolve(t.value);
      if (!ref) throw new ExpressionError(`Unknown column: ${t.value}`, t.at);
      return ref;
    }
    if (t.kind === 'op' && t.value === '(') {
      const inner = binary(0);
      expect(')');
      return inner;
    }
    if (t.kind === 'name') {
      const lower = t.value.toLowerCase();
      if (lower === 'true' || lower === 'false') return lower === 'true';
      const fn = FUNCTIONS[lower] ?? (opts.aggregations ? AGGREGATION_FUNCTIONS[lower] : undefined);
      if (!fn) throw new ExpressionError(`Unknown function ${t.value}`, t.at);
      const args: unknown[] = [];
      if (isOp('(')) {
        pos++;
        if (!isOp(')')) {
          args.push(binary(0));
          while (isOp(',')) {
            pos++;
            args.push(binary(0));
          }
        }
        expect(')');
      } else if (fn !== 'now' && fn !== 'count' && fn !== 'cum-count') {
        throw new ExpressionError(`Expected "(" after ${t.value}`, peek()?.at ?? text.length);
      }
      return call(fn, args, t.at);
    }
    throw new ExpressionError(`Unexpected "${t.value}"`, t.at);
  };

  const result = binary(0);
  if (pos < tokens.length) throw new ExpressionError(`Unexpected "${String(tokens[pos].value)}"`, tokens[pos].at);
  return result;
}

/** A function call: `case`/`if` pair their arguments as MBQL does (`[[cond, value], ...], default?`). */
function call(fn: string, args: unknown[], at: number): Clause {
  if (fn === 'case' || fn === 'if') {
    if (args.length < 2) throw new ExpressionError(`${fn} needs a condition and a value`, at);
    const pairs: unknown[][] = [];
    for (let i = 0; i + 1 < args.length; i += 2) pairs.push([args[i], args[i + 1]]);
    return args.length % 2 === 1 ? clause(fn, {}, pairs, args[args.length - 1]) : clause(fn, {}, pairs);
  }
  return clause(fn, {}, ...args);
}

/** A column reference's name as the analyst writes it in brackets; null when the notebook does not know it. */
export type ColumnName = (ref: Clause) => string | null;

const PRECEDENCE: Record<string, number> = {
  or: 0,
  and: 1,
  '=': 2,
  '!=': 2,
  '<': 2,
  '>': 2,
  '<=': 2,
  '>=': 2,
  '+': 3,
  '-': 3,
  '*': 4,
  '/': 4,
};
const TYPED = Object.fromEntries([
  ...FUNCTION_NAMES.map((n) => [FUNCTIONS[n.toLowerCase()], n]),
  ...AGGREGATION_NAMES.map((n) => [AGGREGATION_FUNCTIONS[n.toLowerCase()], n]),
]);

/** A clause back as text, to edit a saved custom column. */
export function formatExpression(c: unknown, name: ColumnName, parent = -1): string {
  if (typeof c === 'string') return JSON.stringify(c);
  if (typeof c === 'number' || typeof c === 'boolean') return String(c);
  if (c === null || c === undefined) return 'null';
  if (!isClause(c)) return JSON.stringify(c);
  const [op, , ...args] = c;
  if (op === 'field' || op === 'expression') return `[${name(c) ?? String(args[0])}]`;
  if (op === 'value') return formatExpression(args[0], name, parent);
  const level = PRECEDENCE[op];
  if (level !== undefined && args.length >= 2) {
    const sep = op === 'and' || op === 'or' ? ` ${op} ` : ` ${op} `;
    const text = args.map((a, i) => formatExpression(a, name, i === 0 ? level : level + 0.5)).join(sep);
    return level < parent ? `(${text})` : text;
  }
  if (op === 'not') return `not ${formatExpression(args[0], name, 5)}`;
  if (op === 'case' || op === 'if') {
    const pairs = (Array.isArray(args[0]) ? args[0] : []) as unknown[][];
    const parts = pairs.flatMap(([k, v]) => [formatExpression(k, name), formatExpression(v, name)]);
    if (args.length > 1) parts.push(formatExpression(args[1], name));
    return `${op}(${parts.join(', ')})`;
  }
  return `${TYPED[op] ?? op}(${args.map((a) => formatExpression(a, name)).join(', ')})`;
}

/** The word being typed at `cursor`, for completion: a column after an open `[`, or a function name. */
export function wordAt(text: string, cursor: number): { kind: 'column' | 'function'; start: number; prefix: string } | null {
  const before = text.slice(0, cursor);
  const open = before.lastIndexOf('[');
  if (open >= 0 && before.indexOf(']', open) < 0) return { kind: 'column', start: open, prefix: before.slice(open + 1) };
  const m = /[A-Za-z_][A-Za-z0-9_]*$/.exec(before);
  if (!m) return null;
  // Inside a string literal nothing is completed.
  const quotes = (before.match(/"/g) ?? []).length;
  if (quotes % 2 === 1) return null;
  return { kind: 'function', start: cursor - m[0].length, prefix: m[0] };
}
