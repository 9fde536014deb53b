import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { IdParam } from '../../common/validation/pipes';
import { CardAccessService } from './card-access.service';
import { CardMetadataService } from './card-metadata.service';
import { CardParamsService } from './card-params.service';
import { CardRelatedService } from './card-related.service';
import { CardSeriesService } from './card-series.service';
import { CardSharingService } from './card-sharing.service';
import { SeriesQuery } from './cards.dto';

const nonBlank = (name: string, v: string): string => {
  if (typeof v !== 'string' || !/\S/.test(v)) throw ValidationError.of(name, MSG.nonBlank, v);
  return v;
};

/**
 * What is read around a card: shared listings, related content, series, parameter values, query metadata,
 * timelines. Registered before CardsController, so its literal paths (`embeddable`, `public`, `related`) win over `:id`.
 */
@Controller('api/card')
export class CardDetailsController {
  constructor(
    private readonly sharing: CardSharingService,
    private readonly related: CardRelatedService,
    private readonly seriesOf: CardSeriesService,
    private readonly params: CardParamsService,
    private readonly metadata: CardMetadataService,
    private readonly access: CardAccessService,
  ) {}

  @Get('embeddable')
  @Access('admin')
  embeddable() {
    return this.sharing.embeddable();
  }

  @Get('public')
  @Access('admin')
  publicCards() {
    return this.sharing.publicCards();
  }

  @Post('related')
  @Access('user')
  @HttpCode(200)
  relatedToQuery(@Body() body: unknown, @CurrentUser() caller: AuthUser) {
    return this.related.forQuery(caller, body);
  }

  @Get(':id/related')
  @Access('user')
  relatedToCard(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.related.forCard(caller, id);
  }

  @Get(':id/series')
  @Access('user')
  series(@Param('id', IdParam()) id: number, @Query() q: SeriesQuery, @CurrentUser() caller: AuthUser) {
    return this.seriesOf.series(caller, id, { lastCursor: q.last_cursor, query: q.query, excludeIds: q.exclude_ids });
  }

  @Get(':id/query_metadata')
  @Access('user')
  queryMetadata(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.metadata.queryMetadata(caller, id);
  }

  @Get(':cardId/params/:paramKey/values')
  @Access('user')
  paramValues(@Param('cardId', IdParam('card-id')) id: number, @Param('paramKey') key: string, @CurrentUser() caller: AuthUser) {
    return this.params.valuesOf(caller, id, nonBlank('param-key', key));
  }

  @Get(':cardId/params/:paramKey/search/:query')
  @Access('user')
  paramSearch(@Param('cardId', IdParam('card-id')) id: number, @Param('paramKey') key: string, @Param('query') query: string, @CurrentUser() caller: AuthUser) {
    return this.params.valuesOf(caller, id, nonBlank('param-key', key), nonBlank('query', query));
  }
}
