import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AppLogger } from '../../common/logging/app-logger';
import { requestContext } from '../../common/logging/request-context';
import { ensureSampleDatabase } from '../../sample-data';
import { SettingsService } from '../settings';
import { SyncService } from '../sync';
import { DatabasesService } from './databases.service';

const LOADED_FLAG = 'sample-database-loaded';

/**
 * On the very first start, generates the Sample Database under DATA_DIR and connects it. A flag row claimed with
 * insert-or-ignore makes sure only one of several instances starting together does it, and only once ever: an
 * admin who deletes the Sample Database does not get it back at the next start.
 */
@Injectable()
export class SampleDatabaseLoader implements OnApplicationBootstrap {
  constructor(
    private readonly settings: SettingsService,
    private readonly databases: DatabasesService,
    private readonly sync: SyncService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AppLogger) private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.loadSampleDatabase) return;
    // In the background: the server answers while the sample is generated and synced.
    void requestContext
      .run({ requestId: 'sample-database' }, () => this.load())
      .catch((e: unknown) =>
        this.logger.warning('Could not load the Sample Database', { error: e instanceof Error ? e.message : String(e) }),
      );
  }

  async load(): Promise<number | null> {
    if (!(await this.settings.claim(LOADED_FLAG, 'true'))) return null;
    try {
      const file = await ensureSampleDatabase(this.config.dataDir);
      const db = await this.databases.createSample(file);
      await this.sync.run(db.id, 'metadata');
      this.logger.info('Sample Database ready', { db_id: db.id });
      return db.id;
    } catch (e) {
      await this.settings.setInternal(LOADED_FLAG, null); // let a later start try again
      throw e;
    }
  }
}
