import type { FieldOptions } from '../mbql/types';
import { QueryCompileError } from './contract';
import { reportZone, zoned, type ClauseContext } from './clause-context';
import { isDateType, isObject, isTemporal, TEXT, type Typed } from './types';
import { short, where } from './params';
import {
  addWall,
  isTruncation,
  parseDateLiteral,
  truncateWall,
  wallFromDate,
  wallText,
  type TruncationUnit,
  type WallTime,
} from './temporal';

/** Filters (and the boolean conditions of joins, case, share, count-where) of one query level. */
export class FilterCompiler {
  constructor(private readonly cx: ClauseContext) {}

  filter(f: unknown): string {
    if (!Array.isArray(f) || typeof f[0] !== 'string')
      throw new QueryCompileError(`Invalid filter ${short(f)}${where(this.cx.clause)}.`, this.cx.clause);
    const [op, ...args] = f as [string, ...unknown[]];
    switch (op) {
      case 'and':
      case 'or': {
        if (args.length === 1) return this.filter(args[0]);
        return `(${args.map((a) => this.filter(a)).join(` ${op.toUpperCase()} `)})`;
      }
      case 'not':
        return `(NOT ${this.filter(args[0])})`;
      case '=':
      case '!=':
        return this.equality(op, args);
      case '<':
      case '>':
      case '<=':
      case '>=':
        return this.comparison(op, args[0], args[1]);
      case 'between': {
        const range = this.temporalRange(args[0], args[1], args[2]);
        if (range) return range;
        const x = this.cx.expr(args[0]);
        return `(${x.sql} BETWEEN ${this.value(args[1], x)} AND ${this.value(args[2], x)})`;
      }
      case 'starts-with':
      case 'ends-with':
      case 'contains':
      case 'does-not-contain':
        return this.stringFilter(op, args);
      case 'inside': {
        const [lat, lon, north, west, south, east] = args;
        const la = this.cx.expr(lat);
        const lo = this.cx.expr(lon);
        return (
          `(${la.sql} BETWEEN ${this.value(south, la)} AND ${this.value(north, la)}` +
          ` AND ${lo.sql} BETWEEN ${this.value(west, lo)} AND ${this.value(east, lo)})`
        );
      }
      case 'is-null':
        return `(${this.cx.expr(args[0]).sql} IS NULL)`;
      case 'not-null':
        return `(${this.cx.expr(args[0]).sql} IS NOT NULL)`;
      case 'is-empty':
      case 'not-empty': {
        const x = this.cx.expr(args[0]);
        const text = x.type === null || TEXT.has(x.type);
        if (op === 'is-empty') return text ? `(${x.sql} IS NULL OR ${x.sql} = '')` : `(${x.sql} IS NULL)`;
        return text ? `(${x.sql} IS NOT NULL AND ${x.sql} <> '')` : `(${x.sql} IS NOT NULL)`;
      }
      case 'time-interval':
        return this.timeInterval(args);
      case 'segment':
        throw new QueryCompileError(
          `Segment ${short(args[0])} should have been expanded before compiling${where(this.cx.clause)}.`,
          this.cx.clause,
        );
      case 'value':
      case 'field':
      case 'expression': {
        const x = this.cx.expr(f);
        return x.type === 'type/Boolean' && this.cx.d.engine === 'sqlite' ? `(${x.sql} <> 0)` : `(${x.sql})`;
      }
    }
    throw new QueryCompileError(`Unknown clause ${JSON.stringify(op)}${where(this.cx.clause)}.`, this.cx.clause);
  }

  /** A value compared with `against`: bound, cast to a date or timestamp when compared with one. */
  private value(v: unknown, against: Typed): string {
    if (Array.isArray(v)) {
      if (v[0] === 'value') return this.value(v[1], against);
      return this.cx.expr(v).sql;
    }
    if (v !== null && typeof v === 'object')
      throw new QueryCompileError(`Invalid value ${short(v)}${where(this.cx.clause)}.`, this.cx.clause);
    if (typeof v === 'string' && isTemporal(against.type)) {
      const parsed = parseDateLiteral(v);
      if (!parsed) throw new QueryCompileError(`Invalid date ${short(v)}${where(this.cx.clause)}.`, this.cx.clause);
      return this.temporalParam(parsed.wall, isDateType(against.type));
    }
    if (v === null) return 'NULL';
    return this.cx.binder.bind(v, this.cx.clause);
  }

