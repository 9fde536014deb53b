import { Controller, Get, Param, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { CardTimelinesQuery } from './timelines.dto';
import { TimelinesService } from './timelines.service';

/** The timelines shown on a card's charts: those of the card's collection. */
@Controller('api/card/:id/timelines')
export class CardTimelinesController {
  constructor(private readonly timelines: TimelinesService) {}

  @Get()
  @Access('user')
  ofCard(@Param('id', IdParam()) id: number, @Query() q: CardTimelinesQuery, @CurrentUser() caller: AuthUser) {
    return this.timelines.forCard(caller, id, q);
  }
}
