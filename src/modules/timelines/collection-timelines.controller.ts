import { Controller, Get, Param, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { ListTimelinesQuery } from './timelines.dto';
import { TimelinesService } from './timelines.service';

/** The timelines of a collection (and of the Root, `root/timelines`: a literal segment wins over `:id` wherever declared). */
@Controller('api/collection')
export class CollectionTimelinesController {
  constructor(private readonly timelines: TimelinesService) {}

  @Get('root/timelines')
  @Access('user')
  root(@Query() q: ListTimelinesQuery, @CurrentUser() caller: AuthUser) {
    return this.timelines.forCollection(caller, null, q);
  }

  @Get(':id/timelines')
  @Access('user')
  ofCollection(@Param('id', IdParam()) id: number, @Query() q: ListTimelinesQuery, @CurrentUser() caller: AuthUser) {
    return this.timelines.forCollection(caller, id, q);
  }
}
