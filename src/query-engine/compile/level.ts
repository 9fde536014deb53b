import type { Binning, FieldOptions, InnerQuery, Join, OrderBy, Ref, TemporalUnit } from '../mbql/types';
import type { FieldMeta } from '../metadata';
import { trimTrailingSemicolons } from '../sql-text';
import { AggregationCompiler } from './aggregations';
import { resolveBinning } from './binning';
import { zoned, type ClauseContext } from './clause-context';
import type { CompileOptions, CompiledColumn, MetadataSnapshot } from './contract';
import { QueryCompileError } from './contract';
import type { Dialect, ExtractionUnit } from './dialect';
import { ExpressionCompiler } from './expressions';
import { FieldResolver, type Source } from './fields';
import { FilterCompiler } from './filters';
import { NameSet, withUnitDisplay } from './names';
import { levelPath } from '../mbql/places';
import { finestTemporal, hasWindow } from './window';
import { Binder, hasParams, literalNumber, short, where } from './params';
import { isTruncation } from './temporal';
import { isDateType, isObject, isTemporal, type Resolved, type Typed } from './types';

export interface LevelResult {
  sql: string;
  columns: CompiledColumn[];
}

/**
 * Compiles one level of an MBQL query (its source compiled as a subquery when it is a query). Generic SQL; every
 * engine difference goes through the Dialect.
 */
export class Level implements ClauseContext {
  /** The clause being compiled, for error messages. */
  clause = 'query';
  /** The whole path of the place being compiled (`query.filter.and[1]`), set on the compile errors raised there. */
  private place: string;
  private readonly fields: FieldResolver;
  private readonly expressionStack: string[] = [];
  private readonly breakoutRaw: string[] = [];
  /** The breakouts as compiled (GROUP BY), and resolved (their temporal units), for the window of `offset`. */
  private readonly breakoutSql: string[] = [];
  private readonly breakoutResolved: Resolved[] = [];
  private over?: string | null;
  readonly query: InnerQuery;
  private readonly expressions = new ExpressionCompiler(this);
  private readonly filters = new FilterCompiler(this);
  private readonly aggregations = new AggregationCompiler(this);

  constructor(
    readonly d: Dialect,
    private readonly meta: MetadataSnapshot,
    readonly opts: CompileOptions,
    readonly binder: Binder,
    query: InnerQuery | null,
    /** This level's path in the whole query (preprocess/context.ts levelPath): `query`, `query.source-query`... */
    readonly path = 'query',
  ) {
    this.query = query ?? {};
    this.place = this.path;
    this.fields = new FieldResolver(d, meta, this);
  }

  /**
   * Runs `fn` compiling the place `at` (a path below this level's), so that a compile error raised in it, not placed
   * yet by a place inside, names it (QueryCompileError.at).
   */
  private within<T>(at: string, fn: () => T): T {
    const outer = this.place;
    this.place = at;
    try {
      return fn();
    } catch (e) {
      if (e instanceof QueryCompileError && e.at === undefined) e.at = at;
      throw e;
    } finally {
      this.place = outer;
    }
  }

  private placed(e: QueryCompileError, at: string): QueryCompileError {
    e.at = at;
    return e;
  }

  /** A filter (or join condition) at `at`: each part of a top-level `and` as a place of its own (`filter.and[1]`). */
  private placedFilter(f: unknown, at: string): string {
    if (!Array.isArray(f) || f[0] !== 'and' || f.length <= 2) return this.within(at, () => this.filter(f));
    const parts = f.slice(1).map((x, i) => this.within(`${at}.and[${i}]`, () => this.filter(x)));
    return `(${parts.join(' AND ')})`;
  }

  // ---------------------------------------------------------------------------------------------- entry points

  compile(top: boolean, depth = 0): LevelResult {
    return this.within(this.path, () => this.compileLevel(top, depth));
  }

