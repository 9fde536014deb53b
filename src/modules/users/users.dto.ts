import { applyDecorators } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import { IsArray, IsString, Matches, MaxLength, ValidateBy, ValidateNested } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import {
  Bool,
  BoolString,
  Email,
  IsMap,
  MaxLen,
  NonBlankString,
  NonNegativeInt,
  Nullable,
  OneOf,
  PositiveInt,
  Id,
} from '../../common/validation/validators';
import { ATTRIBUTE_MSG, isAttributeValue, isReservedKey } from './user-attributes';

const NAME_MAX = 254;
const LOCALE_MESSAGE = "String must be a valid two-letter ISO language or language-country code e.g. 'en' or 'en_US'.";

const Name = () => applyDecorators(NonBlankString(), MaxLen(NAME_MAX));
const EmailAddress = () => applyDecorators(Email(), MaxLength(NAME_MAX, { message: MSG.email }));

/** Query-string integers; longer than 9 digits stays a string and fails, so no value can overflow a 32-bit column. */
const IntString = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value));

export class GroupMembershipDto {
  @Id()
  id: number;

  @Nullable()
  @Bool()
  is_group_manager?: boolean | null;
}

const entriesOf = (v: unknown) => (v && typeof v === 'object' ? Object.entries(v) : []);

/** A map of attribute names to parameter values; `@` names are the system's (tenants). One message per broken rule. */
export const LoginAttributes = () =>
  applyDecorators(
    IsMap(),
    ValidateBy(
      { name: 'loginAttributeKeys', validator: { validate: (v: unknown) => entriesOf(v).every(([k]) => !isReservedKey(k)) } },
      { message: ATTRIBUTE_MSG.reservedKey },
    ),
    ValidateBy(
      { name: 'loginAttributeValues', validator: { validate: (v: unknown) => entriesOf(v).every(([, x]) => isAttributeValue(x)) } },
      { message: ATTRIBUTE_MSG.value },
    ),
    Nullable(),
  );

const Memberships = () =>
  applyDecorators(
    IsArray({ message: MSG.array }),
    ValidateNested({ each: true, message: 'value must be a sequence of maps with an `id` key.' }),
    Type(() => GroupMembershipDto),
  );

export type UserStatus = 'active' | 'deactivated' | 'all';

export class ListUsersQuery {
  @Nullable()
  @BoolString()
  include_deactivated?: boolean;

  @Nullable()
  @OneOf(['active', 'deactivated', 'all'])
  status?: UserStatus;

  @Nullable()
  @IsString({ message: 'value must be a string.' })
  query?: string;

  @Nullable()
  @IntString()
  @PositiveInt()
  group_id?: number;

  @Nullable()
  @IntString()
  @PositiveInt()
  limit?: number;

  @Nullable()
  @IntString()
  @NonNegativeInt()
  offset?: number;
}

export class CreateUserDto {
  @EmailAddress()
  email: string;

  @Nullable()
  @Name()
  first_name?: string | null;

  @Nullable()
  @Name()
  last_name?: string | null;

  /** The password policy itself is applied by the service (it depends on a setting). */
  @Nullable()
  @NonBlankString()
  password?: string | null;

  @Nullable()
  @Memberships()
  user_group_memberships?: GroupMembershipDto[] | null;

  @LoginAttributes()
  login_attributes?: Record<string, unknown> | null;
}

/** Absent keys change nothing; `null` clears the names, the locale and the login attributes. */
export class UpdateUserDto {
  @Nullable()
  @EmailAddress()
  email?: string | null;

  @Nullable()
  @Name()
  first_name?: string | null;

  @Nullable()
  @Name()
  last_name?: string | null;

  @Nullable()
  @Matches(/^[a-zA-Z]{2}([-_][a-zA-Z]{2})?$/, { message: LOCALE_MESSAGE })
  locale?: string | null;

  @Nullable()
  @Bool()
  is_superuser?: boolean | null;

  @Nullable()
  @Memberships()
  user_group_memberships?: GroupMembershipDto[] | null;

  @LoginAttributes()
  login_attributes?: Record<string, unknown> | null;
}

export class ChangePasswordDto {
  @NonBlankString()
  password: string;

  @Nullable()
  @IsString({ message: MSG.nonBlank })
  old_password?: string | null;
}

/** PUT /api/mt/user/:id/attributes: the older way to set what PUT /api/user/:id sets. */
export class SetLoginAttributesDto {
  @LoginAttributes()
  login_attributes?: Record<string, unknown> | null;
}
