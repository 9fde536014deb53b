import type { SqlCompiler, MetadataSnapshot } from '../compile/contract';
import type { SqlParam } from '../types';
import type { CardSource, ContentResolver, FieldMeta, MetadataProvider, TableMeta } from '../metadata';
import type { NativeQuery, ParameterValue, TemplateTag } from '../mbql/types';
import { parseDateParam, type StartOfWeek } from '../parameters/date-params';
import { ParameterError } from '../parameters/errors';
import { hasValue, parameterToFilter, parameterValues, parseNumber } from '../parameters/to-filter';
import { trimTrailingSemicolons } from '../sql-text';
import { findSnippetTags, parseNativeQuery, parseTagName, referencedTags, type TagRef } from './parse';

/**
 * Template-tag substitution for native queries (Metabase's template tags: text, number, date, dimension, card, snippet).
 *
 * - `{{x}}` for text/number/date tags: `?` bound to the value (several values: `?, ?, ?`); date tags go through
 *   `castDate('?')` when the caller supplies it.
 * - `dimension` tags (field filters): the parameter becomes a condition on the mapped field, compiled by
 *   SqlCompiler.compileFilter and wrapped in parentheses; `1 = 1` without a value.
 * - `{{#12}}` / `{{#12-slug}}`: the card inlined as `(<card sql>)`. Native cards are substituted here with their
 *   own tags' defaults; MBQL cards come from `compileCard`. Cycles and depth are checked.
 * - `{{snippet: name}}`: the snippet's content, expanded first (snippets may hold tags and other snippets).
 * - `[[ ... ]]`: dropped when a tag inside has no value.
 * Every user value ends up in `params`; only snippet content and card SQL become SQL text.
 */
export interface NativeContext {
  /** Field look-ups for field filters. */
  meta?: MetadataProvider;
  /** Compiles field filters. */
  compiler?: SqlCompiler;
  /** Cards for `{{#12}}`, snippets for `{{snippet: x}}`. */
  content?: ContentResolver;
  /** SQL of an MBQL card (`chain`: the card ids being expanded, this one last; pass it on to nested expansions). */
  compileCard?: (card: CardSource, chain: readonly number[]) => Promise<{ sql: string; params: SqlParam[] }>;
  /** Dialect hook for date tags: `castDate('?')` -> `CAST(? AS DATE)`. `unit` is `minute` when the value has a time. */
  castDate?: (placeholder: string, unit: 'day' | 'minute') => string;
  /** Report time zone; relative dates and field filters use it. */
  timezone?: string | null;
  now?: Date;
  startOfWeek?: StartOfWeek;
  /** The query's database: inlined cards must be on it. */
  databaseId?: number;
  /** Relative dates in field filters: resolved to a range here (default) or left to the compiler as `time-interval`. */
  relativeDates?: 'range' | 'time-interval';
  /** Default 10. */
  maxSnippetDepth?: number;
  /** Default 10. */
  maxCardDepth?: number;
  /** Card ids being expanded (set by nested card expansion). */
  cardChain?: readonly number[];
}

export interface SubstitutedQuery {
  sql: string;
  params: SqlParam[];
}

type Fragment = SubstitutedQuery;

const DEFAULT_DEPTH = 10;

