import { Module } from '@nestjs/common';
import { PUBLIC_LINK_RESOLVER } from '../../common/auth/access-plugins';
import { CardsModule } from '../cards/cards.module';
import { CardsRepository } from '../cards/cards.repository';
import { DashboardQueriesModule } from '../dashboard-queries/dashboard-queries.module';
import { DashboardsModule } from '../dashboards/dashboards.module';
import { DatasetModule } from '../dataset/dataset.module';
import { FieldsModule } from '../fields/fields.module';
import { QueryCacheModule } from '../query-cache/query-cache.module';
import { PublicCardController } from './public-card.controller';
import { PublicDashboardController } from './public-dashboard.controller';
import { CardPublicLinkController, DashboardPublicLinkController } from './public-link.controller';
import { PublicLinks } from './public-link.resolver';
import { PublicLinkService } from './public-link.service';
import { PublicLinksRepository } from './public-links.repository';
import { PublicOembedController } from './public-oembed.controller';
import { SharedFieldsService } from './shared-fields.service';
import { SharedQueriesService } from './shared-queries.service';

/**
 * Public links: making and revoking them (superusers), and the anonymous /api/public/... surface behind the
 * `public-sharing` guard, for which this module provides PUBLIC_LINK_RESOLVER. SharedQueriesService and
 * SharedFieldsService (runs and look-ups for a verified shared object) are exported for the embedding module.
 * Cards are read through their own repository (as DashboardsModule does).
 */
@Module({
  imports: [CardsModule, DashboardsModule, DashboardQueriesModule, DatasetModule, FieldsModule, QueryCacheModule],
  controllers: [CardPublicLinkController, DashboardPublicLinkController, PublicCardController, PublicDashboardController, PublicOembedController],
  providers: [
    CardsRepository,
    PublicLinksRepository,
    PublicLinkService,
    SharedQueriesService,
    SharedFieldsService,
    { provide: PUBLIC_LINK_RESOLVER, useClass: PublicLinks },
  ],
  exports: [SharedQueriesService, SharedFieldsService],
})
export class PublicSharingModule {}
