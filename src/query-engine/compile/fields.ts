import type { FieldOptions, Join, Ref } from '../mbql/types';
import type { FieldMeta, TableMeta } from '../metadata';
import type { ClauseContext } from './clause-context';
import type { CompiledColumn, MetadataSnapshot } from './contract';
import { QueryCompileError } from './contract';
import type { Dialect, JoinStrategy } from './dialect';
import { fkDisplayName } from './names';
import { short, where } from './params';
import type { Resolved } from './types';

/** Where the columns of one query level come from: its source and each of its joins. */
export type Source =
  | { kind: 'table'; table: TableMeta; qualifier: string; alias: string | null }
  | { kind: 'query'; qualifier: string; columns: CompiledColumn[] | null; alias: string | null }
  /** compileFilter: every field id refers to its own table, by real names. */
  | { kind: 'any-table' };

/**
 * Field resolution for one query level: `["field", id-or-name, opts]` becomes the qualified column of the source or
 * of a join (`join-alias`), with its result column. Implicit joins (`source-field`) are joins by then: the
 * `add-implicit-joins` stage added them and gave their refs the join's alias; their columns are named as Metabase
 * names them (implicitColumn). Metadata comes from the snapshot the `resolve-fields` stage loaded; sensitive fields
 * are refused (assertAvailable).
 */
export class FieldResolver {
  base!: Source;
  readonly joins = new Map<string, { join: Join; source: Source; strategy: JoinStrategy }>();

  constructor(
    private readonly d: Dialect,
    private readonly meta: MetadataSnapshot,
    /** The level: its current clause names where a reference failed. */
    private readonly cx: Pick<ClauseContext, 'clause'>,
  ) {}

  private get clause(): string {
    return this.cx.clause;
  }

  tableMeta(id: number, clause: string): TableMeta {
    let t: TableMeta | undefined;
    try {
      t = this.meta.table(id);
    } catch {
      t = undefined;
    }
    if (!t) throw new QueryCompileError(`Unknown table ${id}${where(clause)}.`, clause);
    return t;
  }

