import { Module } from '@nestjs/common';
import { EMBED_TOKEN_GUARD, PREVIEW_TOKEN_GUARD } from '../../common/auth/access-plugins';
import { CardsModule } from '../cards/cards.module';
import { CardsRepository } from '../cards/cards.repository';
import { DashboardParamsService } from '../dashboard-queries/dashboard-params.service';
import { DashboardQueriesRepository } from '../dashboard-queries/dashboard-queries.repository';
import { DashboardsModule } from '../dashboards/dashboards.module';
import { DatasetModule } from '../dataset/dataset.module';
import { FieldsModule } from '../fields/fields.module';
import { SharedFieldsService } from '../public-sharing/shared-fields.service';
import { SharedQueriesService } from '../public-sharing/shared-queries.service';
import { EmbedController } from './embed.controller';
import { EmbedLookupsService } from './embed-lookups.service';
import { EmbedRunsService } from './embed-runs.service';
import { EmbedTokenGuard, PreviewTokenGuard } from './embed-token.guard';
import { EmbeddingService } from './embedding.service';
import { PreviewEmbedController } from './preview-embed.controller';

/**
 * Signed embedding: `/api/embed/...` behind EMBED_TOKEN_GUARD and `/api/preview-embed/...` behind PREVIEW_TOKEN_GUARD
 * (the `embed` and `admin-preview` access levels of common/auth, plugged in here). Queries run through the
 * public-sharing module's anonymous runner and look-ups.
 */
@Module({
  imports: [CardsModule, DashboardsModule, DatasetModule, FieldsModule],
  controllers: [EmbedController, PreviewEmbedController],
  providers: [
    { provide: EMBED_TOKEN_GUARD, useClass: EmbedTokenGuard },
    { provide: PREVIEW_TOKEN_GUARD, useClass: PreviewTokenGuard },
    CardsRepository,
    DashboardQueriesRepository,
    DashboardParamsService,
    // The public-sharing module's runner and look-ups, provided here until its module is registered (importing it
    // would register its controllers through this module).
    SharedQueriesService,
    SharedFieldsService,
    EmbeddingService,
    EmbedRunsService,
    EmbedLookupsService,
  ],
})
export class EmbeddingModule {}