export async function substituteNative(
  native: NativeQuery,
  parameters: readonly ParameterValue[] | undefined = [],
  ctx: NativeContext = {},
): Promise<SubstitutedQuery> {
  if (!native || typeof native.query !== 'string') throw new ParameterError('Native query must be a string');
  const tags = native['template-tags'] ?? {};
  const text = await expandSnippets(native.query, tags, ctx, []);
  const segments = parseNativeQuery(text);
  const values = collectParameterValues(parameters ?? [], tags);

  const cache = new Map<string, Fragment | null>();
  const resolve = async (ref: TagRef): Promise<Fragment | null> => {
    if (!cache.has(ref.name)) cache.set(ref.name, await resolveTag(ref, tags, values, ctx));
    return cache.get(ref.name)!;
  };

  const sql: string[] = [];
  const params: SqlParam[] = [];
  const emit = (f: Fragment) => {
    sql.push(f.sql);
    params.push(...f.params);
  };
  for (const seg of segments) {
    if (seg.kind === 'text') sql.push(seg.text);
    else if (seg.kind === 'tag') {
      const f = await resolve(seg.ref);
      if (f) emit(f);
      else emit(noValue(seg.ref, tags));
    } else {
      // Values first: a clause that is dropped does not fetch or compile the cards inside it.
      let keep = true;
      for (const p of seg.pieces) if (p.kind === 'tag' && p.ref.kind !== 'card' && !(await resolve(p.ref))) keep = false;
      if (!keep) continue;
      for (const p of seg.pieces) emit(p.kind === 'text' ? { sql: p.text, params: [] } : (await resolve(p.ref))!);
    }
  }
  return { sql: sql.join(''), params };
}

