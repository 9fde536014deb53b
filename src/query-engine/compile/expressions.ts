import { QueryCompileError } from './contract';
import type { ExtractionUnit } from './dialect';
import { zoned, type ClauseContext } from './clause-context';
import { literalNumber, short, where } from './params';
import type { IntervalUnit } from './temporal';
import { isDateType, isObject, isTemporal, type Typed } from './types';

const INTERVAL_UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];
const EXTRACT_FUNCTIONS: Record<string, ExtractionUnit> = {
  'get-year': 'year',
  'get-quarter': 'quarter-of-year',
  'get-month': 'month-of-year',
  'get-day': 'day-of-month',
  'get-day-of-week': 'day-of-week',
  'get-hour': 'hour-of-day',
  'get-minute': 'minute-of-hour',
  'get-second': 'second',
};
/** Their arguments are counted by validate.ts (power takes two, the others one). */
const NUMERIC_FUNCTIONS: Record<string, string> = {
  abs: 'ABS',
  floor: 'FLOOR',
  ceil: 'CEIL',
  sqrt: 'SQRT',
  power: 'POWER',
  exp: 'EXP',
  log: 'LOG10',
};
const STRING_FUNCTIONS: Record<string, string> = { lower: 'LOWER', upper: 'UPPER', trim: 'TRIM', ltrim: 'LTRIM', rtrim: 'RTRIM' };

/** Custom expressions: arithmetic, string, math and date functions, case; anything else is a boolean condition. */
export class ExpressionCompiler {
  constructor(private readonly cx: ClauseContext) {}

  private literal(v: unknown): Typed {
    if (v === null) return { sql: 'NULL', type: null };
    if (typeof v === 'number')
      return { sql: literalNumber(v, 'A number', this.cx.clause), type: Number.isInteger(v) ? 'type/Integer' : 'type/Float' };
    if (typeof v === 'string') return { sql: this.cx.d.textParam(this.cx.binder.bind(v, this.cx.clause)), type: 'type/Text' };
    if (typeof v === 'boolean') return { sql: this.cx.binder.bind(v, this.cx.clause), type: 'type/Boolean' };
    throw new QueryCompileError(`Invalid value ${short(v)}${where(this.cx.clause)}.`, this.cx.clause);
  }

  expr(e: unknown): Typed {
    if (!Array.isArray(e)) return this.literal(e);
    const [op, ...args] = e as [unknown, ...unknown[]];
    if (typeof op !== 'string') throw new QueryCompileError(`Invalid expression ${short(e)}${where(this.cx.clause)}.`, this.cx.clause);
    if (op === 'field' || op === 'expression' || op === 'aggregation') return this.cx.resolveRef(e);
    if (op === 'value') return this.literal(args[0]);
    if (op === 'offset') {
      // As in Metabase, the value of another row exists only among the rows of an aggregation.
      throw new QueryCompileError(
        `"offset" can only be used in an aggregation, not in a custom column or a filter${where(this.cx.clause)}.`,
        this.cx.clause,
      );
    }
    const num = (x: unknown) => this.expr(x).sql;
    switch (op) {
      case '+':
      case '-':
      case '*': {
        const parts = args.map((a) => this.expr(a));
        const temporal = parts.find((p) => isTemporal(p.type));
        if (temporal) throw new QueryCompileError(`Use datetime-add for date arithmetic (${op})${where(this.cx.clause)}.`, this.cx.clause);
        const type = parts.every((p) => p.type === 'type/Integer' || p.type === 'type/BigInteger') ? 'type/Integer' : 'type/Float';
        return { sql: `(${parts.map((p) => p.sql).join(` ${op} `)})`, type };
      }
      case '/': {
        let sql = this.cx.d.floatCast(num(args[0]));
        for (const a of args.slice(1)) sql = `(${sql} / NULLIF(${num(a)}, 0))`;
        return { sql, type: 'type/Float' };
      }
      case 'concat': {
        const parts = args.map((a) => this.expr(a)).map((p) => (p.type === 'type/Text' ? p.sql : this.cx.d.textCast(p.sql)));
        return { sql: this.cx.d.concat(parts), type: 'type/Text' };
      }
      case 'substring': {
        const start = this.expr(args[1]).sql;
        return {
          sql: args.length === 3 ? `SUBSTR(${num(args[0])}, ${start}, ${num(args[2])})` : `SUBSTR(${num(args[0])}, ${start})`,
          type: 'type/Text',
        };
      }
      case 'length':
        return { sql: this.cx.d.length(num(args[0])), type: 'type/Integer' };
      case 'coalesce': {
        const parts = args.map((a) => this.expr(a));
        return { sql: `COALESCE(${parts.map((p) => p.sql).join(', ')})`, type: parts.find((p) => p.type)?.type ?? null };
      }
      case 'case':
      case 'if':
        return this.caseExpr(args);
      case 'round':
        return { sql: this.cx.d.round(num(args[0])), type: 'type/Integer' };
      case 'now':
        return { sql: this.cx.d.now(), type: 'type/DateTime' };
      case 'datetime-add': {
        const x = this.expr(args[0]);
        const n = args[1];
        const unit = this.intervalUnit(args[2]);
        if (typeof n !== 'number' || !Number.isInteger(n))
          throw new QueryCompileError(`datetime-add needs a whole number of units${where(this.cx.clause)}.`, this.cx.clause);
        literalNumber(n, 'The amount', this.cx.clause, true);
        const [amount, u] = unit === 'quarter' ? [n * 3, 'month' as const] : unit === 'week' ? [n * 7, 'day' as const] : [n, unit];
        return { sql: this.cx.d.datetimeAdd(x.sql, amount, u), type: 'type/DateTime' };
      }
      case 'datetime-diff':
        return {
          sql: this.datetimeDiff(zoned(this.cx, this.expr(args[0])), zoned(this.cx, this.expr(args[1])), this.intervalUnit(args[2])),
          type: 'type/Integer',
        };
    }
    if (EXTRACT_FUNCTIONS[op]) {
      return { sql: this.cx.d.extract(zoned(this.cx, this.expr(args[0])).sql, EXTRACT_FUNCTIONS[op]), type: 'type/Integer' };
    }
    if (NUMERIC_FUNCTIONS[op]) {
      const fn = NUMERIC_FUNCTIONS[op];
      const type = op === 'abs' ? this.expr(args[0]).type : op === 'floor' || op === 'ceil' ? 'type/Integer' : 'type/Float';
      return { sql: `${fn}(${args.map(num).join(', ')})`, type };
    }
    if (STRING_FUNCTIONS[op]) {
      return { sql: `${STRING_FUNCTIONS[op]}(${num(args[0])})`, type: 'type/Text' };
    }
    // A boolean expression (a filter used as a value).
    return { sql: this.cx.filter(e), type: 'type/Boolean' };
  }

