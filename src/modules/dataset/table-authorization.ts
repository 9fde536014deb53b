import { ForbiddenError } from '../../common/errors/api-errors';
import type { TableMeta } from '../../query-engine/metadata';
import type { DownloadAccess } from '../../schema/database-permission.entity';
import type { TableAccess } from '../warehouse';

/**
 * A query refused because of one of its tables: a 403 like every refused query, whose text names the table (Metabase
 * says only "You do not have permissions to run this query.").
 */
export class TableRefusedError extends ForbiddenError {
  constructor(readonly reason: string) {
    super(reason);
  }

  override body() {
    return `You do not have permissions to run this query: ${this.reason}`;
  }
}

/**
 * Table-level permissions on the tables a query reads (DatasetService finds them: QueryProcessor.tablesTouched).
 * Every query needs each table viewable; one someone is making (`adHoc`: not a saved question's run) also needs new
 * queries allowed on each. Answers the download level of the result: the least of its tables' (`databaseWide` for a
 * query without tables).
 */
export function authorizeTables(access: TableAccess, tables: TableMeta[], adHoc: boolean, databaseWide: DownloadAccess): DownloadAccess {
  for (const t of tables) {
    if (access.viewData(t.id) === 'blocked') throw new TableRefusedError(`table ${t.name} is blocked.`);
    if (adHoc && access.createQueries(t.id) === 'no') throw new TableRefusedError(`new queries on table ${t.name} are not allowed.`);
  }
  if (!tables.length) return databaseWide;
  return access.downloadOf(
    tables.map((t) => t.id),
    'full',
  );
}
