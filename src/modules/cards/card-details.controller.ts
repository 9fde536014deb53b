import { Controller, Get, Param, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { CardDashboardsService } from './card-dashboards.service';
import { CardMetadataService } from './card-metadata.service';
import { CardSeriesService } from './card-series.service';
import { SeriesQuery } from './cards.dto';

/** What is read around one card: the dashboards showing it, the cards it can be combined with, its query's metadata. */
@Controller('api/card/:id')
export class CardDetailsController {
  constructor(
    private readonly seriesOf: CardSeriesService,
    private readonly metadata: CardMetadataService,
    private readonly dashboards: CardDashboardsService,
  ) {}

  /** `[{id, name}]` of the dashboards that show the card; the caller must be able to change each of them. */
  @Get('dashboards')
  @Access('user')
  dashboardsOf(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.dashboards.ofCard(caller, id);
  }

  @Get('series')
  @Access('user')
  series(@Param('id', IdParam()) id: number, @Query() q: SeriesQuery, @CurrentUser() caller: AuthUser) {
    return this.seriesOf.series(caller, id, { lastCursor: q.last_cursor, query: q.query, excludeIds: q.exclude_ids });
  }

  @Get('query_metadata')
  @Access('user')
  queryMetadata(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.metadata.queryMetadata(caller, id);
  }
}
