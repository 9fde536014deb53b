export { BookmarksModule } from './bookmarks.module';
export { BookmarksRepository } from './bookmarks.repository';
