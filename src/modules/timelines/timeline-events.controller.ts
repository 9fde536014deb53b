import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { TimelineEventsService } from './timeline-events.service';
import { CreateTimelineEventDto, ListTimelineEventsQuery, UpdateTimelineEventDto } from './timelines.dto';

/** The events of timelines. */
@Controller('api/timeline-event')
export class TimelineEventsController {
  constructor(private readonly events: TimelineEventsService) {}

  @Get()
  @Access('user')
  list(@Query() q: ListTimelineEventsQuery, @CurrentUser() caller: AuthUser) {
    return this.events.list(caller, q);
  }

  @Post()
  @Access('user')
  @HttpCode(200)
  create(@Body() body: CreateTimelineEventDto, @CurrentUser() caller: AuthUser) {
    return this.events.create(caller, body);
  }

  @Get(':id')
  @Access('user')
  get(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.events.get(caller, id);
  }

  @Put(':id')
  @Access('user')
  update(@Param('id', IdParam()) id: number, @Body() body: UpdateTimelineEventDto, @CurrentUser() caller: AuthUser) {
    return this.events.update(caller, id, body);
  }

  @Delete(':id')
  @Access('user')
  @HttpCode(204)
  async remove(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.events.remove(caller, id);
  }
}
