import { Allow, MaxLength } from 'class-validator';
import { NonBlankString, Nullable } from '../../common/validation/validators';

export class PasswordCheckDto {
  /** Checked by the password policy (not here), which never echoes the password back. */
  @Allow()
  password?: unknown;
}

/** Width of the `source` and `email` columns: longer must be a 400, not a database error. */
const tooLong = { message: 'value must be a string of at most 254 characters.' };

export class ProductFeedbackDto {
  @Nullable()
  @NonBlankString()
  comments?: string | null;

  @MaxLength(254, tooLong)
  @NonBlankString()
  source: string;

  @Nullable()
  @MaxLength(254, tooLong)
  @NonBlankString()
  email?: string | null;
}
