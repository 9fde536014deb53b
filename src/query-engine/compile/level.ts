import type { FieldOptions, InnerQuery } from '../mbql/types';
import type { FieldMeta } from '../metadata';
import { AggregationCompiler } from './aggregations';
import { binned, bucketed } from './bucketing';
import type { CompileOptions, CompiledColumn, MetadataSnapshot } from './contract';
import { QueryCompileError } from './contract';
import type { Dialect } from './dialect';
import { ExpressionCompiler } from './expressions';
import { FieldResolver } from './fields';
import { FilterCompiler } from './filters';
import { groupingSets } from './grouping-sets';
import type { LevelResult, LevelScope, SelectItem } from './level-scope';
import { LevelSources } from './level-sources';
import { NameSet } from './names';
import { limitClause, orderByClause } from './ordering';
import { Binder, hasParams, short, where } from './params';
import { selectedFields } from './select-fields';
import type { Resolved, Typed } from './types';
import { offsetWindow } from './window';

export type { LevelResult } from './level-scope';

/**
 * Compiles one level of an MBQL query: its sources and joins (level-sources.ts), its SELECT list (breakouts and
 * aggregations, else select-fields.ts), WHERE, GROUP BY (grouping-sets.ts for a pivot's subtotals), ORDER BY and
 * LIMIT (ordering.ts). A source query is a level of its own, compiled as a subquery. Generic SQL; every engine
 * difference goes through the Dialect. Each clause's compile errors name their place in the query (`within`).
 */
