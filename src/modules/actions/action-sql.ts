import { MessageError } from '../../common/errors/api-errors';

/** A value bound to a write statement; never part of its text. */
export type WriteParam = string | number | null;

/** A statement for the action writer: text with `?` placeholders (the writer numbers them for Postgres) and its values. */
export interface WriteStatement {
  sql: string;
  params: WriteParam[];
}

/** A value as the write drivers bind it: booleans as 1/0, maps and lists as JSON text. */
export function bindable(v: unknown): WriteParam {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  return JSON.stringify(v);
}

const TAG = /\{\{\s*([^{}\s]+)\s*\}\}/g;
const OPTIONAL = /\[\[((?:(?!\]\]).)*)\]\]/gs;

/**
 * The SQL of a query action with its template tags bound: each `{{tag}}` becomes a placeholder and its value a
 * parameter. An optional clause `[[ ... ]]` stays only when every tag in it has a value; a tag outside one must have
 * a value (Metabase's message names it).
 */
export function bindTemplateTags(sql: string, values: ReadonlyMap<string, unknown>, displayName: (tag: string) => string): WriteStatement {
  const has = (tag: string) => values.has(tag) && values.get(tag) !== undefined && values.get(tag) !== null;
  const kept = sql.replace(OPTIONAL, (_all, inner: string) => ([...inner.matchAll(TAG)].every((m) => has(m[1])) ? inner : ''));
  const params: WriteParam[] = [];
  const text = kept.replace(TAG, (_all, tag: string) => {
    if (!has(tag)) throw new MessageError(`You'll need to pick a value for '${displayName(tag)}' before this query can run.`);
    params.push(bindable(values.get(tag)));
    return '?';
  });
  return { sql: text, params };
}

/** Metabase's slug of a column name, the id of an implicit action's parameter. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