/** Checks that every `{{variable}}` has a definition and every definition is usable. Throws ParameterError. */
export function validateTemplateTags(native: NativeQuery): void {
  const tags = native['template-tags'] ?? {};
  for (const r of referencedTags(native.query)) {
    const ref = parseTagName(r.name);
    const tag = findTag(ref, tags);
    if (ref.kind === 'variable' && !tag) {
      throw new ParameterError(`The query refers to {{${ref.name}}}, which has no template tag definition`, ref.name);
    }
  }
  for (const [key, tag] of Object.entries(tags)) {
    if (!tag || typeof tag !== 'object') throw new ParameterError(`Invalid template tag "${key}"`, key);
    if (!['text', 'number', 'date', 'dimension', 'card', 'snippet'].includes(tag.type)) {
      throw new ParameterError(`Template tag "${key}" has an unknown type ${JSON.stringify(tag.type)}`, key);
    }
    if (tag.type === 'dimension' && !isFieldIdRef(tag.dimension)) {
      throw new ParameterError(`Template tag "${key}" is a field filter without a field`, key);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------

function isFieldIdRef(ref: unknown): ref is ['field', number, unknown] {
  return Array.isArray(ref) && ref[0] === 'field' && typeof ref[1] === 'number';
}

function displayName(ref: TagRef, tag: TemplateTag | undefined): string {
  return tag?.['display-name'] || tag?.name || ref.name;
}

function missing(ref: TagRef, tag: TemplateTag | undefined): ParameterError {
  return new ParameterError(`You'll need to pick a value for '${displayName(ref, tag)}' before this query can run.`, ref.name);
}

/** A tag without a value outside an optional clause. */
function noValue(ref: TagRef, tags: Record<string, TemplateTag>): Fragment {
  const tag = findTag(ref, tags);
  if (tag?.type === 'dimension' && !tag.required) return { sql: '1 = 1', params: [] };
  throw missing(ref, tag);
}

function findTag(ref: TagRef, tags: Record<string, TemplateTag>): TemplateTag | undefined {
  const own = Object.prototype.hasOwnProperty.call(tags, ref.name) ? tags[ref.name] : undefined;
  if (own) return own;
  const all = Object.values(tags).filter((t) => t && typeof t === 'object');
  const byName = all.find((t) => t.name === ref.name);
  if (byName) return byName;
  if (ref.kind === 'card') return all.find((t) => t.type === 'card' && t['card-id'] === ref.cardId);
  if (ref.kind === 'snippet') return all.find((t) => t.type === 'snippet' && t['snippet-name'] === ref.snippetName);
  return undefined;
}

/**
 * Values sent with the request, by tag name. Targets: `["variable" | "dimension", ["template-tag", <name>]]`, or
 * `["template-tag", {"id": <tag id>}]` as newer clients send.
 */
function collectParameterValues(parameters: readonly ParameterValue[], tags: Record<string, TemplateTag>): Map<string, ParameterValue> {
  const out = new Map<string, ParameterValue>();
  for (const p of parameters) {
    if (!p || typeof p !== 'object') throw new ParameterError('Invalid parameter: expected an object');
    const t = p.target;
    if (!Array.isArray(t) || (t[0] !== 'variable' && t[0] !== 'dimension') || !Array.isArray(t[1])) {
      throw new ParameterError(`Invalid parameter target ${JSON.stringify(t) ?? String(t)} for a native query`);
    }
    const inner = t[1] as unknown[];
    if (inner[0] !== 'template-tag') {
      throw new ParameterError(`Invalid parameter target ${JSON.stringify(t)} for a native query: expected a template tag`);
    }
    let name = inner[1];
    if (name && typeof name === 'object' && typeof (name as { id?: unknown }).id === 'string') {
      const id = (name as { id: string }).id;
      name = Object.values(tags).find((tag) => tag && tag.id === id)?.name;
      if (name === undefined) continue; // a tag this query does not have
    }
    if (typeof name !== 'string' || !name.trim()) throw new ParameterError(`Invalid parameter target ${JSON.stringify(t)}`);
    // A later value for the same tag wins; an empty one does not hide an earlier real value.
    const key = name.trim();
    if (!out.has(key) || hasValue(p.value)) out.set(key, p);
  }
  return out;
}

async function expandSnippets(text: string, tags: Record<string, TemplateTag>, ctx: NativeContext, stack: string[]): Promise<string> {
  const matches = findSnippetTags(text);
  if (matches.length === 0) return text;
  const max = ctx.maxSnippetDepth ?? DEFAULT_DEPTH;
  if (stack.length >= max) throw new ParameterError(`Snippets are nested too deeply (more than ${max} levels): ${stack.join(' -> ')}`);
  let out = '';
  let last = 0;
  for (const m of matches) {
    const ref = parseTagName(m.inner) as Extract<TagRef, { kind: 'snippet' }>;
    const tag = findTag(ref, tags);
    const key: string | number = tag?.['snippet-id'] ?? tag?.['snippet-name'] ?? ref.snippetName;
    if (!ctx.content) throw new Error('Snippets need a content resolver');
    const snippet = await ctx.content.snippet(key);
    if (!snippet) throw new ParameterError(`Snippet "${ref.snippetName}" does not exist`, ref.name);
    if (stack.includes(snippet.name)) {
      throw new ParameterError(`Snippet "${snippet.name}" refers to itself: ${[...stack, snippet.name].join(' -> ')}`, ref.name);
    }
    out += text.slice(last, m.index) + (await expandSnippets(snippet.content, tags, ctx, [...stack, snippet.name]));
    last = m.index + m.length;
  }
  return out + text.slice(last);
}

async function resolveTag(
  ref: TagRef,
  tags: Record<string, TemplateTag>,
  values: Map<string, ParameterValue>,
  ctx: NativeContext,
): Promise<Fragment | null> {
  if (ref.kind === 'snippet') throw new ParameterError(`Snippet {{${ref.name}}} was not expanded`, ref.name);
  const tag = findTag(ref, tags);
  if (ref.kind === 'card') return inlineCard(tag?.['card-id'] ?? ref.cardId, ref, ctx);
  if (!tag) throw new ParameterError(`The query refers to {{${ref.name}}}, which has no template tag definition`, ref.name);

  const param = values.get(ref.name) ?? (tag.name ? values.get(tag.name) : undefined);
  let value = param?.value;
  let type = param?.type;
  if (!hasValue(value)) {
    value = tag.default;
    type = tag['widget-type'];
  }
  if (!hasValue(value)) {
    if (tag.required) throw missing(ref, tag);
    return null;
  }
  const list = parameterValues(value);
  switch (tag.type) {
    case 'text':
      return placeholders(list.map((v) => textValue(v, ref, tag)));
    case 'number':
      return placeholders(list.flatMap((v) => numberValues(v, ref, tag)));
    case 'date':
      return dateValues(list, ref, tag, ctx);
    case 'dimension':
      return fieldFilter(ref, tag, { type: type || tag['widget-type'] || 'category', value }, ctx);
    case 'card':
      return inlineCard(tag['card-id'] ?? Number.NaN, ref, ctx);
    case 'snippet':
      throw new ParameterError(`Template tag {{${ref.name}}} is a snippet; write it as {{snippet: name}}`, ref.name);
    default:
      throw new ParameterError(`Template tag "${ref.name}" has an unknown type ${JSON.stringify((tag as TemplateTag).type)}`, ref.name);
  }
}

function placeholders(params: SqlParam[]): Fragment {
  return { sql: params.map(() => '?').join(', '), params };
}

function textValue(v: unknown, ref: TagRef, tag: TemplateTag): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new ParameterError(`Invalid value for '${displayName(ref, tag)}': ${JSON.stringify(v)}`, ref.name);
}

/** Numbers; a string may hold several separated by commas (`"1, 2, 3"`), as Metabase's number widget sends. */
function numberValues(v: unknown, ref: TagRef, tag: TemplateTag): number[] {
  const what = `'${displayName(ref, tag)}'`;
  try {
    if (typeof v === 'string' && v.includes(',')) return v.split(',').map((s) => parseNumber(s, what));
    return [parseNumber(v, what)];
  } catch (e) {
    if (e instanceof ParameterError) throw new ParameterError(e.message, ref.name);
    throw e;
  }
}

function dateValues(list: unknown[], ref: TagRef, tag: TemplateTag, ctx: NativeContext): Fragment {
  const params: SqlParam[] = [];
  const sql: string[] = [];
  for (const v of list) {
    let parsed;
    try {
      parsed = parseDateParam(v, { now: ctx.now, timezone: ctx.timezone, startOfWeek: ctx.startOfWeek });
    } catch (e) {
      if (e instanceof ParameterError) throw new ParameterError(`Invalid value for '${displayName(ref, tag)}': ${e.message}`, ref.name);
      throw e;
    }
    const single =
      parsed.kind === 'range' &&
      parsed.start !== undefined &&
      (parsed.unit === 'day' || parsed.unit === 'minute') &&
      (parsed.relative === undefined || parsed.relative.unit === 'day') &&
      isOneUnit(parsed.start, parsed.end, parsed.unit);
    if (!single || parsed.kind !== 'range') {
      throw new ParameterError(`'${displayName(ref, tag)}' needs a single date, got ${JSON.stringify(v)}`, ref.name);
    }
    const unit = parsed.unit as 'day' | 'minute';
    params.push(parsed.start!);
    sql.push(ctx.castDate ? ctx.castDate('?', unit) : '?');
  }
  return { sql: sql.join(', '), params };
}

function isOneUnit(start: string, end: string | undefined, unit: 'day' | 'minute'): boolean {
  if (end === undefined) return false;
  const ms =
    Date.parse(`${end.length === 10 ? `${end}T00:00:00` : end}Z`) - Date.parse(`${start.length === 10 ? `${start}T00:00:00` : start}Z`);
  return ms === (unit === 'day' ? 86_400_000 : 60_000);
}

async function fieldFilter(
  ref: TagRef,
  tag: TemplateTag,
  param: { type: string; value: unknown },
  ctx: NativeContext,
): Promise<Fragment | null> {
  const dim = tag.dimension;
  if (!isFieldIdRef(dim)) throw new ParameterError(`Template tag "${ref.name}" is a field filter without a field`, ref.name);
  if (!ctx.meta || !ctx.compiler) throw new Error('Field filters need a metadata provider and a compiler');
  const field = await ctx.meta.field(dim[1]);
  if (!field) throw new ParameterError(`Field ${dim[1]} of template tag "${ref.name}" does not exist`, ref.name);
  const table = await ctx.meta.table(field.tableId);
  if (!table) throw new ParameterError(`Table ${field.tableId} of template tag "${ref.name}" does not exist`, ref.name);
  // Another database's field: not one to read metadata of, or to compile into this database's SQL.
  if (ctx.databaseId !== undefined && table.dbId !== ctx.databaseId) {
    throw new ParameterError(`Field ${dim[1]} of template tag "${ref.name}" does not exist in database ${ctx.databaseId}`, ref.name);
  }
  const fields = await ctx.meta.tableFields(table.id);
  let filter;
  try {
    filter = parameterToFilter(param, ['field', field.id, null], {
      baseType: field.effectiveType ?? field.baseType,
      now: ctx.now,
      timezone: ctx.timezone,
      startOfWeek: ctx.startOfWeek,
      relativeDates: ctx.relativeDates ?? 'range',
    });
  } catch (e) {
    if (e instanceof ParameterError) throw new ParameterError(`Invalid value for '${displayName(ref, tag)}': ${e.message}`, ref.name);
    throw e;
  }
  if (!filter) return null;
  const compiled = ctx.compiler.compileFilter(filter, snapshotOf(table, field, fields), { timezone: ctx.timezone ?? null });
  return { sql: `(${compiled.sql})`, params: [...compiled.params] };
}

/** The metadata of one table, for compiling a filter on one of its fields. */
function snapshotOf(table: TableMeta, field: FieldMeta, fields: FieldMeta[]): MetadataSnapshot {
  const byId = new Map(fields.map((f) => [f.id, f]));
  byId.set(field.id, field);
  return {
    table(id) {
      if (id !== table.id) throw new ParameterError(`Table ${id} is not available to this field filter`);
      return table;
    },
    field(id) {
      const f = byId.get(id);
      if (!f) throw new ParameterError(`Field ${id} is not available to this field filter`);
      return f;
    },
    tableFields(id) {
      if (id !== table.id) throw new ParameterError(`Table ${id} is not available to this field filter`);
      return fields;
    },
  };
}

async function inlineCard(cardId: number, ref: TagRef, ctx: NativeContext): Promise<Fragment> {
  if (!Number.isSafeInteger(cardId) || cardId <= 0) throw new ParameterError(`Template tag "${ref.name}" does not name a card`, ref.name);
  const chain = ctx.cardChain ?? [];
  if (chain.includes(cardId)) {
    throw new ParameterError(
      `This query has circular referencing sub-queries: ${[...chain, cardId].map((id) => `#${id}`).join(' -> ')}`,
      ref.name,
    );
  }
  const max = ctx.maxCardDepth ?? DEFAULT_DEPTH;
  if (chain.length >= max) throw new ParameterError(`Sub-queries are nested too deeply (more than ${max} levels)`, ref.name);
  if (!ctx.content) throw new Error('Card references need a content resolver');
  const card = await ctx.content.card(cardId);
  if (!card) throw new ParameterError(`Card ${cardId} does not exist`, ref.name);
  if (ctx.databaseId !== undefined && card.databaseId !== ctx.databaseId) {
    throw new ParameterError(`Card ${cardId} is on another database`, ref.name);
  }
  const nextChain = [...chain, cardId];
  let inner: SubstitutedQuery;
  if (card.query.type === 'native') {
    if (!card.query.native) throw new ParameterError(`Card ${cardId} has no query`, ref.name);
    inner = await substituteNative(card.query.native, card.query.parameters ?? [], {
      ...ctx,
      cardChain: nextChain,
      databaseId: card.databaseId,
    });
  } else {
    if (!ctx.compileCard) throw new Error('MBQL card references need compileCard');
    inner = await ctx.compileCard(card, nextChain);
  }
  let sql = trimTrailingSemicolons(inner.sql);
  // A trailing line comment would swallow the closing parenthesis.
  if (sql.includes('--')) sql += '\n';
  return { sql: `(${sql})`, params: [...inner.params] };
}
