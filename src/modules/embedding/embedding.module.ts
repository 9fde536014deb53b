import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EMBED_TOKEN_GUARD, PREVIEW_TOKEN_GUARD } from '../../common/auth/access-plugins';
import { EmbeddingKey } from '../../schema/embedding-key.entity';
import { CardsModule } from '../cards';
import { DashboardsModule } from '../dashboards';
import { PublicSharingModule } from '../public-sharing';
import { EmbedController } from './embed.controller';
import { EmbedLookupsService } from './embed-lookups.service';
import { EmbedRunsService } from './embed-runs.service';
import { EmbedTokenGuard, PreviewTokenGuard } from './embed-token.guard';
import { EmbeddingKeysController } from './embedding-keys.controller';
import { EmbeddingKeysRepository } from './embedding-keys.repository';
import { EmbeddingKeysService } from './embedding-keys.service';
import { EmbeddingService } from './embedding.service';
import { PreviewEmbedController } from './preview-embed.controller';
import { PreviewTokenController } from './preview-token.controller';

/**
 * Signed embedding: `/api/embed/...` behind EMBED_TOKEN_GUARD and `/api/preview-embed/...` behind PREVIEW_TOKEN_GUARD
 * (the `embed` and `admin-preview` access levels of common/auth, plugged in here). Cards run on the cards module's
 * CardRunner with the token's grant; dashcard runs and look-ups go through the public-sharing module's services.
 * Named signing keys (`/api/embedding/keys`) live here too: the token guards read them.
 */
@Module({
  imports: [TypeOrmModule.forFeature([EmbeddingKey]), CardsModule, DashboardsModule, PublicSharingModule],
  controllers: [EmbedController, PreviewEmbedController, PreviewTokenController, EmbeddingKeysController],
  providers: [
    { provide: EMBED_TOKEN_GUARD, useClass: EmbedTokenGuard },
    { provide: PREVIEW_TOKEN_GUARD, useClass: PreviewTokenGuard },
    EmbeddingService,
    EmbedRunsService,
    EmbedLookupsService,
    EmbeddingKeysRepository,
    EmbeddingKeysService,
  ],
})
export class EmbeddingModule {}
