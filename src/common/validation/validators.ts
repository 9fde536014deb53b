import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  ArrayNotEmpty, IsArray, IsBoolean, IsEmail, IsIn, IsInt, IsObject, IsString, Matches, Min, ValidateIf, ValidationOptions,
} from 'class-validator';
import { MSG } from './messages';

/**
 * DTO decorators carrying the spec's messages. `Nullable` marks the spec's `?`: the key may be absent or null.
 * Each decorator stops at the first failing rule so the message is the one the spec names.
 */
export const Nullable = () => ValidateIf((_o, v) => v !== undefined && v !== null);

const opts = (message: string): ValidationOptions => ({ message });

export const NonBlankString = () =>
  applyDecorators(IsString(opts(MSG.nonBlank)), Matches(/\S/, opts(MSG.nonBlank)));

export const PositiveInt = () => applyDecorators(IsInt(opts(MSG.positiveInt)), Min(1, opts(MSG.positiveInt)));

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
