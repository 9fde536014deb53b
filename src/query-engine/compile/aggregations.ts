import type { CompiledColumn } from './contract';
import { QueryCompileError } from './contract';
import type { ClauseContext } from './clause-context';
import { isObject, type Typed } from './types';
import { AGGREGATION_NAMES, aggregationDisplayName } from './names';
import { literalNumber, short } from './params';

const ARITHMETIC = new Set(['+', '-', '*', '/']);

/**
 * Aggregations of one query level, with Metabase's names and display names: the aggregation functions, `offset`
 * (the value of an aggregation expression in an earlier or later row) and arithmetic over them.
 */
export class AggregationCompiler {
  constructor(private readonly cx: ClauseContext) {}

  /**
   * `clause`: an aggregation clause as validate.ts checks them (its arguments counted). `over`: the window of
   * `offset` (Level.offsetWindow, null for a single row), asked only when the clause has one.
   */
  aggregation(clause: unknown, index: number, breakoutSql: string[], over: () => string | null): { sql: string; col: CompiledColumn } {
    const ag = clause as unknown[];
    if (ag[0] === 'offset' || ARITHMETIC.has(ag[0] as string)) {
      const x = this.aggregationExpr(ag, index, breakoutSql, over);
      return {
        sql: x.sql,
        col: {
          name: ag[0] === 'offset' ? 'offset' : 'expression',
          display_name: x.display,
          source: 'aggregation',
          base_type: x.type ?? 'type/Float',
          effective_type: x.type ?? 'type/Float',
          semantic_type: null,
          field_ref: ['aggregation', index],
          aggregation_index: index,
        },
      };
    }
    if (ag[0] === 'aggregation-options') {
      const inner = this.aggregation(ag[1], index, breakoutSql, over);
      const o = isObject(ag[2]) ? ag[2] : {};
      return {
        sql: inner.sql,
        col: {
          ...inner.col,
          ...(typeof o.name === 'string' && o.name ? { name: o.name } : {}),
          ...(typeof o['display-name'] === 'string'
            ? { display_name: o['display-name'] }
            : typeof o.name === 'string' && o.name
              ? { display_name: o.name }
              : {}),
          field_ref: ['aggregation', index],
        },
      };
    }
    const [op, ...args] = ag as [string, ...unknown[]];
    if (op === 'metric')
      throw new QueryCompileError(`Metric ${short(args[0])} should have been expanded before compiling in "aggregation".`, 'aggregation');
    const name = AGGREGATION_NAMES[op];
    if (!name) throw new QueryCompileError(`Unknown aggregation ${JSON.stringify(op)} in "aggregation".`, 'aggregation');
    const arg = (i: number): Typed & { display: string } => {
      const x = args[i];
      if (Array.isArray(x) && (x[0] === 'field' || x[0] === 'expression')) {
        const r = this.cx.resolveRef(x);
        return { sql: r.sql, type: r.type, display: r.col.display_name };
      }
      const t = this.cx.expr(x);
      return { ...t, display: this.describe(x) };
    };
    let sql: string;
    let type = 'type/Float';
    let display = '';
    const window = (inner: string) => {
      if (!breakoutSql.length) return inner;
      const partition = breakoutSql.slice(0, -1);
      const partitionBy = partition.length ? `PARTITION BY ${partition.join(', ')} ` : '';
      return `SUM(${inner}) OVER (${partitionBy}ORDER BY ${breakoutSql[breakoutSql.length - 1]} ROWS UNBOUNDED PRECEDING)`;
    };
    switch (op) {
      case 'count':
      case 'cum-count': {
        const a = args.length && args[0] !== null ? arg(0) : null;
        const inner = a ? `COUNT(${a.sql})` : 'COUNT(*)';
        sql = op === 'count' ? inner : window(inner);
        type = 'type/BigInteger';
        display = a?.display ?? '';
        break;
      }
      case 'sum':
      case 'cum-sum': {
        const a = arg(0);
        sql = op === 'sum' ? `SUM(${a.sql})` : window(`SUM(${a.sql})`);
        type = a.type ?? 'type/Float';
        display = a.display;
        break;
      }
      case 'avg': {
        const a = arg(0);
        sql = this.cx.d.avg(a.sql);
        display = a.display;
        break;
      }
      case 'distinct': {
        const a = arg(0);
        sql = `COUNT(DISTINCT ${a.sql})`;
        type = 'type/BigInteger';
        display = a.display;
        break;
      }
      case 'min':
      case 'max': {
        const a = arg(0);
        sql = `${op.toUpperCase()}(${a.sql})`;
        type = a.type ?? 'type/*';
        display = a.display;
        break;
      }
      case 'stddev':
      case 'var': {
        const a = arg(0);
        sql = op === 'stddev' ? this.cx.d.stddev(a.sql) : this.cx.d.variance(a.sql);
        display = a.display;
        break;
      }
      case 'median': {
        const a = arg(0);
        sql = this.cx.d.median(a.sql);
        display = a.display;
        break;
      }
      case 'percentile': {
        const a = arg(0);
        const p = args[1];
        if (typeof p !== 'number' || !(p >= 0 && p <= 1))
          throw new QueryCompileError('percentile needs a number from 0 to 1 in "aggregation".', 'aggregation');
        sql = this.cx.d.percentile(a.sql, Number(literalNumber(p, 'The percentile', 'aggregation')));
        display = a.display;
        break;
      }
      case 'share':
        sql = `(${this.cx.d.floatCast(`SUM(CASE WHEN ${this.cx.filter(args[0])} THEN 1 ELSE 0 END)`)} / NULLIF(COUNT(*), 0))`;
        break;
      case 'count-where':
        sql = `SUM(CASE WHEN ${this.cx.filter(args[0])} THEN 1 ELSE 0 END)`;
        type = 'type/BigInteger';
        break;
      case 'sum-where': {
        const a = arg(0);
        sql = `SUM(CASE WHEN ${this.cx.filter(args[1])} THEN ${a.sql} ELSE NULL END)`;
        type = a.type ?? 'type/Float';
        display = a.display;
        break;
      }
      default:
        throw new QueryCompileError(`Unknown aggregation ${JSON.stringify(op)} in "aggregation".`, 'aggregation');
    }
    return {
      sql,
      col: {
        name,
        display_name: aggregationDisplayName(op, display),
        source: 'aggregation',
        base_type: type,
        effective_type: type,
        semantic_type: op === 'count' || op === 'distinct' || op === 'cum-count' ? 'type/Quantity' : null,
        field_ref: ['aggregation', index],
        aggregation_index: index,
      },
    };
  }