  private temporalParam(w: WallTime, date: boolean): string {
    return this.cx.d.castParam(this.cx.binder.bind(wallText(w, date), this.cx.clause), date ? 'date' : 'timestamp');
  }

  private equality(op: '=' | '!=', args: unknown[]): string {
    const [lhs, ...values] = args;
    if (values.length === 1) {
      const range = this.temporalRange(lhs, values[0], values[0]);
      if (range) return op === '=' ? range : `(NOT ${range} OR ${zoned(this.cx, this.cx.resolveRef(lhs).raw).sql} IS NULL)`;
    }
    const x = this.cx.expr(lhs);
    const nonNull = values.filter((v) => v !== null);
    const hasNull = nonNull.length !== values.length;
    const parts: string[] = [];
    if (nonNull.length === 1) parts.push(`${x.sql} ${op === '=' ? '=' : '<>'} ${this.value(nonNull[0], x)}`);
    else if (nonNull.length > 1)
      parts.push(`${x.sql} ${op === '=' ? 'IN' : 'NOT IN'} (${nonNull.map((v) => this.value(v, x)).join(', ')})`);
    if (op === '=') {
      if (hasNull) parts.push(`${x.sql} IS NULL`);
      if (parts.length > 1) return `(${parts.join(' OR ')})`;
      return hasNull ? `(${parts[0]})` : parts[0];
    }
    // != keeps the rows where the column is NULL (unless NULL itself is excluded).
    if (hasNull) return parts.length ? `(${parts[0]} AND ${x.sql} IS NOT NULL)` : `(${x.sql} IS NOT NULL)`;
    return `(${parts[0]} OR ${x.sql} IS NULL)`;
  }

  private comparison(op: string, lhs: unknown, rhs: unknown): string {
    const opts = Array.isArray(lhs) && isObject(lhs[2]) ? (lhs[2] as FieldOptions) : {};
    const unit = opts['temporal-unit'];
    if (typeof rhs === 'string' && lhs && Array.isArray(lhs) && (lhs[0] === 'field' || lhs[0] === 'expression')) {
      const r = this.cx.resolveRef(lhs);
      const bucketUnit = unit && isTruncation(unit) ? unit : isTemporal(r.raw.type) ? this.impliedUnit(rhs) : null;
      const parsed = isTemporal(r.raw.type) ? parseDateLiteral(rhs) : null;
      if (parsed && bucketUnit) {
        const date = isDateType(r.raw.type);
        const start = truncateWall(parsed.wall, bucketUnit);
        const next = addWall(start, 1, bucketUnit);
        if (op === '<') return `${zoned(this.cx, r.raw).sql} < ${this.temporalParam(start, date)}`;
        if (op === '>=') return `${zoned(this.cx, r.raw).sql} >= ${this.temporalParam(start, date)}`;
        if (op === '>') return `${zoned(this.cx, r.raw).sql} >= ${this.temporalParam(next, date)}`;
        return `${zoned(this.cx, r.raw).sql} < ${this.temporalParam(next, date)}`;
      }
    }
    const x = this.cx.expr(lhs);
    return `${x.sql} ${op} ${this.value(rhs, x)}`;
  }

  /** A date without a time means the whole day; with a time, that minute or second exactly. */
  private impliedUnit(text: string): TruncationUnit | null {
    const parsed = parseDateLiteral(text);
    return parsed && !parsed.hasTime ? 'day' : null;
  }

