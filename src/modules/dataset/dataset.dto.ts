import { applyDecorators } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsOptional, ValidateBy } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import { NonBlankString, PositiveIntArray } from '../../common/validation/validators';
import type { ParameterLike } from './parameter-values.service';

/** Metabase's `ms/Parameter`: a map with at least `id` and `type`. */
export function isParameter(v: unknown): boolean {
  return Boolean(v) && typeof v === 'object' && !Array.isArray(v) && 'id' in (v as object) && 'type' in (v as object);
}

/** A card's or dashboard's `parameters`: a list of `param` maps. */
export const ParameterList = () =>
  applyDecorators(
    IsArray({ message: MSG.array }),
    ValidateBy({
      name: 'isParameters',
      validator: { validate: (v) => Array.isArray(v) && v.every(isParameter), defaultMessage: () => MSG.param },
    }),
  );

export const MAPPING_MSG = 'value must be an array of maps with the keys `parameter_id` and `target`.';

/** `parameter_mappings`: each a map with `parameter_id` and `target`. */
export const isMappingList = (v: unknown): boolean =>
  Array.isArray(v) && v.every((m) => Boolean(m) && typeof m === 'object' && !Array.isArray(m) && 'parameter_id' in m && 'target' in m);

export const ParameterMappingList = () =>
  ValidateBy({ name: 'isParameterMappings', validator: { validate: isMappingList, defaultMessage: () => MAPPING_MSG } });

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
