import type { DataAccess, DatabasePermission, DownloadAccess, NativeAccess } from '../../schema/database-permission.entity';
import { isPerTable, Level, levelFor, type GroupLevels, type PermissionTable } from '../warehouse';

/** A value set database-wide, or per schema: `{<schema>: value | {<table id>: value}}` (a schemaless table under ""). */
export type PerSchema<T extends string> = T | Record<string, T | Record<string, T>>;

/**
 * One group's access to one database as the graph shows it. Metabase's current keys (`view-data`, `create-queries`,
 * `download`, `data-model`, `details`; a least value is left out, as Metabase does), and beside them the keys the
 * graph had before (`data`, `native`, `upload`) so that clients written for it (our admin screen, scripts) keep
 * reading it. `download` is the same in both.
 */
export interface GraphEntry {
  'view-data'?: PerSchema<string>;
  'create-queries'?: PerSchema<string>;
  download: { schemas: PerSchema<DownloadAccess> };
  'data-model'?: { schemas: 'all' };
  details?: 'yes';
  data: DataAccess;
  native: NativeAccess;
  /** CSV uploads: shown only when granted (absent is `no`); admins always may upload. */
  upload?: 'yes';
}

export interface DataPermissionsGraph {
  revision: number;
  groups: Record<string, Record<string, GraphEntry>>;
}

export const ADMIN_ENTRY: GraphEntry = {
  'view-data': 'unrestricted',
  'create-queries': 'query-builder-and-native',
  download: { schemas: 'full' },
  'data-model': { schemas: 'all' },
  details: 'yes',
  data: 'unrestricted',
  native: 'write',
};

/**
 * A kind as the graph shows it: database-wide, or per schema, a schema whose tables all share one value shown as
 * that value; the least value is left out (undefined when nothing is more than that).
 */
export function renderLevel<T extends string>(level: Level<T>, tables: PermissionTable[], least: T): PerSchema<T> | undefined {
  if (!isPerTable(level)) return level === least ? undefined : level;
  const values = tables.map((t) => levelFor(level, t.id, least));
  if (values.every((v) => v === values[0])) return values.length && values[0] !== least ? values[0] : undefined;
  const bySchema = new Map<string, PermissionTable[]>();
  for (const t of tables) bySchema.set(t.schema ?? '', [...(bySchema.get(t.schema ?? '') ?? []), t]);
  const out: Record<string, T | Record<string, T>> = {};
  for (const [schema, inSchema] of bySchema) {
    const own = inSchema.map((t) => [t.id, levelFor(level, t.id, least)] as const);
    if (own.every(([, v]) => v === own[0][1])) {
      if (own[0][1] !== least) out[schema] = own[0][1];
      continue;
    }
    out[schema] = Object.fromEntries(own.filter(([, v]) => v !== least).map(([id, v]) => [String(id), v]));
  }
  return out;
}

/** A group's entry (not the Administrators', see ADMIN_ENTRY) from its levels on the database. */
export function renderEntry(
  levels: GroupLevels,
  grant: Pick<DatabasePermission, 'upload'> | undefined,
  tables: PermissionTable[],
): GraphEntry {
  const viewData = renderLevel(levels.viewData, tables, 'blocked');
  const createQueries = renderLevel(levels.createQueries, tables, 'no');
  const data: DataAccess = levels.viewData === 'blocked' ? 'no' : 'unrestricted';
  return {
    ...(viewData !== undefined ? { 'view-data': viewData } : {}),
    ...(createQueries !== undefined ? { 'create-queries': createQueries } : {}),
    download: { schemas: renderLevel(levels.download, tables, 'none') ?? 'none' },
    data,
    native: levels.createQueries === 'query-builder-and-native' ? 'write' : 'none',
    ...(data === 'unrestricted' && grant?.upload === 'yes' ? { upload: 'yes' as const } : {}),
  };
}

/** JSON equality regardless of key order: a value sent back as read is no change. */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}
