import { Module } from '@nestjs/common';
import { EMBED_TOKEN_GUARD, PREVIEW_TOKEN_GUARD } from '../../common/auth/access-plugins';
import { CardsRepository } from '../cards/cards.repository';
import { DashboardsModule } from '../dashboards/dashboards.module';
import { PublicSharingModule } from '../public-sharing/public-sharing.module';
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
  imports: [DashboardsModule, PublicSharingModule],
  controllers: [EmbedController, PreviewEmbedController],
  providers: [
    { provide: EMBED_TOKEN_GUARD, useClass: EmbedTokenGuard },
    { provide: PREVIEW_TOKEN_GUARD, useClass: PreviewTokenGuard },
    CardsRepository,
    EmbeddingService,
    EmbedRunsService,
    EmbedLookupsService,
  ],
})
export class EmbeddingModule {}
