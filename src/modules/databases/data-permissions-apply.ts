import { ValidationError } from '../../common/errors/api-errors';
import type { CreateQueriesAccess, DatabasePermission, DownloadAccess, ViewDataAccess } from '../../schema/database-permission.entity';
import { isPerTable, Level, levelFor, NO_LEVELS, ORDER, type GroupLevels, type PermissionTable, type TableGrant } from '../warehouse';
import { sameValue, type GraphEntry, type PerSchema } from './data-permissions-graph';
import type { EntryEdit } from './data-permissions-parse';

export const NATIVE_NEEDS_DATA =
  'Invalid DB permissions: If you have write access for native queries, you must have data access to all schemas.';

/**
 * A group's levels on one database after an edit. Only the keys sent that differ from what the graph shows change
 * anything. Blocking a table (or the database) takes its queries and downloads away too; native SQL stays only with
 * every table viewable, and is refused when sent together with less.
 */
export function applyEdit(current: GroupLevels, shown: GraphEntry, edit: EntryEdit, tables: PermissionTable[], dbId: number): GroupLevels {
  if (edit.grantsAdminOnly) {
    const what = edit.grantsAdminOnly === 'details' ? 'see database details' : 'edit the data model';
    throw ValidationError.of('groups', `${edit.grantsAdminOnly} permissions are not supported: only administrators ${what}.`, edit.sent);
  }
  const changed = (key: keyof GraphEntry) => edit.sent[key] !== undefined && !sameValue(edit.sent[key], shown[key]);
  const legacyChanged = edit.legacy !== undefined && (edit.legacy.data !== shown.data || edit.legacy.native !== shown.native);
  let next: GroupLevels = { ...current };
  if (legacyChanged && !changed('view-data') && !changed('create-queries')) {
    const legacy = edit.legacy!;
    next =
      legacy.data === 'no'
        ? NO_LEVELS
        : {
            viewData: 'unrestricted',
            createQueries: legacy.native === 'write' ? 'query-builder-and-native' : 'query-builder',
            // Its `download` as sent; without one (a client of the graph before download permissions), data access
            // granted anew has always meant `full`.
            download:
              edit.download !== undefined
                ? expand<DownloadAccess>(edit.download, tables, 'none', dbId)
                : current.viewData === 'blocked'
                  ? 'full'
                  : current.download,
          };
  }
  if (changed('view-data')) next.viewData = expand<ViewDataAccess>(edit.viewData!, tables, 'blocked', dbId);
  if (changed('create-queries')) next.createQueries = expand<CreateQueriesAccess>(edit.createQueries!, tables, 'no', dbId);
  else if (edit.noSelfService) next.createQueries = 'no';
  if (changed('download') && !(legacyChanged && edit.legacy!.data === 'no'))
    next.download = expand<DownloadAccess>(edit.download!, tables, 'none', dbId);

  const wantsNative = edit.createQueries === 'query-builder-and-native';
  if (next.viewData !== 'unrestricted') {
    if (wantsNative) throw ValidationError.of('groups', NATIVE_NEEDS_DATA, edit.sent);
    if (next.createQueries === 'query-builder-and-native') next.createQueries = 'query-builder';
  }
  if (next.viewData === 'blocked') return NO_LEVELS;
  if (isPerTable(next.viewData)) {
    const view = next.viewData;
    next.createQueries = onlyViewable(next.createQueries, view, tables, 'no');
    next.download = onlyViewable(next.download, view, tables, 'none');
  }
  return next;
}

/** A per-schema value over the database's tables, collapsed to one level when every table has the same. */
export function expand<T extends string>(spec: PerSchema<string>, tables: PermissionTable[], least: T, dbId: number): Level<T> {
  if (typeof spec === 'string') return spec as T;
  const known = new Set(tables.map((t) => t.schema ?? ''));
  const byId = new Map(tables.map((t) => [t.id, t]));
  const map = new Map<number, T>();
  for (const [schema, inSchema] of Object.entries(spec)) {
    if (!known.has(schema)) throw ValidationError.of('groups', `schema "${schema}" does not exist in database ${dbId}.`, schema);
    if (typeof inSchema === 'string') {
      for (const t of tables) if ((t.schema ?? '') === schema) map.set(t.id, inSchema as T);
      continue;
    }
    for (const [id, level] of Object.entries(inSchema)) {
      const t = byId.get(Number(id));
      if (!t || (t.schema ?? '') !== schema)
        throw ValidationError.of('groups', `table ${id} does not exist in schema "${schema}" of database ${dbId}.`, id);
      map.set(t.id, level as T);
    }
  }
  return collapse(map, tables, least);
}

function collapse<T extends string>(level: Level<T>, tables: PermissionTable[], least: T): Level<T> {
  if (!isPerTable(level)) return level;
  const values = tables.map((t) => levelFor(level, t.id, least));
  return values.every((v) => v === values[0]) ? (values[0] ?? least) : level;
}

/** A kind restricted to the viewable tables: a blocked table neither takes new queries nor downloads. */
function onlyViewable<T extends string>(
  level: Level<T>,
  view: ReadonlyMap<number, ViewDataAccess>,
  tables: PermissionTable[],
  least: T,
): Level<T> {
  const map = new Map<number, T>();
  for (const t of tables) {
    const own = levelFor(level, t.id, least);
    // Per table, create-queries is at most the query builder: native SQL is database-wide.
    const capped = (own === 'query-builder-and-native' ? 'query-builder' : own) as T;
    map.set(t.id, levelFor(view, t.id, 'blocked') === 'blocked' ? least : capped);
  }
  return collapse(map, tables, least);
}

/** What is stored for a group's levels: its database row, and its per-table rows (none when every kind is database-wide). */
export function storedLevels(
  levels: GroupLevels,
  tables: PermissionTable[],
): { grant: Pick<DatabasePermission, 'data' | 'native' | 'download' | 'create_queries'>; rows: TableGrant[] } {
  const view = levels.viewData;
  const create = levels.createQueries;
  const download = levels.download;
  const grant = {
    data: view === 'blocked' ? ('no' as const) : ('unrestricted' as const),
    native: create === 'query-builder-and-native' && view === 'unrestricted' ? ('write' as const) : ('none' as const),
    // Readers of the database-wide level (pivot downloads...) get the least of a per-table download: never more.
    download: isPerTable(download) ? leastOf(tables.map((t) => levelFor(download, t.id, 'none'))) : download,
    create_queries: isPerTable(create) ? null : create,
  };
  if (!isPerTable(view) && !isPerTable(create) && !isPerTable(download)) return { grant, rows: [] };
  const rows = tables.map((t) => ({
    table_id: t.id,
    view_data: isPerTable(view) ? levelFor(view, t.id, 'blocked') : null,
    create_queries: isPerTable(create) ? (levelFor(create, t.id, 'no') as TableGrant['create_queries']) : null,
    download: isPerTable(download) ? levelFor(download, t.id, 'none') : null,
  }));
  return { grant, rows };
}

function leastOf(levels: DownloadAccess[]): DownloadAccess {
  return levels.reduce<DownloadAccess>((acc, d) => (ORDER.download.indexOf(d) < ORDER.download.indexOf(acc) ? d : acc), 'full');
}