export class Level implements LevelScope {
  /** The clause being compiled, for error messages. */
  clause = 'query';
  readonly fields: FieldResolver;
  readonly query: InnerQuery;
  private readonly sources: LevelSources;
  private readonly expressionStack: string[] = [];
  /** The breakouts as compiled (GROUP BY), resolved (their temporal units) and unbucketed, for the window of `offset`. */
  private readonly breakoutSql: string[] = [];
  private readonly breakoutResolved: Resolved[] = [];
  private readonly breakoutRaw: string[] = [];
  private over?: string | null;
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
    this.fields = new FieldResolver(d, meta, this);
    this.sources = new LevelSources(this);
  }

  within<T>(at: string, fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      if (e instanceof QueryCompileError && e.at === undefined) e.at = at;
      throw e;
    }
  }

  placedFilter(f: unknown, at: string): string {
    if (!Array.isArray(f) || f[0] !== 'and' || f.length <= 2) return this.within(at, () => this.filter(f));
    const parts = f.slice(1).map((x, i) => this.within(`${at}.and[${i}]`, () => this.filter(x)));
    return `(${parts.join(' AND ')})`;
  }

  subquery(q: InnerQuery, path: string, depth: number): LevelResult {
    return new Level(this.d, this.meta, this.opts, this.binder, q, path).compile(false, depth);
  }

  compile(top: boolean, depth = 0): LevelResult {
    return this.within(this.path, () => this.compileLevel(top, depth));
  }

  /** A condition for native field filters: ids resolve to their own table's real name. */
  compileStandaloneFilter(filter: unknown): string {
    this.fields.base = { kind: 'any-table' };
    this.clause = 'filter';
    return this.filter(filter);
  }

  private compileLevel(top: boolean, depth: number): LevelResult {
    if (depth > 50) throw new QueryCompileError('Queries are nested too deeply.', 'source-query');
    const q = this.query;
    this.fields.base = this.sources.source(q, null, depth, this.path);
    const joinSql = this.sources.joins(q.joins, depth);

    const aggregations = q.aggregation ?? [];
    const breakouts = q.breakout ?? [];
    const aggregated = Boolean(aggregations.length || breakouts.length);
    const names = new NameSet();
    const select: SelectItem[] = [];
    const groupBy: string[] = [];
    const breakoutSql = this.breakoutSql;

    if (aggregated) {
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
        const a = this.within(`${this.path}.aggregation[${i}]`, () =>
          this.aggregations.aggregation(ag, i, breakoutSql, () => this.offsetWindow()),
        );
        select.push({ sql: a.sql, col: a.col, direct: false });
      });
      breakoutSql.forEach((sql, i) => groupBy.push(hasParams(sql) ? String(i + 1) : sql));
    } else {
      select.push(...selectedFields(this));
    }
    if (!select.length) {
      throw Object.assign(new QueryCompileError('The query selects no columns.', 'fields'), { at: `${this.path}.fields` });
    }

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
      const g = this.within(`${this.path}.breakout`, () => groupingSets(this.d, setsFor, breakoutSql, select, columns));
      const name = names.unique('pivot-grouping');
      selectSql.push(`${g.select} AS ${this.d.quoteIdent(name)}`);
      columns.push({ ...g.column, name });
      groupBySql = g.groupBy;
      groupingOrder = `${selectSql.length} ASC`;
    }

    this.clause = 'filter';
    const whereSql = q.filter !== undefined && q.filter !== null ? this.placedFilter(q.filter, `${this.path}.filter`) : null;
    const orderSql = orderByClause(this, breakoutSql, this.breakoutRaw, aggregated);
    const limitSql = limitClause(this);

    const nl = this.opts.pretty ? '\n' : ' ';
    const parts = [`SELECT ${selectSql.join(', ')}`, `FROM ${this.sources.from()}${joinSql.map((j) => `${nl}${j}`).join('')}`];
    if (whereSql) parts.push(`WHERE ${whereSql}`);
    if (groupBySql) parts.push(`GROUP BY ${groupBySql}`);
    if (groupingOrder) orderSql.unshift(groupingOrder);
    if (orderSql.length) parts.push(`ORDER BY ${orderSql.join(', ')}`);
    if (limitSql) parts.push(limitSql);
    return { sql: parts.join(nl), columns };
  }

  /** `ref` is a reference as validate.ts checks them: `field`, `expression` or `aggregation`, options a map or none. */
  resolveRef(ref: unknown): Resolved {
    const [kind, id, rawOpts] = ref as [string, unknown, FieldOptions | null | undefined];
    const opts: FieldOptions = rawOpts ?? {};
    if (kind === 'aggregation')
      throw new QueryCompileError(`An aggregation reference can only be used in "order-by"${where(this.clause)}.`, this.clause);
    const base = kind === 'field' ? this.fields.field(id, opts) : this.expressionRef(id);
    const fieldRef = kind === 'field' ? this.fields.answeredRef(ref as unknown[]) : (ref as unknown[]);
    const unit = opts['temporal-unit'];
    if (unit !== undefined && unit !== null && unit !== 'default') return bucketed(this, base, unit, fieldRef);
    if (opts.binning) {
      const field =
        typeof base.col.id === 'number' ? this.fields.fieldMeta(base.col.id) : ({ fingerprint: base.col.fingerprint } as FieldMeta);
      return binned(this, base, opts.binning, fieldRef, field);
    }
    return base;
  }

  private expressionRef(name: unknown): Resolved {
    const exprs = this.query.expressions ?? {};
    if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(exprs, name)) {
      throw new QueryCompileError(`Unknown expression ${short(name)}${where(this.clause)}.`, this.clause);
    }
    if (this.expressionStack.includes(name))
      throw new QueryCompileError(`Expression ${JSON.stringify(name)} refers to itself${where(this.clause)}.`, this.clause);
    this.expressionStack.push(name);
    try {
      const t = this.within(`${this.path}.expressions.${name}`, () => this.expr(exprs[name]));
      const type = t.type ?? 'type/*';
      return {
        sql: t.sql,
        type: t.type,
        col: {
          name,
          display_name: name,
          source: 'fields',
          base_type: type,
          effective_type: type,
          semantic_type: null,
          field_ref: ['expression', name],
        },
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

  filter(f: unknown): string {
    return this.filters.filter(f);
  }

  /** The window of `offset` (window.ts), built once per level, when an aggregation first asks for it. */
  private offsetWindow(): string | null {
    if (this.over === undefined) {
      this.over = offsetWindow({
        query: this.query,
        breakoutSql: this.breakoutSql,
        breakoutResolved: this.breakoutResolved,
        breakoutRaw: this.breakoutRaw,
        aggregationSql: (ag, i) => this.aggregations.aggregation(ag, i, this.breakoutSql, () => this.offsetWindow()).sql,
        resolveRef: (ref) => this.resolveRef(ref),
      });
    }
    return this.over;
  }
}
