import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsArray, IsIn, ValidateBy } from 'class-validator';
import { Bool, BoolString, IsMap, NonBlankString, Nullable, OneOf, PositiveInt } from '../../common/validation/validators';
import { FieldVisibility, HasFieldValues } from '../../schema/field.entity';
import { COERCION_STRATEGIES, keywordName, SEMANTIC_TYPES } from './field-types';

export const FIELD_VISIBILITIES: readonly FieldVisibility[] = ['details-only', 'hidden', 'normal', 'retired', 'sensitive'];
export const HAS_FIELD_VALUES: readonly HasFieldValues[] = ['auto-list', 'list', 'none', 'search'];
export const DIMENSION_TYPES = ['external', 'internal'] as const;

export const FIELD_MSG = {
  semanticType: 'value must be a valid field semantic or relation type (keyword or string).',
  coercion: 'value must be a valid coercion strategy (keyword or string).',
  valuePairs: 'value must be an array of value pairs: arrays of a value and an optional non-blank human-readable string.',
  nonBlankArray: 'value must be an array of non-blank strings.',
} as const;

/** `type/Category` or `:type/Category`, checked against a fixed set of keywords. */
const Keyword = (allowed: ReadonlySet<string>, message: string) =>
  applyDecorators(
    Transform(({ value }) => keywordName(value)),
    IsIn([...allowed], { message }),
  );

export class UpdateFieldDto {
  @Nullable()
  @OneOf(FIELD_VISIBILITIES)
  visibility_type?: FieldVisibility | null;

  @Nullable()
  @NonBlankString()
  display_name?: string | null;

  @Nullable()
  @NonBlankString()
  description?: string | null;

  @Nullable()
  @NonBlankString()
  points_of_interest?: string | null;

  @Nullable()
  @NonBlankString()
  caveats?: string | null;

  @Nullable()
  @Keyword(SEMANTIC_TYPES, FIELD_MSG.semanticType)
  semantic_type?: string | null;

  @Nullable()
  @Keyword(COERCION_STRATEGIES, FIELD_MSG.coercion)
  coercion_strategy?: string | null;

  @Nullable()
  @OneOf(HAS_FIELD_VALUES)
  has_field_values?: HasFieldValues | null;

  @Nullable()
  @IsMap()
  settings?: Record<string, unknown> | null;

  @Nullable()
  @PositiveInt()
  fk_target_field_id?: number | null;

  @Nullable()
  @IsArray({ message: FIELD_MSG.nonBlankArray })
  @ValidateBy(
    {
      name: 'nonBlankStrings',
      validator: { validate: (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string' && /\S/.test(s)) },
    },
    { message: FIELD_MSG.nonBlankArray },
  )
  nfc_path?: string[] | null;

  @Nullable()
  @Bool()
  json_unfolding?: boolean | null;
}

const isPair = (p: unknown) => Array.isArray(p) && (p.length === 1 || (p.length === 2 && typeof p[1] === 'string' && /\S/.test(p[1])));

export class FieldValuesDto {
  @ValidateBy(
    { name: 'valuePairs', validator: { validate: (v: unknown) => Array.isArray(v) && v.every(isPair) } },
    { message: FIELD_MSG.valuePairs },
  )
  values: Array<[unknown] | [unknown, string]>;
}

export class DimensionDto {
  @OneOf(DIMENSION_TYPES)
  type: (typeof DIMENSION_TYPES)[number];

  @NonBlankString()
  name: string;

  @Nullable()
  @PositiveInt()
  human_readable_field_id?: number | null;
}

export class GetFieldQuery {
  @Nullable()
  @BoolString()
  include_editable_data_model?: boolean;
}

export class RemappingQuery {
  @NonBlankString()
  value: string;
}

/** Query-string integers; more than 9 digits stays a string and fails, so nothing overflows. */
const IntString = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value));

export class SearchQuery {
  @NonBlankString()
  value: string;

  @Nullable()
  @IntString()
  @PositiveInt()
  limit?: number;
}
