import type { Binning, FieldOptions, InnerQuery, Join, OrderBy, Ref, TemporalUnit } from '../mbql/types';
import { EXTRACTION_UNITS } from '../mbql/types';
import type { FieldMeta, TableMeta } from '../metadata';
import { trimTrailingSemicolons } from '../sql-text';
import { resolveBinning } from './binning';
import type { CompileOptions, CompiledColumn, MetadataSnapshot } from './contract';
import { QueryCompileError } from './contract';
import type { Dialect, ExtractionUnit, JoinStrategy } from './dialect';
import { AggregationCompiler } from './aggregations';
import { ExpressionCompiler } from './expressions';
import { FilterCompiler } from './filters';
import { NameSet, fkDisplayName, withUnitDisplay } from './names';
import { Binder, hasParams, literalNumber, short, where } from './params';
import { isTruncation } from './temporal';
import { isDateType, isObject, isTemporal, type Resolved, type Typed } from './types';

type Source =
  | { kind: 'table'; table: TableMeta; qualifier: string; alias: string | null }
  | { kind: 'query'; qualifier: string; columns: CompiledColumn[] | null; alias: string | null }
  /** compileFilter: every field id refers to its own table, by real names. */
  | { kind: 'any-table' };

export interface LevelResult {
  sql: string;
  columns: CompiledColumn[];
}

/**
 * Compiles one level of an MBQL query (its source compiled as a subquery when it is a query). Generic SQL; every
 * engine difference goes through the Dialect.
 */
