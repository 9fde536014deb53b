import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import type { BookmarkModel } from '../../schema/bookmark.entity';
import { BookmarkModelPipe } from './bookmark-model.pipe';
import { BookmarkOrderingsDto } from './bookmarks.dto';
import { BookmarksService } from './bookmarks.service';

@Controller('api/bookmark')
export class BookmarksController {
  constructor(private readonly bookmarks: BookmarksService) {}

  @Get()
  @Access('user')
  list(@CurrentUser() caller: AuthUser) {
    return this.bookmarks.list(caller);
  }

  @Put('ordering')
  @Access('user')
  @HttpCode(204)
  async ordering(@Body() body: BookmarkOrderingsDto, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.bookmarks.saveOrdering(caller, body.orderings);
  }

  @Post(':model/:id')
  @Access('user')
  @HttpCode(200)
  create(@Param('model', BookmarkModelPipe) model: BookmarkModel, @Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.bookmarks.create(caller, model, id);
  }

  @Delete(':model/:id')
  @Access('user')
  @HttpCode(204)
  async remove(
    @Param('model', BookmarkModelPipe) model: BookmarkModel,
    @Param('id', IdParam()) id: number,
    @CurrentUser() caller: AuthUser,
  ): Promise<void> {
    await this.bookmarks.remove(caller, model, id);
  }
}
