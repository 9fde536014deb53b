import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Bookmark } from './bookmark.entity';
import { BookmarksRepository } from './bookmarks.repository';

@Module({
  imports: [TypeOrmModule.forFeature([Bookmark])],
  providers: [BookmarksRepository],
  exports: [BookmarksRepository],
})
export class BookmarksModule {}
