import { Module } from '@nestjs/common';
import { PUBLIC_LINK_RESOLVER } from '../../common/auth/access-plugins';
import { CardsModule } from '../cards';
import { DashboardQueriesModule } from '../dashboard-queries';
import { DashboardsModule } from '../dashboards';
import { FieldsModule } from '../fields';
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
 * SharedFieldsService (the objects, dashcard runs and look-ups of a verified shared object) are exported for the
 * embedding module; card runs are the cards module's CardRunner.
 */
@Module({
  imports: [CardsModule, DashboardsModule, DashboardQueriesModule, FieldsModule],
  controllers: [
    CardPublicLinkController,
    DashboardPublicLinkController,
    PublicCardController,
    PublicDashboardController,
    PublicOembedController,
  ],
  providers: [
    PublicLinksRepository,
    PublicLinkService,
    SharedQueriesService,
    SharedFieldsService,
    { provide: PUBLIC_LINK_RESOLVER, useClass: PublicLinks },
  ],
  exports: [SharedQueriesService, SharedFieldsService],
})
export class PublicSharingModule {}