  fieldMeta(id: unknown): FieldMeta {
    if (typeof id !== 'number' || !Number.isInteger(id))
      throw new QueryCompileError(`Invalid field id ${short(id)}${where(this.clause)}.`, this.clause);
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
   * default columns of a table leave it out (defaultRefs). Native field filters (`any-table`) are not checked.
   */
  private assertAvailable(f: FieldMeta): void {
    if (f.visibilityType === 'sensitive') {
      throw new QueryCompileError(
        `Field ${f.id} (${JSON.stringify(f.name)}) is not available: it is marked sensitive${where(this.clause)}.`,
        this.clause,
      );
    }
  }

  tableName(t: TableMeta): string {
    return t.schema ? `${this.d.quoteIdent(t.schema)}.${this.d.quoteIdent(t.name)}` : this.d.quoteIdent(t.name);
  }

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

  /** The columns a source gives when none are listed: a table's visible fields in order, a source query's columns. */
  defaultRefs(source: Source, joinAlias: string | null): Ref[] {
    const opts = (extra: FieldOptions = {}): FieldOptions | null =>
      joinAlias ? { ...extra, 'join-alias': joinAlias } : Object.keys(extra).length ? extra : null;
    if (source.kind === 'table') {
      return this.meta
        .tableFields(source.table.id)
        .filter((f) => f.visibilityType !== 'sensitive' && f.visibilityType !== 'retired')
        .sort((a, b) => a.position - b.position)
        .map((f) => ['field', f.id, opts()]);
    }
    if (source.kind === 'query') {
      if (!source.columns)
        throw new QueryCompileError(`The columns of the native source query are unknown; list them in "fields".`, 'fields');
      return source.columns.map((c) => ['field', c.name, opts({ 'base-type': c.base_type })]);
    }
    return [];
  }

  /** `["field", id, opts]` without its bucketing or binning (the level applies those). */
  field(id: unknown, opts: FieldOptions): Resolved {
    const ref: unknown[] = ['field', id, Object.keys(opts).length ? opts : null];
    const joinAlias = opts['join-alias']; // validate.ts: a string when present
    if (opts['source-field'] !== undefined && joinAlias === undefined) {
      if (this.base.kind === 'any-table')
        throw new QueryCompileError(
          `Implicit joins (source-field) are not possible in a native field filter${where(this.clause)}.`,
          this.clause,
        );
      throw new QueryCompileError(
        `The implicit join through field ${short(opts['source-field'])} should have been added before compiling` +
          ` (add-implicit-joins)${where(this.clause)}.`,
        this.clause,
      );
    }
    let source: Source;
    if (joinAlias !== undefined) {
      const j = this.joins.get(joinAlias);
      if (!j) {
        // A column that a join of the source query brought in, referred to as it was there.
        const inner =
          this.base.kind === 'query'
            ? this.base.columns?.find((c) => c.source_alias === joinAlias && (c.id === id || c.name === `${joinAlias}__${id}`))
            : undefined;
        if (inner) return this.columnOf(this.base, inner.name, { ...opts, 'join-alias': undefined }, ref);
        throw new QueryCompileError(`Unknown join alias ${JSON.stringify(joinAlias)}${where(this.clause)}.`, this.clause);
      }
      if (isImplicit(j.join) && opts['source-field'] !== undefined) return this.implicitColumn(j.join, j.source, id, opts);
      source = j.source;
    } else if (typeof id === 'number' && this.base.kind === 'table') {
      const f = this.fieldMeta(id);
      source = this.base;
      if (f.tableId !== this.base.table.id) {
        const matches = [...this.joins.values()].filter(
          (j) => !isImplicit(j.join) && j.source.kind === 'table' && j.source.table.id === f.tableId,
        );
        if (matches.length !== 1) {
          throw new QueryCompileError(
            `Field ${id} is not a column of the source table ${JSON.stringify(this.base.table.name)}${where(this.clause)}.`,
            this.clause,
          );
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
        if (!found)
          throw new QueryCompileError(
            `Unknown column ${JSON.stringify(id)} of table ${JSON.stringify(source.table.name)}${where(this.clause)}.`,
            this.clause,
          );
        f = found;
      } else {
        throw new QueryCompileError(`Invalid field ${short(id)}${where(this.clause)}.`, this.clause);
      }
      if (source.kind === 'table') this.assertAvailable(f);
      const qualifier = source.kind === 'table' ? source.qualifier : this.tableName(this.tableMeta(f.tableId, this.clause));
      if (source.kind === 'table' && f.tableId !== source.table.id) {
        throw new QueryCompileError(
          `Field ${f.id} is not a column of ${JSON.stringify(alias ?? source.table.name)}${where(this.clause)}.`,
          this.clause,
        );
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
    } else {
      // validate.ts: a field is named by an id or a non-empty column name.
      name = id as string;
      found = source.columns?.find((c) => c.name === id);
      if (source.columns && !found)
        throw new QueryCompileError(`Unknown column ${JSON.stringify(id)} of the source query${where(this.clause)}.`, this.clause);
    }
    const sql = `${source.qualifier}.${this.d.quoteIdent(name)}`;
    const baseType = found?.base_type ?? opts['base-type'] ?? 'type/*';
    const col: CompiledColumn = found
      ? {
          ...found,
          source: 'fields',
          field_ref: ref,
          name: prefix + name,
          display_name: display(found.display_name),
          ...(alias ? { source_alias: alias } : {}),
        }
      : {
          name: prefix + name,
          display_name: display(name),
          source: 'fields',
          base_type: baseType,
          effective_type: baseType,
          semantic_type: null,
          field_ref: ref,
        };
    delete col.unit;
    delete col.binning_info;
    const type = found ? String(found.effective_type ?? found.base_type) : baseType;
    return { sql, type, col, direct: source.kind === 'query' && found?.source === 'fields' && found.id !== undefined, raw: { sql, type } };
  }

  /**
   * The ref a result column answers with: an implicit join's ref as it was sent (`source-field`, without the alias
   * add-implicit-joins gave it), any other ref as it is.
   */
  answeredRef(ref: unknown[]): unknown[] {
    const opts = ref[2] as FieldOptions | null | undefined;
    const alias = opts?.['join-alias'];
    if (ref[0] !== 'field' || !opts || opts['source-field'] === undefined || alias === undefined) return ref;
    const j = this.joins.get(alias);
    if (!j || !isImplicit(j.join)) return ref;
    const { 'join-alias': _alias, ...sent } = opts;
    return [ref[0], ref[1], sent];
  }

  /** A field of another table reached through a foreign key (an implicit join): `PEOPLE__via__USER_ID__STATE`, `User → State`. */
  private implicitColumn(join: Join, source: Source, id: unknown, opts: FieldOptions): Resolved {
    const fk = this.fieldMeta(join['fk-field-id']);
    const target = this.fieldMeta(id);
    const ref = this.answeredRef(['field', id, opts]);
    const r = this.columnOf(source, id, opts, ref);
    const { source_alias: alias, ...col } = r.col;
    return {
      ...r,
      col: { ...col, display_name: `${fkDisplayName(fk.displayName)} → ${target.displayName}`, fk_field_id: fk.id, source_alias: alias },
    };
  }
}

/** A join the add-implicit-joins stage added. */
function isImplicit(join: Join): boolean {
  return join['qp/implicit-join'] === true;
}
