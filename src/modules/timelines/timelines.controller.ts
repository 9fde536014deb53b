import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { CreateTimelineDto, GetTimelineQuery, ListTimelinesQuery, UpdateTimelineDto } from './timelines.dto';
import { TimelinesService } from './timelines.service';

/** Timelines: named sets of events in a collection. */
@Controller('api/timeline')
export class TimelinesController {
  constructor(private readonly timelines: TimelinesService) {}

  @Get()
  @Access('user')
  list(@Query() q: ListTimelinesQuery, @CurrentUser() caller: AuthUser) {
    return this.timelines.list(caller, q);
  }

  @Post()
  @Access('user')
  @HttpCode(200)
  create(@Body() body: CreateTimelineDto, @CurrentUser() caller: AuthUser) {
    return this.timelines.create(caller, body);
  }

  @Get(':id')
  @Access('user')
  get(@Param('id', IdParam()) id: number, @Query() q: GetTimelineQuery, @CurrentUser() caller: AuthUser) {
    return this.timelines.get(caller, id, q);
  }

  @Put(':id')
  @Access('user')
  update(@Param('id', IdParam()) id: number, @Body() body: UpdateTimelineDto, @CurrentUser() caller: AuthUser) {
    return this.timelines.update(caller, id, body);
  }

  @Delete(':id')
  @Access('user')
  @HttpCode(204)
  async remove(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.timelines.remove(caller, id);
  }
}
