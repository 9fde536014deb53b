import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { CreateSnippetDto, ListSnippetsQuery, UpdateSnippetDto } from './snippets.dto';
import { SnippetsService } from './snippets.service';

@Controller('api/native-query-snippet')
export class SnippetsController {
  constructor(private readonly snippets: SnippetsService) {}

  @Get()
  @Access('user')
  list(@Query() q: ListSnippetsQuery) {
    return this.snippets.list(q.archived ?? false);
  }

  @Post()
  @Access('user')
  @HttpCode(200)
  create(@Body() body: CreateSnippetDto, @CurrentUser() caller: AuthUser) {
    return this.snippets.create(body, caller);
  }

  @Get(':id')
  @Access('user')
  get(@Param('id', IdParam()) id: number) {
    return this.snippets.get(id);
  }

  @Put(':id')
  @Access('user')
  update(@Param('id', IdParam()) id: number, @Body() body: UpdateSnippetDto, @CurrentUser() caller: AuthUser) {
    return this.snippets.update(id, body, caller);
  }
}
