import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WatchedCache, type Watch } from '../../common/cache/watched-cache';
import { ClusterEvents } from '../../common/cluster/cluster-events';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { UserView } from './user.view';

/**
 * What GET /api/user/current shows depends on the user's row (any column: a name, the locale, the last login)
 * and their group memberships; the personal collection is made with the user and never changes.
 */
const WATCHED: Record<string, Watch> = {
  core_user: { topic: 'profile', inserts: false },
  permissions_group_membership: { topic: 'permissions', inserts: true },
};

/**
 * Users as GET /api/user/current shows them, by id: every page load of every client asks, so the answer is kept
 * (and dropped on any change to what it shows, here and on the other instances: see WatchedCache).
 */
@Injectable()
export class UserViewCache extends WatchedCache<UserView> {
  constructor(
    db: DataSource,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'settingsRefreshSeconds'>,
    @Optional() events: ClusterEvents = new ClusterEvents(),
  ) {
    super(db, config, events, WATCHED, ['profile', 'user', 'permissions']);
  }
}
