import { Type } from 'class-transformer';
import { IsArray, ValidateNested } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import { OneOf, Id } from '../../common/validation/validators';
import type { BookmarkModel } from '../../schema/bookmark.entity';

export const BOOKMARK_MODELS = ['card', 'dashboard', 'collection'] as const;

export class BookmarkOrderingDto {
  @OneOf(BOOKMARK_MODELS)
  type: BookmarkModel;

  @Id()
  item_id: number;
}

export class BookmarkOrderingsDto {
  @IsArray({ message: MSG.array })
  @ValidateNested({ each: true })
  @Type(() => BookmarkOrderingDto)
  orderings: BookmarkOrderingDto[];
}
