import type { CreateQueriesAccess, DatabasePermission, DownloadAccess, ViewDataAccess } from '../../schema/database-permission.entity';
import type { TablePermission } from '../../schema/table-permission.entity';

/** A kind set database-wide, or per table (a table missing from the map has the least of that kind). */
export type Level<T> = T | ReadonlyMap<number, T>;

/** One group's access to one database in Metabase's terms (view-data, create-queries, download). */
export interface GroupLevels {
  viewData: Level<ViewDataAccess>;
  createQueries: Level<CreateQueriesAccess>;
  download: Level<DownloadAccess>;
}

export type DatabaseGrant = Pick<DatabasePermission, 'data' | 'native' | 'download' | 'create_queries'>;
export type TableGrant = Pick<TablePermission, 'table_id' | 'view_data' | 'create_queries' | 'download'>;

export const NO_LEVELS: GroupLevels = { viewData: 'blocked', createQueries: 'no', download: 'none' };
export const FULL_LEVELS: GroupLevels = { viewData: 'unrestricted', createQueries: 'query-builder-and-native', download: 'full' };

/** Each kind's values from the least to the most generous: the least is what a table without a value has. */
export const ORDER = {
  viewData: ['blocked', 'unrestricted'] as ViewDataAccess[],
  createQueries: ['no', 'query-builder', 'query-builder-and-native'] as CreateQueriesAccess[],
  download: ['none', 'limited', 'full'] as DownloadAccess[],
};

export function isPerTable<T>(level: Level<T>): level is ReadonlyMap<number, T> {
  return level instanceof Map;
}

/** The value a kind gives one table. */
export function levelFor<T extends string>(level: Level<T>, tableId: number, least: T): T {
  return isPerTable(level) ? (level.get(tableId) ?? least) : level;
}

function most<T extends string>(order: T[], a: T, b: T): T {
  return order.indexOf(a) >= order.indexOf(b) ? a : b;
}

/**
 * What a group's stored rows say: no database row is no access; a kind with any table value is per table. Native
 * SQL is database-wide and needs every table viewable, so a per-table view never comes with it.
 */
export function levelsOf(grant: DatabaseGrant | undefined, tables: TableGrant[]): GroupLevels {
  if (!grant) return NO_LEVELS;
  const perTable = <K extends 'view_data' | 'create_queries' | 'download'>(key: K) => {
    const rows = tables.filter((t) => t[key] !== null);
    return rows.length ? new Map(rows.map((t) => [t.table_id, t[key] as NonNullable<TableGrant[K]>])) : null;
  };
  const viewData = perTable('view_data') ?? (grant.data === 'unrestricted' ? 'unrestricted' : 'blocked');
  if (viewData === 'blocked') return NO_LEVELS;
  let createQueries: Level<CreateQueriesAccess> =
    perTable('create_queries') ?? grant.create_queries ?? (grant.native === 'write' ? 'query-builder-and-native' : 'query-builder');
  if (isPerTable(viewData) && createQueries === 'query-builder-and-native') createQueries = 'query-builder';
  return { viewData, createQueries, download: perTable('download') ?? grant.download };
}

/**
 * A user's access to the tables of one database: the most generous of their groups', table by table. A table a group
 * cannot view gets nothing else from that group either.
 */
export class TableAccess {
  constructor(private readonly groups: GroupLevels[]) {}

  static full(): TableAccess {
    return new TableAccess([FULL_LEVELS]);
  }

  /** No group sets anything per table: every table has the database-wide values. */
  get uniform(): boolean {
    return this.groups.every((g) => !isPerTable(g.viewData) && !isPerTable(g.createQueries) && !isPerTable(g.download));
  }

  /** Native SQL: a group with it on the whole database (which implies every table viewable). */
  get native(): boolean {
    return this.groups.some((g) => g.viewData === 'unrestricted' && g.createQueries === 'query-builder-and-native');
  }

  /**
   * Whether a query's tables must be looked at: some group sets something per table, or (for a query someone is
   * making, not a saved question) the database-wide create-queries is `no`. Otherwise the database's level is all.
   */
  needsTables(adHoc: boolean): boolean {
    return !this.uniform || (adHoc && this.best('createQueries', 0, 'no') === 'no');
  }

  viewData(tableId: number): ViewDataAccess {
    return this.best('viewData', tableId, 'blocked');
  }

  createQueries(tableId: number): CreateQueriesAccess {
    return this.best('createQueries', tableId, 'no');
  }

  download(tableId: number): DownloadAccess {
    return this.best('download', tableId, 'none');
  }

  /** The least generous download level among these tables (a query's result holds rows of each). */
  downloadOf(tableIds: number[], fallback: DownloadAccess): DownloadAccess {
    return tableIds.reduce((acc, t) => {
      const d = this.download(t);
      return ORDER.download.indexOf(d) < ORDER.download.indexOf(acc) ? d : acc;
    }, fallback);
  }

  private best<K extends keyof GroupLevels>(kind: K, tableId: number, least: string): never {
    const order = ORDER[kind] as string[];
    let out = least;
    for (const g of this.groups) {
      if (levelFor(g.viewData, tableId, 'blocked') === 'blocked') continue;
      out = most(order, out, levelFor(g[kind] as Level<string>, tableId, least));
    }
    return out as never;
  }
}