  /**
   * An expression over aggregations: aggregations, numbers, arithmetic, and `["offset", {}, expr, n]`, which Metabase
   * compiles to `LAG(expr, -n)` (n < 0) or `LEAD(expr, n)` over the window of the query's rows (Level.offsetWindow).
   */
  private aggregationExpr(x: unknown, index: number, breakoutSql: string[], over: () => string | null): Typed & { display: string } {
    if (typeof x === 'number')
      return {
        sql: literalNumber(x, 'A number', 'aggregation'),
        type: Number.isInteger(x) ? 'type/Integer' : 'type/Float',
        display: String(x),
      };
    if (!Array.isArray(x) || typeof x[0] !== 'string')
      throw new QueryCompileError(`Expected an aggregation, got ${short(x)} in "aggregation".`, 'aggregation');
    const [op, ...args] = x as [string, ...unknown[]];
    if (op === 'offset') {
      const [, expr, n] = args as [unknown, unknown, number];
      const inner = this.aggregationExpr(expr, index, breakoutSql, over);
      // validate.ts: n is a whole number other than 0.
      const rows = literalNumber(Math.abs(n), 'The rows of offset', 'aggregation', true);
      const window = over();
      // No window (a single row): none, typed as the expression.
      const sql =
        window === null ? `(CASE WHEN 1 = 0 THEN ${inner.sql} END)` : `${n < 0 ? 'LAG' : 'LEAD'}(${inner.sql}, ${rows}) OVER (${window})`;
      return { sql, type: inner.type, display: `Offset(${inner.display}, ${n})` };
    }
    if (ARITHMETIC.has(op)) {
      const parts = args.map((a) => this.aggregationExpr(a, index, breakoutSql, over));
      const display = parts.map((p) => p.display).join(` ${op} `);
      if (op === '/') {
        let sql = this.cx.d.floatCast(parts[0].sql);
        for (const p of parts.slice(1)) sql = `(${sql} / NULLIF(${p.sql}, 0))`;
        return { sql, type: 'type/Float', display };
      }
      const integral = parts.every((p) => p.type === 'type/Integer' || p.type === 'type/BigInteger');
      return { sql: `(${parts.map((p) => p.sql).join(` ${op} `)})`, type: integral ? 'type/BigInteger' : 'type/Float', display };
    }
    if (op === 'aggregation-options' || AGGREGATION_NAMES[op] || op === 'metric') {
      const a = this.aggregation(x, index, breakoutSql, over);
      return { sql: a.sql, type: a.col.base_type, display: a.col.display_name };
    }
    throw new QueryCompileError(`Unknown aggregation ${JSON.stringify(op)} in "aggregation".`, 'aggregation');
  }

  private describe(x: unknown): string {
    if (Array.isArray(x)) {
      const [op, ...args] = x;
      if (op === 'field' || op === 'expression') {
        try {
          return this.cx.resolveRef(x).col.display_name;
        } catch {
          return String(x[1]);
        }
      }
      if (['+', '-', '*', '/'].includes(op)) return args.map((a) => this.describe(a)).join(` ${op} `);
      return `${op}(${args.map((a) => this.describe(a)).join(', ')})`;
    }
    return typeof x === 'string' ? JSON.stringify(x) : String(x);
  }
}
