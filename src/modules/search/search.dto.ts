import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Min } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import { BoolString, NonNegativeInt, PositiveInt } from '../../common/validation/validators';
import { SEARCH_MODELS } from './search-branches';

export type SearchModel = (typeof SEARCH_MODELS)[number];

/** Query-string integers; longer than 9 digits stays a string and fails, so no value can overflow a 32-bit column. */
const toInt = (value: unknown) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value);
const IntString = () => Transform(({ value }) => toInt(value));
/** A repeatable parameter (`models=a&models=b`) is a list however many times it came. */
const List = (each: (v: unknown) => unknown = (v) => v) => Transform(({ value }) => (Array.isArray(value) ? value : [value]).map(each));

export class SearchQuery {
  @IsOptional()
  @IsString({ message: 'value must be a string.' })
  q?: string;

  @IsOptional()
  @List()
  @IsIn([...SEARCH_MODELS], { each: true, message: MSG.oneOf(SEARCH_MODELS) })
  models?: SearchModel[];

  @IsOptional()
  @BoolString()
  archived?: boolean;

  @IsOptional()
  @List(toInt)
  @applyDecorators(IsInt({ each: true, message: MSG.positiveInt }), Min(1, { each: true, message: MSG.positiveInt }))
  created_by?: number[];

  @IsOptional()
  @IntString()
  @PositiveInt()
  table_db_id?: number;

  @IsOptional()
  @IntString()
  @PositiveInt()
  limit?: number;

  @IsOptional()
  @IntString()
  @NonNegativeInt()
  offset?: number;
}
