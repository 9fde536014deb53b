import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { CardRelatedService } from './card-related.service';

/** What is related to a card, or to a query not saved yet: its table, segments, metrics, other cards, dashboards. */
@Controller('api/card')
export class CardRelatedController {
  constructor(private readonly related: CardRelatedService) {}

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
}
