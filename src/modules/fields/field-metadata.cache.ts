import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WatchedCache, type Watch } from '../../common/cache/watched-cache';
import { ClusterEvents } from '../../common/cluster/cluster-events';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

/** Field rows and their dimensions; a table or database removed takes its fields with it. Sync writes them all through the ORM. */
const WATCHED: Record<string, Watch> = {
  metabase_field: { topic: 'metadata', inserts: true },
  dimension: { topic: 'metadata', inserts: true },
  metabase_table: { topic: 'metadata', inserts: false },
  metabase_database: { topic: 'metadata', inserts: false },
};

/**
 * Answers built from field metadata alone (a dashboard's `param_fields`), by a key that names what they were
 * built from: every viewer of a dashboard asks for the same ones. Dropped on any change to fields, dimensions,
 * tables or databases, here or on another instance (WatchedCache).
 */
@Injectable()
export class FieldMetadataCache extends WatchedCache<unknown> {
  constructor(
    db: DataSource,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'settingsRefreshSeconds'>,
    @Optional() events: ClusterEvents = new ClusterEvents(),
  ) {
    super(db, config, events, WATCHED, ['metadata']);
  }

  /** What `load` answers for `key`, kept (frozen) until the metadata changes. */
  async remember<T>(key: string, load: () => Promise<T>): Promise<T> {
    return (await this.get(key, async () => ({ value: await load() }))) as T;
  }
}
