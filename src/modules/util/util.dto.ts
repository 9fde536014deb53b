import { Allow } from 'class-validator';
import { MaxLen, NonBlankString, Nullable } from '../../common/validation/validators';

export class PasswordCheckDto {
  /** Checked by the password policy (not here), which never echoes the password back. */
  @Allow()
  password?: unknown;
}

/** Width of the `source` and `email` columns: longer must be a 400, not a database error. */

export class ProductFeedbackDto {
  @Nullable()
  @NonBlankString()
  comments?: string | null;

  @MaxLen(254)
  @NonBlankString()
  source: string;

  @Nullable()
  @MaxLen(254)
  @NonBlankString()
  email?: string | null;
}
