import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ClusterEvents } from '../cluster/cluster-events';
import { WatchedCache, type Watch } from '../cache/watched-cache';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

/**
 * What a write to each table changes about a caller, and so which event it raises. A new session or API key
 * changes no cached caller (only found callers are kept), and a user's other columns (name, last login) do not
 * make one either.
 */
const WATCHED: Record<string, Watch> = {
  core_session: { topic: 'session', inserts: false },
  api_key: { topic: 'session', inserts: false },
  core_user: { topic: 'user', inserts: false, columns: ['is_active', 'is_superuser'] },
  permissions_group_membership: { topic: 'permissions', inserts: true },
};

/**
 * Who a session or API key belongs to, kept in memory so that an authenticated request makes no app-DB round trip
 * (see WatchedCache for how it is kept true). Logout, deactivation and permission changes are announced as
 * `session`, `user` and `permissions` events; a session is also dropped at its age limit.
 */
@Injectable()
export class CallerCache<T = unknown> extends WatchedCache<T> {
  constructor(
    db: DataSource,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'settingsRefreshSeconds'>,
    @Optional() events: ClusterEvents = new ClusterEvents(),
  ) {
    super(db, config, events, WATCHED, ['session', 'user', 'permissions']);
  }
}
