import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppLogger } from '../../common/logging/app-logger';
import { SearchIndexService } from './search-index.service';

/** At start-up, indexes what was saved without the index (older data, direct imports); two tiny queries when nothing is missing. */
@Injectable()
export class SearchReindexOnBoot implements OnApplicationBootstrap {
  constructor(
    private readonly index: SearchIndexService,
    @Inject(AppLogger) private readonly logger: AppLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!(await this.index.needsReindex())) return;
    const n = await this.index.reindexAll();
    this.logger.info(`Search index: indexed ${n} objects`);
  }
}
