import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { MessageError } from '../../common/errors/api-errors';
import { CardDashboardsService } from './card-dashboards.service';
import { BulkMoveCardsDto, CardIdsDto } from './cards.dto';
import { CardsService } from './cards.service';

/** Metabase's bulk card endpoints (`/api/cards`, plural), which its newer clients use. */
@Controller('api/cards')
export class CardsBulkController {
  constructor(
    private readonly cards: CardsService,
    private readonly dashboards: CardDashboardsService,
  ) {}

  /** Moves the cards to `collection_id` (null: Root), all or none; answers `{status: "success"}`. */
  @Post('move')
  @Access('user')
  @HttpCode(200)
  move(@Body() body: BulkMoveCardsDto, @CurrentUser() caller: AuthUser) {
    // Questions saved into a dashboard (Metabase's dashboard questions) cannot be made here: refused, not ignored.
    if (body.dashboard_id !== undefined && body.dashboard_id !== null)
      throw new MessageError('Moving questions into a dashboard is not supported.');
    return this.cards.bulkMove(caller, body.card_ids, body.collection_id);
  }

  /** The dashboards each card is on. */
  @Post('dashboards')
  @Access('user')
  @HttpCode(200)
  dashboardsOf(@Body() body: CardIdsDto, @CurrentUser() caller: AuthUser) {
    return this.dashboards.ofCards(caller, body.card_ids);
  }
}