  /** `=`/between on a date(-time) column with date literals, as a half-open range on the unbucketed column. */
  private temporalRange(lhs: unknown, from: unknown, to: unknown): string | null {
    if (!Array.isArray(lhs) || (lhs[0] !== 'field' && lhs[0] !== 'expression') || typeof from !== 'string' || typeof to !== 'string')
      return null;
    const opts = isObject(lhs[2]) ? (lhs[2] as FieldOptions) : {};
    const r = this.cx.resolveRef(lhs);
    if (!isTemporal(r.raw.type)) return null;
    const unit = opts['temporal-unit'];
    const a = parseDateLiteral(from);
    const b = parseDateLiteral(to);
    if (!a || !b) throw new QueryCompileError(`Invalid date ${short(a ? to : from)}${where(this.cx.clause)}.`, this.cx.clause);
    let bucket: TruncationUnit | null = unit && isTruncation(unit) ? unit : null;
    if (!bucket && (!unit || unit === 'default')) bucket = !b.hasTime ? 'day' : null;
    if (!bucket) {
      if (unit && unit !== 'default') return null;
      const date = isDateType(r.raw.type);
      return from === to
        ? `${zoned(this.cx, r.raw).sql} = ${this.temporalParam(a.wall, date)}`
        : `(${zoned(this.cx, r.raw).sql} BETWEEN ${this.temporalParam(a.wall, date)} AND ${this.temporalParam(b.wall, date)})`;
    }
    const date = isDateType(r.raw.type);
    const start = truncateWall(a.wall, bucket);
    const end = addWall(truncateWall(b.wall, bucket), 1, bucket);
    return (
      `(${zoned(this.cx, r.raw).sql} >= ${this.temporalParam(start, date)}` +
      ` AND ${zoned(this.cx, r.raw).sql} < ${this.temporalParam(end, date)})`
    );
  }

  private stringFilter(op: string, args: unknown[]): string {
    const [lhs, v, options] = args;
    const caseSensitive = !(isObject(options) && options['case-sensitive'] === false);
    const x = this.cx.expr(lhs);
    if (typeof v !== 'string') {
      if (Array.isArray(v) && v[0] === 'value' && typeof v[1] === 'string') return this.stringFilter(op, [lhs, v[1], options]);
      throw new QueryCompileError(`${op} needs a string value, got ${short(v)}${where(this.cx.clause)}.`, this.cx.clause);
    }
    const kind = op === 'starts-with' ? 'starts' : op === 'ends-with' ? 'ends' : 'contains';
    const pattern = this.cx.d.likePattern(v, kind, caseSensitive);
    const like = this.cx.d.like(x.sql, this.cx.binder.bind(pattern, this.cx.clause), caseSensitive);
    return op === 'does-not-contain' ? `(NOT (${like}) OR ${x.sql} IS NULL)` : like;
  }

  private timeInterval(args: unknown[]): string {
    // validate.ts: a reference and a truncation unit. The amount is checked again here: it feeds the date arithmetic.
    const [lhs, n, unitArg, options] = args;
    const unit = unitArg as TruncationUnit;
    const includeCurrent = isObject(options) && options['include-current'] === true;
    const r = this.cx.resolveRef(
      Array.isArray(lhs) && lhs[0] === 'field' && isObject(lhs[2]) ? [lhs[0], lhs[1], { ...lhs[2], 'temporal-unit': undefined }] : lhs,
    );
    const date = isDateType(r.raw.type);
    const now = truncateWall(wallFromDate(this.cx.opts.now ?? new Date(), reportZone(this.cx)), unit);
    let amount: number;
    if (n === 'current') amount = 0;
    else if (n === 'last') amount = -1;
    else if (n === 'next') amount = 1;
    else if (typeof n === 'number' && Number.isInteger(n)) amount = n;
    else
      throw new QueryCompileError(
        `time-interval needs a whole number, "current", "last" or "next", got ${short(n)}${where(this.cx.clause)}.`,
        this.cx.clause,
      );
    let start: WallTime;
    let end: WallTime;
    if (amount === 0) {
      start = now;
      end = addWall(now, 1, unit);
    } else if (amount < 0) {
      start = addWall(now, amount, unit);
      end = includeCurrent ? addWall(now, 1, unit) : now;
    } else {
      start = includeCurrent ? now : addWall(now, 1, unit);
      end = addWall(now, amount + 1, unit);
    }
    return (
      `(${zoned(this.cx, r.raw).sql} >= ${this.temporalParam(start, date)}` +
      ` AND ${zoned(this.cx, r.raw).sql} < ${this.temporalParam(end, date)})`
    );
  }
}
