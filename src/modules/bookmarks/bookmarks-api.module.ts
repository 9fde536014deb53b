import { Module } from '@nestjs/common';
import { CollectionsModule } from '../collections/collections.module';
import { BookmarksController } from './bookmarks.controller';
import { BookmarksModule } from './bookmarks.module';
import { BookmarksService } from './bookmarks.service';

/**
 * The bookmark endpoints. Apart from BookmarksModule (the store other modules read for `f=bookmarked`), so that
 * modules it depends on (collections) can import that one without a cycle.
 */
@Module({
  imports: [BookmarksModule, CollectionsModule],
  controllers: [BookmarksController],
  providers: [BookmarksService],
})
export class BookmarksApiModule {}