  private compileLevel(top: boolean, depth: number): LevelResult {
    if (depth > 50) throw new QueryCompileError('Queries are nested too deeply.', 'source-query');
    const q = this.query;
    this.fields.base = this.sourceOf(q, null, depth, this.path);
    const joinSql = this.compileJoins(q.joins, depth);

    const aggregations = q.aggregation ?? [];
    const breakouts = q.breakout ?? [];
    const names = new NameSet();
    const select: Array<{ sql: string; col: CompiledColumn; direct: boolean }> = [];
    const groupBy: string[] = [];
    const breakoutSql = this.breakoutSql;

    if (aggregations.length || breakouts.length) {
      this.clause = 'breakout';
      for (const [i, ref] of breakouts.entries()) {
        const r = this.within(`${this.path}.breakout[${i}]`, () => this.resolveRef(ref));
        breakoutSql.push(r.sql);
        this.breakoutResolved.push(r);
        this.breakoutRaw.push(r.raw.sql);
        select.push({ sql: r.sql, col: { ...r.col, source: 'breakout' }, direct: r.direct });
      }
      this.clause = 'aggregation';
      aggregations.forEach((ag, i) => {
        const a = this.within(`${this.path}.aggregation[${i}]`, () => this.aggregations.aggregation(ag, i, breakoutSql, () => this.offsetWindow()));
        select.push({ sql: a.sql, col: a.col, direct: false });
      });
      breakoutSql.forEach((sql, i) => groupBy.push(hasParams(sql) ? String(i + 1) : sql));
    } else {
      for (const c of this.defaultOrExplicitFields()) select.push(c);
    }
    if (!select.length) throw this.placed(new QueryCompileError('The query selects no columns.', 'fields'), `${this.path}.fields`);

    const columns: CompiledColumn[] = [];
    const selectSql = select.map(({ sql, col, direct }) => {
      const name = names.unique(col.name);
      columns.push({ ...col, name });
      const out = top ? this.d.outputColumn(sql, col.base_type, direct) : sql;
      return `${out} AS ${this.d.quoteIdent(name)}`;
    });
    let groupBySql = groupBy.join(', ');
    let groupingOrder: string | null = null;
    const setsFor = this.opts.groupingSets;
    if (top && setsFor) {
      const g = this.within(`${this.path}.breakout`, () => this.groupingSets(setsFor, breakoutSql, select, columns));
      const name = names.unique('pivot-grouping');
      selectSql.push(`${g.select} AS ${this.d.quoteIdent(name)}`);
      columns.push({ ...g.column, name });
      groupBySql = g.groupBy;
      groupingOrder = `${selectSql.length} ASC`;
    }

    this.clause = 'filter';
    const whereSql = q.filter !== undefined && q.filter !== null ? this.placedFilter(q.filter, `${this.path}.filter`) : null;
    const orderSql = this.orderBy(q['order-by'], breakouts, breakoutSql, Boolean(aggregations.length || breakouts.length));
    const limitSql = this.limitClause(q);

    const nl = this.opts.pretty ? '\n' : ' ';
    const parts = [`SELECT ${selectSql.join(', ')}`, `FROM ${this.fromSql()}${joinSql.map((j) => `${nl}${j}`).join('')}`];
    if (whereSql) parts.push(`WHERE ${whereSql}`);
    if (groupBySql) parts.push(`GROUP BY ${groupBySql}`);
    if (groupingOrder) orderSql.unshift(groupingOrder);
    if (orderSql.length) parts.push(`ORDER BY ${orderSql.join(', ')}`);
    if (limitSql) parts.push(limitSql);
    return { sql: parts.join(nl), columns };
  }

