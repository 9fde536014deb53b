import { IsDefined, IsOptional, ValidateBy } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import { Bool, NonBlankString, PositiveInt, PositiveIntArray } from '../../common/validation/validators';
import type { ParameterLike } from './parameter-values.service';

/** POST /api/dataset/native: `{database, query, pretty?}` where `query` is the MBQL inner query or a whole dataset query. */
export class NativeFormDto {
  @PositiveInt()
  database: number;

  @IsDefined({ message: MSG.map })
  query: unknown;

  @IsOptional()
  @Bool()
  pretty?: boolean;
}

/** Metabase's `ms/Parameter`: a map with at least `id` and `type`. */
export function isParameter(v: unknown): boolean {
  return Boolean(v) && typeof v === 'object' && !Array.isArray(v) && 'id' in (v as object) && 'type' in (v as object);
}

const IsParameter = () =>
  ValidateBy({ name: 'isParameter', validator: { validate: (v) => isParameter(v), defaultMessage: () => MSG.param } });

/** POST /api/dataset/parameter/values and .../search/:query: `{parameter, field_ids?}`. */
export class ParameterValuesDto {
  @IsParameter()
  parameter: ParameterLike;

  @IsOptional()
  @PositiveIntArray()
  field_ids?: number[];
}

/** `?query=` of POST /api/dataset/parameter/search (the path form takes precedence). */
export class ParameterSearchQuery {
  @IsOptional()
  @NonBlankString()
  query?: string;
}
