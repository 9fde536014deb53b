import { Injectable, PipeTransform } from '@nestjs/common';
import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import type { BookmarkModel } from '../../schema/bookmark.entity';
import { BOOKMARK_MODELS } from './bookmarks.dto';

/** `:model` of the bookmark routes: card, dashboard or collection, else the spec's 400. */
@Injectable()
export class BookmarkModelPipe implements PipeTransform<string, BookmarkModel> {
  transform(value: string): BookmarkModel {
    if (!(BOOKMARK_MODELS as readonly string[]).includes(value)) throw ValidationError.of('model', MSG.oneOf(BOOKMARK_MODELS), value);
    return value as BookmarkModel;
  }
}
