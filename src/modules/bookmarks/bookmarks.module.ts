import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventBus } from '../../common/events/event-bus';
import { Bookmark } from '../../schema/bookmark.entity';
import { CollectionsDeleted, CollectionsModule } from '../collections';
import { BookmarksController } from './bookmarks.controller';
import { BookmarksRepository } from './bookmarks.repository';
import { BookmarksService } from './bookmarks.service';

/**
 * Bookmarks (/api/bookmark), and the store the cards and dashboards modules read for `f=bookmarked` and clean up when
 * they delete; a deleted collection's bookmarks go when the collections module says so through the event bus.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Bookmark]), CollectionsModule],
  controllers: [BookmarksController],
  providers: [BookmarksRepository, BookmarksService],
  exports: [BookmarksRepository],
})
export class BookmarksModule implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly bookmarks: BookmarksRepository,
  ) {}

  onModuleInit(): void {
    this.bus.on(CollectionsDeleted, async (e) => {
      for (const id of e.collectionIds) await this.bookmarks.forget(e.tx, 'collection', id);
    });
  }
}