export class Level {
  /** The clause being compiled, for error messages. */
  clause = 'query';
  private base!: Source;
  private readonly joins = new Map<string, { join: Join; source: Source; strategy: JoinStrategy }>();
  private readonly implicit = new Map<string, { alias: string; on: string; table: TableMeta }>();
  private readonly expressionStack: string[] = [];
  private readonly breakoutRaw: string[] = [];
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
  ) {
    if (query !== null && !isObject(query)) throw new QueryCompileError('The query must be an object.', 'query');
    this.query = query ?? {};
  }

  // ---------------------------------------------------------------------------------------------- entry points

  compile(top: boolean, depth = 0): LevelResult {
    if (depth > 50) throw new QueryCompileError('Queries are nested too deeply.', 'source-query');
    const q = this.query;
    this.base = this.sourceOf(q, null, depth);
    const joinSql = this.compileJoins(q.joins, depth);

    const aggregations = q.aggregation ?? [];
    const breakouts = q.breakout ?? [];
    if (!Array.isArray(aggregations)) throw new QueryCompileError('"aggregation" must be a list.', 'aggregation');
    if (!Array.isArray(breakouts)) throw new QueryCompileError('"breakout" must be a list.', 'breakout');
    const names = new NameSet();
    const select: Array<{ sql: string; col: CompiledColumn; direct: boolean }> = [];
    const groupBy: string[] = [];
    const breakoutSql: string[] = [];

    if (aggregations.length || breakouts.length) {
      this.clause = 'breakout';
      for (const ref of breakouts) {
        const r = this.resolveRef(ref);
        breakoutSql.push(r.sql);
        this.breakoutRaw.push(r.raw.sql);
        select.push({ sql: r.sql, col: { ...r.col, source: 'breakout' }, direct: r.direct });
      }
      this.clause = 'aggregation';
      aggregations.forEach((ag, i) => {
        const a = this.aggregations.aggregation(ag, i, breakoutSql);
        select.push({ sql: a.sql, col: a.col, direct: false });
      });
      breakoutSql.forEach((sql, i) => groupBy.push(hasParams(sql) ? String(i + 1) : sql));
    } else {
      for (const c of this.defaultOrExplicitFields()) select.push(c);
    }
    if (!select.length) throw new QueryCompileError('The query selects no columns.', 'fields');

    const columns: CompiledColumn[] = [];
    const selectSql = select.map(({ sql, col, direct }) => {
      const name = names.unique(col.name);
      columns.push({ ...col, name });
      const out = top ? this.d.outputColumn(sql, col.base_type, direct) : sql;
      return `${out} AS ${this.d.quoteIdent(name)}`;
    });
    let groupBySql = groupBy.join(', ');
    let groupingOrder: string | null = null;
    if (top && this.opts.groupingSets) {
      const g = this.groupingSets(this.opts.groupingSets, breakoutSql, select, columns);
      const name = names.unique('pivot-grouping');
      selectSql.push(`${g.select} AS ${this.d.quoteIdent(name)}`);
      columns.push({ ...g.column, name });
      groupBySql = g.groupBy;
      groupingOrder = `${selectSql.length} ASC`;
    }

    this.clause = 'filter';
    const whereSql = q.filter !== undefined && q.filter !== null ? this.filter(q.filter) : null;
    const orderSql = this.orderBy(q['order-by'], breakouts, breakoutSql, Boolean(aggregations.length || breakouts.length));
    const limitSql = this.limitClause(q);

    const implicitSql = [...this.implicit.values()].map(
      (j) => `LEFT JOIN ${this.tableName(j.table)} AS ${this.d.quoteIdent(j.alias)} ON ${j.on}`,
    );
    const nl = this.opts.pretty ? '\n' : ' ';
    const parts = [`SELECT ${selectSql.join(', ')}`, `FROM ${this.fromSql()}${[...joinSql, ...implicitSql].map((j) => `${nl}${j}`).join('')}`];
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
    this.base = { kind: 'any-table' };
    this.clause = 'filter';
    return this.filter(filter);
  }

  // ---------------------------------------------------------------------------------------------- sources, joins

  private sourceOf(q: InnerQuery, alias: string | null, depth: number): Source {
    const clause = alias === null ? 'source-table' : `joins`;
    if (q['source-query'] !== undefined) {
      const inner = new Level(this.d, this.meta, this.opts, this.binder, q['source-query']).compile(false, depth + 1);
      this.sourceSql.set(alias, `(${inner.sql})`);
      return { kind: 'query', qualifier: this.d.quoteIdent(alias ?? 'source'), columns: inner.columns, alias };
    }
    if (typeof q.native === 'string') {
      // A native card as a source: its own SQL, without a trailing `;`, on its own line (it may end in a comment).
      const native = trimTrailingSemicolons(q.native);
      if (!native) throw new QueryCompileError(`The native source query is empty${where(clause)}.`, clause);
      this.sourceSql.set(alias, `(${native}\n)`);
      return { kind: 'query', qualifier: this.d.quoteIdent(alias ?? 'source'), columns: null, alias };
    }
    const id = q['source-table'];
    if (typeof id === 'string') throw new QueryCompileError(`Source ${JSON.stringify(id)} should have been resolved before compiling${where(clause)}.`, clause);
    if (typeof id !== 'number' || !Number.isInteger(id)) throw new QueryCompileError(`The query has no source table or source query${where(clause)}.`, clause);
    const table = this.tableMeta(id, clause);
    this.sourceSql.set(alias, this.tableName(table));
    return { kind: 'table', table, qualifier: alias === null ? this.tableName(table) : this.d.quoteIdent(alias), alias };
  }

  private readonly sourceSql = new Map<string | null, string>();

  private fromSql(): string {
    const s = this.base;
    if (s.kind === 'query') return `${this.sourceSql.get(null)} AS ${s.qualifier}`;
    return this.sourceSql.get(null)!;
  }

  private compileJoins(joins: Join[] | undefined, depth: number): string[] {
    if (joins === undefined || joins === null) return [];
    if (!Array.isArray(joins)) throw new QueryCompileError('"joins" must be a list.', 'joins');
    this.clause = 'joins';
    for (const join of joins) {
      if (!isObject(join)) throw new QueryCompileError('Each join must be an object.', 'joins');
      if (typeof join.alias !== 'string' || !join.alias) throw new QueryCompileError('Each join needs an "alias".', 'joins');
      if (this.joins.has(join.alias)) throw new QueryCompileError(`Duplicate join alias ${JSON.stringify(join.alias)} in "joins".`, 'joins');
      const strategy = join.strategy ?? 'left-join';
      if (!['left-join', 'right-join', 'inner-join', 'full-join'].includes(strategy)) {
        throw new QueryCompileError(`Unknown join strategy ${short(strategy)} in "joins".`, 'joins');
      }
      this.d.checkJoin(strategy, join.alias);
      const source = this.sourceOf(join as InnerQuery, join.alias, depth);
      this.joins.set(join.alias, { join, source, strategy });
    }
    const out: string[] = [];
    for (const { join, strategy } of this.joins.values()) {
      this.clause = 'joins';
      if (join.condition === undefined || join.condition === null) throw new QueryCompileError(`Join ${JSON.stringify(join.alias)} has no condition in "joins".`, 'joins');
      const on = this.filter(join.condition);
      out.push(`${this.d.joinKeyword(strategy)} ${this.sourceSql.get(join.alias)} AS ${this.d.quoteIdent(join.alias)} ON ${on}`);
    }
    return out;
  }

  private tableMeta(id: number, clause: string): TableMeta {
    let t: TableMeta | undefined;
    try {
      t = this.meta.table(id);
    } catch {
      t = undefined;
    }
    if (!t) throw new QueryCompileError(`Unknown table ${id}${where(clause)}.`, clause);
    return t;
  }

  private fieldMeta(id: unknown): FieldMeta {
    if (typeof id !== 'number' || !Number.isInteger(id)) throw new QueryCompileError(`Invalid field id ${short(id)}${where(this.clause)}.`, this.clause);
    let f: FieldMeta | undefined;
    try {
      f = this.meta.field(id);
    } catch {
      f = undefined;
    }
    if (!f) throw new QueryCompileError(`Unknown field ${id}${where(this.clause)}.`, this.clause);
    return f;
  }

  /**
   * A sensitive field is never read by a structured query, for anybody (as Metabase's query builder): naming it
   * anywhere (fields, filters, breakouts, aggregations, order-by, expressions, joins) makes the query invalid. The
   * default columns of a table leave it out (sourceDefaultRefs). Native field filters (`any-table`) are not checked.
   */
  private assertAvailable(f: FieldMeta): void {
    if (f.visibilityType === 'sensitive') {
      throw new QueryCompileError(`Field ${f.id} (${JSON.stringify(f.name)}) is not available: it is marked sensitive${where(this.clause)}.`, this.clause);
    }
  }

  private tableName(t: TableMeta): string {
    return t.schema ? `${this.d.quoteIdent(t.schema)}.${this.d.quoteIdent(t.name)}` : this.d.quoteIdent(t.name);
  }

  // ---------------------------------------------------------------------------------------------- SELECT lists

  private fieldColumn(f: FieldMeta, ref: unknown[]): CompiledColumn {
    return {
      name: f.name,
      display_name: f.displayName,
      source: 'fields',
      base_type: f.baseType,
      effective_type: f.effectiveType ?? f.baseType,
      semantic_type: f.semanticType,
      field_ref: ref,
      id: f.id,
      table_id: f.tableId,
      visibility_type: f.visibilityType,
      fk_target_field_id: f.fkTargetFieldId,
      coercion_strategy: f.coercionStrategy,
      fingerprint: f.fingerprint,
    };
  }

  private sourceDefaultRefs(source: Source, joinAlias: string | null): Ref[] {
    const opts = (extra: FieldOptions = {}): FieldOptions | null => (joinAlias ? { ...extra, 'join-alias': joinAlias } : Object.keys(extra).length ? extra : null);
    if (source.kind === 'table') {
      return this.meta
        .tableFields(source.table.id)
        .filter((f) => f.visibilityType !== 'sensitive' && f.visibilityType !== 'retired')
        .sort((a, b) => a.position - b.position)
        .map((f) => ['field', f.id, opts()]);
    }
    if (source.kind === 'query') {
      if (!source.columns) throw new QueryCompileError(`The columns of the native source query are unknown; list them in "fields".`, 'fields');
      return source.columns.map((c) => ['field', c.name, opts({ 'base-type': c.base_type })]);
    }
    return [];
  }

  private defaultOrExplicitFields(): Array<{ sql: string; col: CompiledColumn; direct: boolean }> {
    const q = this.query;
    const out: Array<{ sql: string; col: CompiledColumn; direct: boolean }> = [];
    this.clause = 'fields';
    if (q.fields !== undefined && q.fields !== null && !Array.isArray(q.fields)) throw new QueryCompileError('"fields" must be a list.', 'fields');
    const explicit = Array.isArray(q.fields) && q.fields.length > 0;
    const refs: Ref[] = explicit ? q.fields! : this.sourceDefaultRefs(this.base, null);
    for (const ref of refs) {
      const r = this.resolveRef(ref);
      out.push({ sql: r.sql, col: r.col, direct: r.direct });
    }
    if (!explicit && q.expressions) {
      for (const name of Object.keys(q.expressions)) {
        const r = this.resolveRef(['expression', name]);
        out.push({ sql: r.sql, col: r.col, direct: false });
      }
    }
    for (const { join, source } of this.joins.values()) {
      this.clause = 'joins';
      const fields = join.fields ?? 'none';
      let refs: Ref[];
      if (fields === 'all') refs = this.sourceDefaultRefs(source, join.alias);
      else if (fields === 'none') refs = [];
      else if (Array.isArray(fields)) refs = fields;
      else throw new QueryCompileError(`Join "fields" must be "all", "none" or a list in "joins".`, 'joins');
      for (const ref of refs) {
        const r = this.resolveRef(ref);
        out.push({ sql: r.sql, col: r.col, direct: r.direct });
      }
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------- refs

  resolveRef(ref: unknown): Resolved {
    if (!Array.isArray(ref)) throw new QueryCompileError(`Invalid reference ${short(ref)}${where(this.clause)}.`, this.clause);
    const [kind, id, rawOpts] = ref as [string, unknown, unknown];
    const opts: FieldOptions = isObject(rawOpts) ? (rawOpts as FieldOptions) : {};
    if (rawOpts !== undefined && rawOpts !== null && !isObject(rawOpts)) {
      throw new QueryCompileError(`Invalid options ${short(rawOpts)} of ${kind} ${short(id)}${where(this.clause)}.`, this.clause);
    }
    let base: Resolved;
    if (kind === 'field') base = this.fieldRef(id, opts);
    else if (kind === 'expression') base = this.expressionRef(id, opts);
    else if (kind === 'aggregation') throw new QueryCompileError(`An aggregation reference can only be used in "order-by"${where(this.clause)}.`, this.clause);
    else throw new QueryCompileError(`Invalid reference ${short(ref)}${where(this.clause)}.`, this.clause);
    const fieldRef = ref as unknown[];
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
    const x = this.zoned(r).sql;
    if (isTruncation(unit)) {
      const date = isDateType(r.type) && !['minute', 'hour'].includes(unit);
      return { sql: this.d.truncate(x, unit, date), type: date ? 'type/Date' : 'type/DateTime', col: { ...col, base_type: date ? 'type/Date' : 'type/DateTime', effective_type: date ? 'type/Date' : 'type/DateTime' }, direct: false, raw, unit };
    }
    if (!(EXTRACTION_UNITS as readonly string[]).includes(unit)) throw new QueryCompileError(`Unknown temporal unit ${short(unit)}${where(this.clause)}.`, this.clause);
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
    if (!isObject(binning)) throw new QueryCompileError(`Invalid binning ${short(binning)}${where(this.clause)}.`, this.clause);
    const field = typeof r.col.id === 'number' ? this.fieldMeta(r.col.id) : ({ fingerprint: r.col.fingerprint } as FieldMeta);
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

  private fieldRef(id: unknown, opts: FieldOptions): Resolved {
    const ref: unknown[] = ['field', id, Object.keys(opts).length ? opts : null];
    const joinAlias = opts['join-alias'];
    if (joinAlias !== undefined && typeof joinAlias !== 'string') throw new QueryCompileError(`Invalid join-alias ${short(joinAlias)}${where(this.clause)}.`, this.clause);
    if (opts['source-field'] !== undefined && joinAlias === undefined) {
      if (this.base.kind === 'any-table') throw new QueryCompileError(`Implicit joins (source-field) are not possible in a native field filter${where(this.clause)}.`, this.clause);
      return this.implicitRef(id, opts['source-field'], ref);
    }
    let source: Source;
    if (joinAlias !== undefined) {
      const j = this.joins.get(joinAlias);
      if (!j) {
        // A column that a join of the source query brought in, referred to as it was there.
        const inner = this.base.kind === 'query' ? this.base.columns?.find((c) => c.source_alias === joinAlias && (c.id === id || c.name === `${joinAlias}__${id}`)) : undefined;
        if (inner) return this.columnOf(this.base, inner.name, { ...opts, 'join-alias': undefined }, ref);
        throw new QueryCompileError(`Unknown join alias ${JSON.stringify(joinAlias)}${where(this.clause)}.`, this.clause);
      }
      source = j.source;
    } else if (typeof id === 'number' && this.base.kind === 'table') {
      const f = this.fieldMeta(id);
      source = this.base;
      if (f.tableId !== this.base.table.id) {
        const matches = [...this.joins.values()].filter((j) => j.source.kind === 'table' && j.source.table.id === f.tableId);
        if (matches.length !== 1) {
          throw new QueryCompileError(`Field ${id} is not a column of the source table ${JSON.stringify(this.base.table.name)}${where(this.clause)}.`, this.clause);
        }
        source = matches[0].source;
      }
    } else {
      source = this.base;
    }
    return this.columnOf(source, id, opts, ref);
  }

  private columnOf(source: Source, id: unknown, opts: FieldOptions, ref: unknown[]): Resolved {
    const alias = source.kind === 'any-table' ? null : source.alias;
    const prefix = alias ? `${alias}__` : '';
    const display = (d: string) => (alias ? `${alias} → ${d}` : d);
    if (source.kind === 'any-table' || source.kind === 'table') {
      let f: FieldMeta;
      if (typeof id === 'number') {
        f = this.fieldMeta(id);
      } else if (typeof id === 'string' && source.kind === 'table') {
        const found = this.meta.tableFields(source.table.id).find((x) => x.name === id);
        if (!found) throw new QueryCompileError(`Unknown column ${JSON.stringify(id)} of table ${JSON.stringify(source.table.name)}${where(this.clause)}.`, this.clause);
        f = found;
      } else {
        throw new QueryCompileError(`Invalid field ${short(id)}${where(this.clause)}.`, this.clause);
      }
      if (source.kind === 'table') this.assertAvailable(f);
      const qualifier = source.kind === 'table' ? source.qualifier : this.tableName(this.tableMeta(f.tableId, this.clause));
      if (source.kind === 'table' && f.tableId !== source.table.id) {
        throw new QueryCompileError(`Field ${f.id} is not a column of ${JSON.stringify(alias ?? source.table.name)}${where(this.clause)}.`, this.clause);
      }
      const sql = `${qualifier}.${this.d.quoteIdent(f.name)}`;
      const col = this.fieldColumn(f, ref);
      const type = f.effectiveType ?? f.baseType;
      const named = { ...col, name: prefix + f.name, display_name: display(f.displayName), ...(alias ? { source_alias: alias } : {}) };
      return { sql, type, col: named, direct: true, raw: { sql, type } };
    }
    // A column of a source query, by id (matched against the subquery's columns) or by name.
    let name: string;
    let found: CompiledColumn | undefined;
    if (typeof id === 'number') {
      found = source.columns?.find((c) => c.id === id && !c.source_alias) ?? source.columns?.find((c) => c.id === id);
      if (!found) {
        const f = this.fieldMeta(id);
        found = source.columns?.find((c) => c.name === f.name);
        if (!found) throw new QueryCompileError(`Field ${id} is not a column of the source query${where(this.clause)}.`, this.clause);
      }
      name = found.name;
    } else if (typeof id === 'string' && id.length > 0) {
      name = id;
      found = source.columns?.find((c) => c.name === id);
      if (source.columns && !found) throw new QueryCompileError(`Unknown column ${JSON.stringify(id)} of the source query${where(this.clause)}.`, this.clause);
    } else {
      throw new QueryCompileError(`Invalid field ${short(id)}${where(this.clause)}.`, this.clause);
    }
    const sql = `${source.qualifier}.${this.d.quoteIdent(name)}`;
    const baseType = found?.base_type ?? opts['base-type'] ?? 'type/*';
    const col: CompiledColumn = found
      ? { ...found, source: 'fields', field_ref: ref, name: prefix + name, display_name: display(found.display_name), ...(alias ? { source_alias: alias } : {}) }
      : { name: prefix + name, display_name: display(name), source: 'fields', base_type: baseType, effective_type: baseType, semantic_type: null, field_ref: ref };
    delete col.unit;
    delete col.binning_info;
    const type = found ? String(found.effective_type ?? found.base_type) : baseType;
    return { sql, type, col, direct: source.kind === 'query' && found?.source === 'fields' && found.id !== undefined, raw: { sql, type } };
  }

  private implicitRef(id: unknown, fkId: unknown, ref: unknown[]): Resolved {
    const fk = this.fieldMeta(fkId);
    const target = this.fieldMeta(id);
    this.assertAvailable(target);
    const table = this.tableMeta(target.tableId, this.clause);
    const alias = `${table.name}__via__${fk.name}`;
    if (!this.implicit.has(alias)) {
      const saved = this.clause;
      const fkSql = this.fieldRef(fk.id, {}).sql;
      this.clause = saved;
      const pk = fk.fkTargetFieldId !== null ? this.fieldMeta(fk.fkTargetFieldId) : this.meta.tableFields(table.id).find((f) => f.semanticType === 'type/PK');
      if (!pk) throw new QueryCompileError(`Field ${fk.id} is not a foreign key${where(this.clause)}.`, this.clause);
      this.implicit.set(alias, { alias, table, on: `${fkSql} = ${this.d.quoteIdent(alias)}.${this.d.quoteIdent(pk.name)}` });
    }
    const sql = `${this.d.quoteIdent(alias)}.${this.d.quoteIdent(target.name)}`;
    const type = target.effectiveType ?? target.baseType;
    const col = this.fieldColumn(target, ref);
    return {
      sql,
      type,
      col: { ...col, name: `${alias}__${target.name}`, display_name: `${fkDisplayName(fk.displayName)} → ${target.displayName}`, fk_field_id: fk.id, source_alias: alias },
      direct: true,
      raw: { sql, type },
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
      const t = this.expr(exprs[name]);
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

  /**
   * A timestamp as wall-clock time in the report time zone, where the engine can convert (else unchanged:
   * UTC). Dates are calendar days and stay as they are.
   */
  /** The report time zone when the engine can bucket in it; null (UTC) otherwise. */
  reportZone(): string | null {
    const zone = this.opts.timezone;
    return zone && this.d.convertTimezone('x', `'${zone}'`, false) !== null ? zone : null;
  }

  zoned(t: Typed): Typed {
    const zone = this.opts.timezone;
    if (!zone || zone === 'UTC' || !isTemporal(t.type) || isDateType(t.type)) return t;
    // The zone goes into the SQL as a literal (so that GROUP BY and window expressions match textually), only
    // after checking it is a known IANA name made of letters, digits, '_', '+', '-' and '/'.
    let known = /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone);
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
    } catch {
      known = false;
    }
    if (!known) throw new QueryCompileError(`Unknown report time zone ${JSON.stringify(zone)}.`, 'query');
    const aware = t.type !== 'type/DateTime';
    const sql = this.d.convertTimezone(t.sql, `'${zone}'`, aware);
    return sql === null ? t : { sql, type: t.type };
  }

  arity(op: string, args: unknown[], min: number, max: number): void {
    if (args.length < min || args.length > max) {
      throw new QueryCompileError(`Wrong number of arguments to ${op}${where(this.clause)}.`, this.clause);
    }
  }

  expr(e: unknown): Typed {
    return this.expressions.expr(e);
  }

  // ---------------------------------------------------------------------------------------------- filters, aggregations

  filter(f: unknown): string {
    return this.filters.filter(f);
  }

  // ---------------------------------------------------------------------------------------------- order, limit

  private orderBy(
    orderBy: OrderBy[] | undefined,
    breakouts: Ref[],
    breakoutSql: string[],
    aggregated: boolean,
  ): string[] {
    this.clause = 'order-by';
    if (orderBy !== undefined && orderBy !== null && !Array.isArray(orderBy)) throw new QueryCompileError('"order-by" must be a list.', 'order-by');
    const out: string[] = [];
    const seen = new Set<string>();
    for (const o of orderBy ?? []) {
      if (!Array.isArray(o) || (o[0] !== 'asc' && o[0] !== 'desc')) throw new QueryCompileError(`Invalid order ${short(o)} in "order-by".`, 'order-by');
      const [dir, ref] = o;
      let sql: string;
      if (Array.isArray(ref) && ref[0] === 'aggregation') {
        const i = ref[1];
        const aggCount = (this.query.aggregation ?? []).length;
        if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= aggCount) {
          throw new QueryCompileError(`Unknown aggregation ${short(i)} in "order-by".`, 'order-by');
        }
        sql = String(breakouts.length + i + 1);
      } else {
        const r = this.resolveRef(ref);
        let pos = breakoutSql.indexOf(r.sql);
        if (pos < 0 && aggregated) pos = this.breakoutRaw.indexOf(r.raw.sql);
        if (pos >= 0 && aggregated) r.sql = breakoutSql[pos];
        sql = hasParams(r.sql) ? (pos >= 0 ? String(pos + 1) : r.sql) : r.sql;
        if (aggregated && pos < 0) throw new QueryCompileError(`Can only order by a breakout or an aggregation in an aggregated query in "order-by".`, 'order-by');
      }
      seen.add(sql);
      out.push(`${sql} ${dir.toUpperCase()}`);
    }
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
      if (typeof q.limit !== 'number' || !Number.isInteger(q.limit) || q.limit < 0) throw new QueryCompileError('"limit" must be a whole number, 0 or more.', 'limit');
      limit = q.limit;
    }
    if (q.page !== undefined && q.page !== null) {
      const { page, items } = (isObject(q.page) ? q.page : {}) as { page?: unknown; items?: unknown };
      if (typeof page !== 'number' || !Number.isInteger(page) || page < 1 || typeof items !== 'number' || !Number.isInteger(items) || items < 0) {
        throw new QueryCompileError('"page" must be {page, items} with whole numbers, page 1 or more.', 'page');
      }
      const pageOffset = (page - 1) * items;
      limit = limit === null ? items : Math.min(items, Math.max(0, limit - pageOffset));
      offset = pageOffset;
    }
    return limit === null && offset === null ? '' : this.d.limit(limit, offset);
  }
}