  /**
   * GROUP BY GROUPING SETS for a pivot (CompileOptions.groupingSets): the sets by breakout index, and the
   * `pivot-grouping` column, `GROUPING()` of the breakouts in reverse so that bit i stands for breakout i. A breakout
   * with bound values (`?` repeated as different parameters would not match its GROUP BY) or a cumulative
   * aggregation (a window over the breakouts of one set) cannot be grouped so: the pivot runs one query per set.
   */
  private groupingSets(
    setsFor: (columns: CompiledColumn[]) => number[][],
    breakoutSql: string[],
    select: Array<{ sql: string; col: CompiledColumn }>,
    columns: CompiledColumn[],
  ): { select: string; groupBy: string; column: CompiledColumn } {
    const unsupported = (why: string) => new QueryCompileError(`Cannot compute the pivot subtotals in one query: ${why}.`, 'breakout');
    if (!this.d.groupingSets) throw unsupported('this database has no GROUPING SETS');
    if (!breakoutSql.length) throw unsupported('the query has no breakouts');
    if (breakoutSql.some(hasParams)) throw unsupported('a breakout has bound values');
    if (select.some((s) => s.col.source === 'aggregation' && s.sql.includes(' OVER ('))) throw unsupported('a cumulative aggregation');
    const sets = setsFor(columns);
    for (const set of sets) {
      if (!Array.isArray(set) || set.some((i) => !Number.isInteger(i) || i < 0 || i >= breakoutSql.length)) throw unsupported('an invalid grouping set');
    }
    const groupBy = `GROUPING SETS (${sets.map((set) => `(${set.map((i) => breakoutSql[i]).join(', ')})`).join(', ')})`;
    const grouping = `CAST(GROUPING(${[...breakoutSql].reverse().join(', ')}) AS INTEGER)`;
    return {
      select: grouping,
      groupBy,
      column: {
        name: 'pivot-grouping', display_name: 'pivot-grouping', source: 'breakout', base_type: 'type/Integer', effective_type: 'type/Integer',
        semantic_type: null, field_ref: ['expression', 'pivot-grouping'], expression_name: 'pivot-grouping',
      },
    };
  }

  /** A condition for native field filters: ids resolve to their own table's real name. */
  compileStandaloneFilter(filter: unknown): string {
    this.fields.base = { kind: 'any-table' };
    this.clause = 'filter';
    return this.filter(filter);
  }

  // ---------------------------------------------------------------------------------------------- sources, joins

  /** `at`: the path of the level (`query`) or join (`query.joins[0]`) whose source this is. */
  private sourceOf(q: InnerQuery, alias: string | null, depth: number, at: string): Source {
    const clause = alias === null ? 'source-table' : `joins`;
    if (q['source-query'] !== undefined) {
      const path = levelPath(q['source-query'], at, 'source-query');
      const inner = new Level(this.d, this.meta, this.opts, this.binder, q['source-query'], path).compile(false, depth + 1);
      this.sourceSql.set(alias, `(${inner.sql})`);
      return { kind: 'query', qualifier: this.d.quoteIdent(alias ?? 'source'), columns: inner.columns, alias };
    }
    if (typeof q.native === 'string') {
      // A native card as a source: its own SQL, without a trailing `;`, on its own line (it may end in a comment).
      const native = trimTrailingSemicolons(q.native);
      if (!native) throw new QueryCompileError(`The native source query is empty${where(clause)}.`, clause);
      this.sourceSql.set(alias, `(${native}\n)`);
      const known = q['native-columns'];
      const columns: CompiledColumn[] | null = known?.length
        ? known.map((c) => ({ name: c.name, display_name: c.display_name ?? c.name, source: 'native', base_type: c.base_type, effective_type: c.base_type, semantic_type: null, field_ref: ['field', c.name, { 'base-type': c.base_type }] }))
        : null;
      return { kind: 'query', qualifier: this.d.quoteIdent(alias ?? 'source'), columns, alias };
    }
    const id = q['source-table'];
    if (typeof id === 'string') throw new QueryCompileError(`Source ${JSON.stringify(id)} should have been resolved before compiling${where(clause)}.`, clause);
    // validate.ts: a level without a source query has a table id.
    const table = this.within(`${at}.source-table`, () => this.fields.tableMeta(id as number, clause));
    this.sourceSql.set(alias, this.fields.tableName(table));
    return { kind: 'table', table, qualifier: alias === null ? this.fields.tableName(table) : this.d.quoteIdent(alias), alias };
  }

  private readonly sourceSql = new Map<string | null, string>();

  private fromSql(): string {
    const s = this.fields.base;
    if (s.kind === 'query') return `${this.sourceSql.get(null)} AS ${s.qualifier}`;
    return this.sourceSql.get(null)!;
  }

