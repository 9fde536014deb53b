import { Inject, Injectable, Optional } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { DataSource as DataSourceToken } from 'typeorm';
import { ClusterEvents } from '../cluster/cluster-events';
import { markWritten, WatchedCache, type Watch } from './watched-cache';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

const GRANTS: Watch = { topic: 'permissions', inserts: true };
/** Only removals matter: the database removes the grants and policies of a group, database, table or collection. */
const REMOVALS: Watch = { topic: 'permissions', inserts: false, columns: [] };

/**
 * The tables whose writes change a kept answer. Grants on databases and tables, policies and impersonations are
 * written through the ORM; collection grants mostly with plain SQL, which announces itself (`grantsWritten`). A policy's
 * question is part of the policy: an edit of a card's query or of its columns counts.
 */
const WATCHED: Record<string, Watch> = {
  database_permission: GRANTS,
  table_permission: GRANTS,
  sandbox: GRANTS,
  impersonation: GRANTS,
  collection_permission: GRANTS,
  // A policy's refusal names its group.
  permissions_group: { topic: 'permissions', inserts: false, columns: ['name'] },
  metabase_database: REMOVALS,
  metabase_table: REMOVALS,
  collection: REMOVALS,
  report_card: { topic: 'permissions', inserts: false, columns: ['dataset_query', 'result_metadata'] },
};

/**
 * What groups may do, read on every request a user without admin rights makes (grants on databases, tables and
 * collections, policies, impersonations) and the same for every member of the same groups: kept in memory by the
 * groups' ids, so a crowd of users reads each set once (see WatchedCache for how it is kept true).
 */
@Injectable()
export class GrantsCache extends WatchedCache<unknown> {
  constructor(
    @Inject(DataSourceToken) db: DataSource,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'settingsRefreshSeconds'>,
    @Optional() events: ClusterEvents = new ClusterEvents(),
  ) {
    super(db, config, events, WATCHED, ['permissions']);
  }

  /** `load()`'s answer for these groups under `kind` and `rest` (what else it depends on), kept until a change. */
  async of<T>(kind: string, groupIds: readonly number[], rest: unknown, load: () => Promise<T>): Promise<T> {
    const key = JSON.stringify([kind, [...groupIds].sort((a, b) => a - b), rest]);
    return (await this.get(key, async () => ({ value: await load() }))) as T;
  }
}

/**
 * Marks grants written with plain SQL in the open transaction `tx`: its commit clears the kept answers here and
 * tells the other instances, as a write through the ORM would.
 */
export function grantsWritten(tx: EntityManager): void {
  markWritten(tx, 'permissions');
}
