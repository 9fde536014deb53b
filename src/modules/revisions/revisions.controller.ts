import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { ListRevisionsQuery, RevertRevisionDto } from './revisions.dto';
import { RevisionService } from './revision.service';

@Controller('api/revision')
export class RevisionsController {
  constructor(private readonly revisions: RevisionService) {}

  @Get()
  @Access('user')
  list(@Query() q: ListRevisionsQuery, @CurrentUser() caller: AuthUser) {
    return this.revisions.list(caller, q.entity, q.id);
  }

  @Post('revert')
  @Access('user')
  @HttpCode(200)
  revert(@Body() body: RevertRevisionDto, @CurrentUser() caller: AuthUser) {
    return this.revisions.revert(caller, body.entity, body.id, body.revision_id);
  }
}
