import { clause, expressionName, refKey, type Clause } from './mbql';

/**
 * The columns a step can pick from, each with the MBQL 5 reference that names it. Read from
 * `GET /api/table/:id/query_metadata` and `GET /api/table/card__:id/query_metadata` (src/modules/tables/
 * table-metadata.service.ts): a table's fields by id; a saved question's columns by name, as Metabase's clients refer
 * to the columns of a card (its `id` may be a legacy ref of a native column).
 */
export interface MetadataField {
  id: number | unknown[];
  name: string;
  display_name: string;
  base_type: string;
  effective_type?: string | null;
  semantic_type: string | null;
  fk_target_field_id?: number | null;
  /** The field's stored values (field-hydrator.ts): `[[value], ...]`, or `[[value, shown as], ...]` when remapped. */
  values?: unknown[][];
  /** A foreign key's target field (field-hydrator.ts), with the table whose columns it brings. */
  target?: { id: number; table_id: number } | null;
}

export interface TableMetadata {
  id: number | string;
  db_id: number;
  display_name: string;
  fields: MetadataField[];
}

export interface Column {
  /** refKey of `ref`: what identifies it in a clause, whatever the clause's uuid and bucketing. */
  key: string;
  name: string;
  displayName: string;
  /** Where it comes from: the table, a join's alias, or "Custom column". */
  group: string;
  baseType: string;
  semanticType: string | null;
  fkTarget: number | null;
  /** The reference without a uuid (fresh() gives it one when it goes into the query). */
  ref: Clause;
  /** The values to pick from in a filter, as [value, label]; absent when the server keeps none. */
  values?: Array<[string, string]>;
}

function valueList(f: MetadataField): Array<[string, string]> | undefined {
  if (!Array.isArray(f.values) || f.values.length === 0) return undefined;
  return f.values.filter((v) => Array.isArray(v) && v[0] !== null).map((v) => [String(v[0]), String(v[1] ?? v[0])]);
}

export type ColumnKind = 'text' | 'number' | 'date' | 'boolean' | 'other';

export function kindOf(baseType: string): ColumnKind {
  if (/Text|String|UUID/.test(baseType)) return 'text';
  if (/Integer|Float|Decimal|Number/.test(baseType)) return 'number';
  if (/Date|Time/.test(baseType)) return 'date';
  if (/Boolean/.test(baseType)) return 'boolean';
  return 'other';
}

const bareRef = (id: unknown, options: Record<string, unknown>): Clause => ['field', options, id];

/** The columns of the data step's source. `byName`: a saved question's columns, named by their name. */
export function sourceColumns(meta: TableMetadata, byName: boolean, alias?: string): Column[] {
  return meta.fields.map((f) => {
    const baseType = f.effective_type ?? f.base_type ?? 'type/*';
    const options: Record<string, unknown> = { 'base-type': baseType, ...(alias ? { 'join-alias': alias } : {}) };
    const ref = bareRef(byName || typeof f.id !== 'number' ? f.name : f.id, options);
    return {
      key: refKey(ref),
      name: f.name,
      displayName: f.display_name,
      group: alias ?? meta.display_name,
      baseType,
      semanticType: f.semantic_type,
      fkTarget: f.fk_target_field_id ?? null,
      ref,
      values: valueList(f),
    };
  });
}

/**
 * The columns reached through the source table's foreign keys, as Metabase offers them without a join
 * ("Product → Category"): `["field", {source-field: <fk id>}, <target table's field>]`, which the engine joins itself.
 */
export function implicitColumns(source: TableMetadata, targets: TableMetadata[]): Column[] {
  return source.fields.flatMap((fk) => {
    const table = typeof fk.id === 'number' && fk.target ? targets.find((t) => t.id === fk.target!.table_id) : undefined;
    if (!table) return [];
    const group = fk.display_name.replace(/\s*ID$/i, '') || table.display_name;
    return table.fields.map((f) => {
      const baseType = f.effective_type ?? f.base_type ?? 'type/*';
      const ref: Clause = ['field', { 'base-type': baseType, 'source-field': fk.id }, f.id];
      return {
        key: refKey(ref),
        name: f.name,
        displayName: f.display_name,
        group,
        baseType,
        semanticType: f.semantic_type,
        fkTarget: null,
        ref,
        values: valueList(f),
      };
    });
  });
}

/** The custom columns as columns (their type guessed from their clause: the server's own metadata is not asked). */
export function expressionColumns(expressions: Clause[]): Column[] {
  return expressions.map((e) => {
    const name = expressionName(e);
    const baseType = guessType(e);
    const ref: Clause = ['expression', { 'base-type': baseType }, name];
    return { key: refKey(ref), name, displayName: name, group: 'Custom columns', baseType, semanticType: null, fkTarget: null, ref };
  });
}

const TEXT_FNS = new Set(['concat', 'substring', 'lower', 'upper', 'trim', 'ltrim', 'rtrim', 'replace', 'regex-match-first']);
const BOOL_FNS = new Set([
  'contains',
  'does-not-contain',
  'starts-with',
  'ends-with',
  'is-null',
  'not-null',
  'is-empty',
  'not-empty',
  'and',
  'or',
  'not',
  '=',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  'between',
]);
const DATE_FNS = new Set(['datetime-add', 'datetime-subtract', 'now']);

function guessType(e: Clause): string {
  const op = e[0];
  if (TEXT_FNS.has(op)) return 'type/Text';
  if (BOOL_FNS.has(op)) return 'type/Boolean';
  if (DATE_FNS.has(op)) return 'type/DateTime';
  if (op === 'value') return typeof e[2] === 'string' ? 'type/Text' : typeof e[2] === 'boolean' ? 'type/Boolean' : 'type/Float';
  if (op === 'case' || op === 'if' || op === 'coalesce') {
    const first = op === 'coalesce' ? e[2] : (e[2] as unknown[][] | undefined)?.[0]?.[1];
    if (typeof first === 'string') return 'type/Text';
    if (Array.isArray(first) && Array.isArray(first[1]) === false && typeof first[1] === 'object') {
      const base = (first[1] as Record<string, unknown>)['base-type'];
      if (typeof base === 'string') return base;
    }
  }
  return 'type/Float';
}

/** A ref of the query (with uuid and bucketing) to the column it names; undefined for a column the notebook does not know. */
export function findColumn(columns: Column[], ref: unknown): Column | undefined {
  const key = refKey(ref);
  return columns.find((c) => c.key === key);
}

/** A ref freshly made for the query: the column's reference with a uuid and extra options. */
export function refTo(column: Column, options: Record<string, unknown> = {}): Clause {
  return clause(column.ref[0], { ...column.ref[1], ...options }, ...column.ref.slice(2));
}

/** A column's label in a picker and in a step's summary: "Total", or "Products → Category" for a joined one. */
export function columnLabel(c: Column, source: string): string {
  return c.group === source || c.ref[0] === 'expression' ? c.displayName : `${c.group} → ${c.displayName}`;
}

/** A foreign key from the left columns into the joined table, or from the joined table into the left columns. */
export function suggestCondition(left: Column[], right: Column[]): [Column, Column] | null {
  for (const l of left) {
    const r = l.fkTarget !== null ? right.find((c) => c.ref[2] === l.fkTarget) : undefined;
    if (r) return [l, r];
  }
  for (const r of right) {
    const l = r.fkTarget !== null ? left.find((c) => c.ref[2] === r.fkTarget && !c.ref[1]['join-alias']) : undefined;
    if (l) return [l, r];
  }
  return null;
}
