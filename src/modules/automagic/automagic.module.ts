import { Module } from '@nestjs/common';
import { CardsModule } from '../cards';
import { DatasetModule } from '../dataset';
import { WarehouseModule } from '../warehouse';
import { AutomagicController } from './automagic.controller';
import { AutomagicRepository } from './automagic.repository';
import { AutomagicService } from './automagic.service';
import { CandidatesService } from './candidates.service';
import { RelatedLinks } from './related-links';
import { RootResolver } from './root-resolver';

/**
 * Automatic dashboards (x-rays). The dashboard is built by pure code (dashboard-builder.ts) from table and field
 * metadata and a template (templates/*.json); the cards run through POST /api/dataset like any ad-hoc query, and
 * POST /api/dashboard/save (dashboards module) saves one.
 */
@Module({
  imports: [WarehouseModule, CardsModule, DatasetModule],
  controllers: [AutomagicController],
  providers: [AutomagicRepository, AutomagicService, CandidatesService, RelatedLinks, RootResolver],
})
export class AutomagicModule {}
