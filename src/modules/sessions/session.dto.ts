import { MaxLen, NonBlankString } from '../../common/validation/validators';

/** Bounded like the stored values (an email, a password the policy accepts), so nothing longer is ever hashed. */
export class LoginDto {
  @MaxLen(254)
  @NonBlankString()
  username: string;

  @MaxLen(1024)
  @NonBlankString()
  password: string;
}
