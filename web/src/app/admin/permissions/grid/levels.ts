import type { EntryUpdate, GraphEntry, PerSchema } from '../../../api/permissions-graph';

/** One group's access to one database as the screen edits it: the three kinds, least values spelled out. */
export interface Access {
  view: PerSchema<string>;
  create: PerSchema<string>;
  download: PerSchema<string>;
}
export interface TableRef {
  id: number;
  schema: string | null;
}
export type Kind = keyof Access;

export const LEAST: Record<Kind, string> = { view: 'blocked', create: 'no', download: 'none' };
export const BLOCKED: Access = { view: 'blocked', create: 'no', download: 'none' };

/** The graph's entry (a least value left out) as the screen edits it. */
export const fromEntry = (e: GraphEntry | undefined): Access =>
  e ? { view: e['view-data'] ?? 'blocked', create: e['create-queries'] ?? 'no', download: e.download.schemas } : BLOCKED;

export const toUpdate = (a: Access): EntryUpdate =>
  ({ 'view-data': a.view, 'create-queries': a.create, download: { schemas: a.download } }) as EntryUpdate;

export const isGranular = (v: PerSchema<string>): v is Record<string, string | Record<string, string>> => typeof v !== 'string';

/** A table's own value of a kind: database-wide levels a table cannot have are narrowed to what it does get. */
export function tableLevel(a: Access, kind: Kind, t: TableRef): string {
  const v = a[kind];
  let level: string;
  if (typeof v === 'string') level = v;
  else {
    const s = v[t.schema ?? ''];
    level = s === undefined ? LEAST[kind] : typeof s === 'string' ? s : (s[String(t.id)] ?? LEAST[kind]);
  }
  if (kind === 'view' && (level === 'impersonated' || level === 'legacy-no-self-service')) return 'unrestricted';
  if (kind === 'create' && level === 'query-builder-and-native') return 'query-builder';
  return level;
}

/** The kind with one table's value changed: one value when every table shares it, else per schema (then per table). */
export function withTable(a: Access, kind: Kind, tables: TableRef[], changes: Map<number, string>): PerSchema<string> {
  const levels = tables.map((t) => [t, changes.get(t.id) ?? tableLevel(a, kind, t)] as const);
  // `sandboxed` is a table's (or a schema's) level only: a database under policies stays per schema.
  if (levels.length && levels.every(([, v]) => v === levels[0][1]) && levels[0][1] !== 'sandboxed') return levels[0][1];
  const out: Record<string, string | Record<string, string>> = {};
  const schemas = [...new Set(tables.map((t) => t.schema ?? ''))];
  for (const schema of schemas) {
    const own = levels.filter(([t]) => (t.schema ?? '') === schema);
    out[schema] = own.every(([, v]) => v === own[0][1]) ? own[0][1] : Object.fromEntries(own.map(([t, v]) => [String(t.id), v]));
  }
  return out;
}

/**
 * One table's levels changed together, keeping them consistent as the server wants: a blocked table can be neither
 * queried nor downloaded; a table given back its data starts with the query builder and full downloads.
 */
export function setTable(a: Access, tables: TableRef[], t: TableRef, kind: Kind, value: string): Access {
  const current = { view: tableLevel(a, 'view', t), create: tableLevel(a, 'create', t), download: tableLevel(a, 'download', t) };
  const next = { ...current, [kind]: value };
  if (kind === 'view' && value === 'blocked') Object.assign(next, { create: 'no', download: 'none' });
  else if (kind === 'view' && current.view === 'blocked') Object.assign(next, { create: 'query-builder', download: 'full' });
  const out = { ...a };
  for (const k of ['view', 'create', 'download'] as const) {
    if (next[k] !== current[k] || (k === 'create' && a.create === 'query-builder-and-native'))
      out[k] = withTable(a, k, tables, new Map([[t.id, next[k]]]));
  }
  return out;
}

/** A database-wide value, with the same consistency rules. */
export function setDatabase(a: Access, kind: Kind, value: string): Access {
  if (kind === 'view' && value === 'blocked') return BLOCKED;
  const next = { ...a, [kind]: value };
  if (kind === 'view' && a.view === 'blocked') return { view: value, create: 'query-builder', download: 'full' };
  return next;
}