  private intervalUnit(u: unknown): IntervalUnit {
    if (typeof u !== 'string' || !INTERVAL_UNITS.includes(u))
      throw new QueryCompileError(`Unknown unit ${short(u)}${where(this.cx.clause)}.`, this.cx.clause);
    return u as IntervalUnit;
  }

  private caseExpr(args: unknown[]): Typed {
    const [pairs, options] = args as [unknown, unknown];
    if (!Array.isArray(pairs) || !pairs.length)
      throw new QueryCompileError(`case needs a list of [condition, value] pairs${where(this.cx.clause)}.`, this.cx.clause);
    let type: string | null = null;
    const whens = pairs.map((pair) => {
      if (!Array.isArray(pair) || pair.length !== 2)
        throw new QueryCompileError(`Invalid case branch ${short(pair)}${where(this.cx.clause)}.`, this.cx.clause);
      const v = this.expr(pair[1]);
      type ??= v.type;
      return `WHEN ${this.cx.filter(pair[0])} THEN ${v.sql}`;
    });
    let otherwise = '';
    if (isObject(options) && options.default !== undefined) {
      const v = this.expr(options.default);
      type ??= v.type;
      otherwise = ` ELSE ${v.sql}`;
    }
    return { sql: `(CASE ${whens.join(' ')}${otherwise} END)`, type };
  }

  /**
   * Whole units from a to b, as Metabase counts them: seconds to hours from the elapsed time; days and weeks
   * between calendar days (the time of day ignored); months to years between calendar months, less one when b's
   * day of the month has not reached a's.
   */
  private datetimeDiff(at: Typed, bt: Typed, unit: IntervalUnit): string {
    const d = this.cx.d;
    const seconds: Partial<Record<IntervalUnit, number>> = { second: 1, minute: 60, hour: 3600 };
    if (seconds[unit]) return d.truncNumber(`((${d.epochSeconds(bt.sql)} - ${d.epochSeconds(at.sql)}) / ${seconds[unit]})`);
    if (unit === 'day' || unit === 'week') {
      const day = (t: Typed) => (isDateType(t.type) ? t.sql : d.truncate(t.sql, 'day', false));
      return d.truncNumber(`((${d.epochSeconds(day(bt))} - ${d.epochSeconds(day(at))}) / ${unit === 'day' ? 86400 : 604800})`);
    }
    const [a, b] = [at.sql, bt.sql];
    const ym = (x: string) => `(${d.extract(x, 'year')} * 12 + ${d.extract(x, 'month-of-year')})`;
    const dom = (x: string) => d.extract(x, 'day-of-month');
    const months =
      `(${ym(b)} - ${ym(a)} - (CASE WHEN ${ym(b)} > ${ym(a)} AND ${dom(b)} < ${dom(a)} THEN 1` +
      ` WHEN ${ym(b)} < ${ym(a)} AND ${dom(b)} > ${dom(a)} THEN -1 ELSE 0 END))`;
    if (unit === 'month') return months;
    return d.truncNumber(`(${months} / ${unit === 'quarter' ? 3 : 12}.0)`);
  }
}
