import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';
import { MSG } from './messages';

/**
 * DTO decorators carrying the spec's messages. `Nullable` marks the spec's `?`: the key may be absent or null.
 * Each decorator stops at the first failing rule so the message is the one the spec names.
 */
export const Nullable = () => ValidateIf((_o, v) => v !== undefined && v !== null);

const opts = (message: string): ValidationOptions => ({ message });

export const NonBlankString = () => applyDecorators(IsString(opts(MSG.nonBlank)), Matches(/\S/, opts(MSG.nonBlank)));

export const PositiveInt = () => applyDecorators(IsInt(opts(MSG.positiveInt)), Min(1, opts(MSG.positiveInt)));

/** Ids are 32-bit integers in the app DB; a larger one could only fail inside the database. */
export const MAX_ID = 2_147_483_647;
/** An id of the app DB. */
export const Id = () => applyDecorators(PositiveInt(), Max(MAX_ID, { message: MSG.positiveInt }));

export const NonNegativeInt = () => applyDecorators(IsInt(opts(MSG.nonNegativeInt)), Min(0, opts(MSG.nonNegativeInt)));

export const IntBetween = (min: number, max: number) => {
  const message = `value must be an integer between ${min} and ${max}.`;
  return applyDecorators(IsInt({ message }), Min(min, { message }), Max(max, { message }));
};

/** A string of at most `max` characters (database columns are bounded; longer input must be a 400, not a 500). */
export const MaxLen = (max: number) => MaxLength(max, { message: `value must be a string of at most ${max} characters.` });

export const Bool = () => IsBoolean(opts(MSG.boolean));

export const IsMap = () => IsObject(opts(MSG.map));

export const OneOf = (values: readonly string[]) => IsIn(values as string[], opts(MSG.oneOf(values)));

export const Email = () => IsEmail({}, opts(MSG.email));

export const PositiveIntArray = (nonEmpty = false) =>
  applyDecorators(
    IsArray(opts(MSG.array)),
    ...(nonEmpty ? [ArrayNotEmpty(opts(MSG.nonEmptyArray))] : []),
    IsInt({ each: true, message: MSG.positiveInt }),
    Min(1, { each: true, message: MSG.positiveInt }),
  );

/** Query-string booleans: only the strings `true` and `false` are accepted (and turned into booleans). */
export const BoolString = () =>
  applyDecorators(
    IsIn(['true', 'false', true, false], opts(MSG.boolString)),
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value)),
  );