  private compileJoins(joins: Join[] | undefined, depth: number): string[] {
    if (joins === undefined || joins === null) return [];
    this.clause = 'joins';
    // validate.ts: a list of maps with distinct aliases, known strategies and a condition each.
    joins.forEach((join, i) => {
      const at = `${this.path}.joins[${i}]`;
      const strategy = join.strategy ?? 'left-join';
      const source = this.within(at, () => {
        this.d.checkJoin(strategy, join.alias);
        return this.sourceOf(join as InnerQuery, join.alias, depth, at);
      });
      this.fields.joins.set(join.alias, { join, source, strategy });
    });
    const out: string[] = [];
    for (const [i, { join, strategy }] of [...this.fields.joins.values()].entries()) {
      this.clause = 'joins';
      const on = this.placedFilter(join.condition, `${this.path}.joins[${i}].condition`);
      out.push(`${this.d.joinKeyword(strategy)} ${this.sourceSql.get(join.alias)} AS ${this.d.quoteIdent(join.alias)} ON ${on}`);
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------- SELECT lists

  private defaultOrExplicitFields(): Array<{ sql: string; col: CompiledColumn; direct: boolean }> {
    const q = this.query;
    const out: Array<{ sql: string; col: CompiledColumn; direct: boolean }> = [];
    this.clause = 'fields';
    const explicit = Array.isArray(q.fields) && q.fields.length > 0;
    const refs: Ref[] = explicit ? q.fields! : this.fields.defaultRefs(this.fields.base, null);
    for (const [i, ref] of refs.entries()) {
      const r = this.within(explicit ? `${this.path}.fields[${i}]` : `${this.path}.fields`, () => this.resolveRef(ref));
      out.push({ sql: r.sql, col: r.col, direct: r.direct });
    }
    if (!explicit && q.expressions) {
      for (const name of Object.keys(q.expressions)) {
        const r = this.resolveRef(['expression', name]);
        out.push({ sql: r.sql, col: r.col, direct: false });
      }
    }
    for (const [j, { join, source }] of [...this.fields.joins.values()].entries()) {
      this.clause = 'joins';
      const fields = join.fields ?? 'none';
      // validate.ts: "all", "none" or a list.
      const refs: Ref[] = fields === 'all' ? this.fields.defaultRefs(source, join.alias) : Array.isArray(fields) ? fields : [];
      for (const [i, ref] of refs.entries()) {
        const r = this.within(Array.isArray(fields) ? `${this.path}.joins[${j}].fields[${i}]` : `${this.path}.joins[${j}].fields`, () => this.resolveRef(ref));
        out.push({ sql: r.sql, col: r.col, direct: r.direct });
      }
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------- refs

  /** `ref` is a reference as validate.ts checks them: `field`, `expression` or `aggregation`, options a map or none. */
  resolveRef(ref: unknown): Resolved {
    const [kind, id, rawOpts] = ref as [string, unknown, FieldOptions | null | undefined];
    const opts: FieldOptions = rawOpts ?? {};
    if (kind === 'aggregation') throw new QueryCompileError(`An aggregation reference can only be used in "order-by"${where(this.clause)}.`, this.clause);
    const base = kind === 'field' ? this.fields.field(id, opts) : this.expressionRef(id, opts);
    const fieldRef = kind === 'field' ? this.fields.answeredRef(ref as unknown[]) : (ref as unknown[]);
    const unit = opts['temporal-unit'];
    if (unit !== undefined && unit !== null && unit !== 'default') {
      return this.bucket(base, unit, fieldRef);
    }
    if (opts.binning) return this.bin(base, opts.binning, fieldRef);
    return base;
  }

  private bucket(r: Resolved, unit: TemporalUnit, fieldRef: unknown[]): Resolved {
    const raw = { sql: r.sql, type: r.type };
    if (!isTemporal(r.type) && r.type !== null && r.type !== 'type/*') {
      throw new QueryCompileError(`Cannot bucket ${r.col.name} by ${unit}: it is not a date or time${where(this.clause)}.`, this.clause);
    }
    const col = { ...r.col, unit, display_name: withUnitDisplay(r.col.display_name, unit), field_ref: fieldRef };
    const x = zoned(this, r).sql;
    if (isTruncation(unit)) {
      const date = isDateType(r.type) && !['minute', 'hour'].includes(unit);
      return { sql: this.d.truncate(x, unit, date), type: date ? 'type/Date' : 'type/DateTime', col: { ...col, base_type: date ? 'type/Date' : 'type/DateTime', effective_type: date ? 'type/Date' : 'type/DateTime' }, direct: false, raw, unit };
    }
    // validate.ts: a unit that is not a truncation is an extraction.
    return {
      sql: this.d.extract(x, unit as ExtractionUnit),
      type: 'type/Integer',
      col: { ...col, base_type: 'type/Integer', effective_type: 'type/Integer', semantic_type: null },
      direct: false,
      raw,
      unit,
    };
  }

  private bin(r: Resolved, binning: Binning, fieldRef: unknown[]): Resolved {
    const field = typeof r.col.id === 'number' ? this.fields.fieldMeta(r.col.id) : ({ fingerprint: r.col.fingerprint } as FieldMeta);
    const b = resolveBinning(binning, field, r.col.semantic_type, this.clause);
    const min = literalNumber(b.minValue, 'The binning minimum', this.clause);
    const width = literalNumber(b.binWidth, 'bin-width', this.clause);
    const sql = `((FLOOR(${this.d.floatCast(`(${r.sql} - ${min})`)} / ${width}) * ${width}) + ${min})`;
    return {
      sql,
      type: 'type/Float',
      col: {
        ...r.col,
        field_ref: fieldRef,
        base_type: r.col.base_type,
        binning_info: { strategy: b.strategy, 'bin-width': b.binWidth, 'num-bins': b.numBins, min_value: b.minValue, max_value: b.maxValue },
      },
      direct: false,
      raw: { sql: r.sql, type: r.type },
    };
  }

  private expressionRef(name: unknown, opts: FieldOptions): Resolved {
    void opts;
    const exprs = this.query.expressions ?? {};
    if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(exprs, name)) {
      throw new QueryCompileError(`Unknown expression ${short(name)}${where(this.clause)}.`, this.clause);
    }
    if (this.expressionStack.includes(name)) throw new QueryCompileError(`Expression ${JSON.stringify(name)} refers to itself${where(this.clause)}.`, this.clause);
    this.expressionStack.push(name);
    try {
      const t = this.within(`${this.path}.expressions.${name}`, () => this.expr(exprs[name]));
      const type = t.type ?? 'type/*';
      return {
        sql: t.sql,
        type: t.type,
        col: { name, display_name: name, source: 'fields', base_type: type, effective_type: type, semantic_type: null, field_ref: ['expression', name] },
        direct: false,
        raw: t,
      };
    } finally {
      this.expressionStack.pop();
    }
  }

  expr(e: unknown): Typed {
    return this.expressions.expr(e);
  }

  // ---------------------------------------------------------------------------------------------- filters, aggregations

  filter(f: unknown): string {
    return this.filters.filter(f);
  }

  // ---------------------------------------------------------------------------------------------- window of offset

  /**
   * The window of `offset` (LAG / LEAD), as Metabase's SQL compiler builds it: with several breakouts, partitioned by
   * all of them but one, the finest temporal breakout (the leftmost of the finest; else the last breakout); ordered as
   * the query's rows are (its order-by, aggregations that are not windows themselves as their expression, then the
   * breakouts left). Without breakouts the query's order-by alone; null without either (one row, no other).
   */
  private offsetWindow(): string | null {
    if (this.over !== undefined) return this.over;
    const breakouts = this.breakoutSql;
    let partition: string[] = [];
    if (breakouts.length > 1) {
      const keep = finestTemporal(this.breakoutResolved) ?? breakouts.length - 1;
      partition = breakouts.filter((_, i) => i !== keep);
    }
    const order: string[] = [];
    const seen = new Set<string>(partition);
    const add = (sql: string, dir: string) => {
      if (seen.has(sql)) return;
      seen.add(sql);
      order.push(`${sql} ${dir}`);
    };
    const aggregations = this.query.aggregation ?? [];
    for (const [dir, ref] of this.query['order-by'] ?? []) {
      if (Array.isArray(ref) && ref[0] === 'aggregation') {
        const ag = aggregations[ref[1] as number];
        // An unknown index is refused with the order-by; a window is not an order of rows (Metabase leaves them out too).
        if (ag === undefined || hasWindow(ag)) continue;
        add(this.aggregations.aggregation(ag, ref[1] as number, breakouts, () => this.offsetWindow()).sql, dir.toUpperCase());
      } else {
        const r = this.resolveRef(ref);
        const pos = Math.max(breakouts.indexOf(r.sql), this.breakoutRaw.indexOf(r.raw.sql));
        add(pos >= 0 ? breakouts[pos] : r.sql, dir.toUpperCase());
      }
    }
    for (const sql of breakouts) add(sql, 'ASC');
    // No breakouts nor order-by: the aggregation has one row, and no other (null: Metabase refuses this case, which a
    // pivot's grand total needs; MariaDB wants an order for LAG / LEAD).
    this.over = order.length ? `${partition.length ? `PARTITION BY ${partition.join(', ')} ` : ''}ORDER BY ${order.join(', ')}` : null;
    return this.over;
  }

  // ---------------------------------------------------------------------------------------------- order, limit

  private orderBy(
    orderBy: OrderBy[] | undefined,
    breakouts: Ref[],
    breakoutSql: string[],
    aggregated: boolean,
  ): string[] {
    this.clause = 'order-by';
    const out: string[] = [];
    const seen = new Set<string>();
    for (const [i, [dir, ref]] of (orderBy ?? []).entries()) {
      this.place = `${this.path}.order-by[${i}]`;
      let sql: string;
      if (Array.isArray(ref) && ref[0] === 'aggregation') {
        const index = ref[1];
        const aggCount = (this.query.aggregation ?? []).length;
        if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= aggCount) {
          throw this.placed(new QueryCompileError(`Unknown aggregation ${short(index)} in "order-by".`, 'order-by'), this.place);
        }
        sql = String(breakouts.length + index + 1);
      } else {
        const r = this.within(this.place, () => this.resolveRef(ref));
        let pos = breakoutSql.indexOf(r.sql);
        if (pos < 0 && aggregated) pos = this.breakoutRaw.indexOf(r.raw.sql);
        if (pos >= 0 && aggregated) r.sql = breakoutSql[pos];
        sql = hasParams(r.sql) ? (pos >= 0 ? String(pos + 1) : r.sql) : r.sql;
        if (aggregated && pos < 0) throw this.placed(new QueryCompileError(`Can only order by a breakout or an aggregation in an aggregated query in "order-by".`, 'order-by'), this.place);
      }
      seen.add(sql);
      out.push(`${sql} ${dir.toUpperCase()}`);
    }
    this.place = this.path;
    breakoutSql.forEach((sql, i) => {
      const key = hasParams(sql) ? String(i + 1) : sql;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(`${key} ASC`);
      }
    });
    return out;
  }

  private limitClause(q: InnerQuery): string {
    this.clause = 'limit';
    let limit: number | null = null;
    let offset: number | null = null;
    if (q.limit !== undefined && q.limit !== null) {
      if (typeof q.limit !== 'number' || !Number.isInteger(q.limit) || q.limit < 0) throw this.placed(new QueryCompileError('"limit" must be a whole number, 0 or more.', 'limit'), `${this.path}.limit`);
      limit = q.limit;
    }
    if (q.page !== undefined && q.page !== null) {
      const { page, items } = (isObject(q.page) ? q.page : {}) as { page?: unknown; items?: unknown };
      if (typeof page !== 'number' || !Number.isInteger(page) || page < 1 || typeof items !== 'number' || !Number.isInteger(items) || items < 0) {
        throw this.placed(new QueryCompileError('"page" must be {page, items} with whole numbers, page 1 or more.', 'page'), `${this.path}.page`);
      }
      const pageOffset = (page - 1) * items;
      limit = limit === null ? items : Math.min(items, Math.max(0, limit - pageOffset));
      offset = pageOffset;
    }
    return limit === null && offset === null ? '' : this.d.limit(limit, offset);
  }
}
