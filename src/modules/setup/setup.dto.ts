import { Type } from 'class-transformer';
import { IsObject, IsOptional, ValidateNested } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import { Email, NonBlankString, Nullable } from '../../common/validation/validators';

export class SetupUserDto {
  @Email()
  email: string;

  @NonBlankString()
  password: string;

  @Nullable()
  @NonBlankString()
  first_name?: string | null;

  @Nullable()
  @NonBlankString()
  last_name?: string | null;
}

export class SetupPrefsDto {
  @Nullable()
  @NonBlankString()
  site_name?: string;

  @Nullable()
  @NonBlankString()
  site_locale?: string;
}

export class SetupDto {
  @NonBlankString()
  token: string;

  @IsObject({ message: MSG.map })
  @ValidateNested()
  @Type(() => SetupUserDto)
  user: SetupUserDto;

  @IsOptional()
  @IsObject({ message: MSG.map })
  @ValidateNested()
  @Type(() => SetupPrefsDto)
  prefs?: SetupPrefsDto;
}
