import { ArrayMaxSize, IsOptional, ValidateBy } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import { NonBlankString, PositiveIntArray } from '../../common/validation/validators';
import type { ParameterLike } from './parameter-values.service';

/** Metabase's `ms/Parameter`: a map with at least `id` and `type`. */
export function isParameter(v: unknown): boolean {
  return Boolean(v) && typeof v === 'object' && !Array.isArray(v) && 'id' in (v as object) && 'type' in (v as object);
}

const IsParameter = () =>
  ValidateBy({ name: 'isParameter', validator: { validate: (v) => isParameter(v), defaultMessage: () => MSG.param } });

/** The most fields one parameter-values request may name (each may be read live from its warehouse). */
export const PARAMETER_FIELD_IDS_MAX = 1000;

/** POST /api/dataset/parameter/values and .../search/:query: `{parameter, field_ids?}`. */
export class ParameterValuesDto {
  @IsParameter()
  parameter: ParameterLike;

  // The type check (nearest the property) runs first, so only a well-formed but too long list gets the size message.
  @IsOptional()
  @ArrayMaxSize(PARAMETER_FIELD_IDS_MAX, { message: `value must be an array of at most ${PARAMETER_FIELD_IDS_MAX} field ids.` })
  @PositiveIntArray()
  field_ids?: number[];
}

/** `?query=` of POST /api/dataset/parameter/search (the path form takes precedence). */
export class ParameterSearchQuery {
  @IsOptional()
  @NonBlankString()
  query?: string;
}
