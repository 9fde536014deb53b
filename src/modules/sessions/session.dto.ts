import { NonBlankString } from '../../common/validation/validators';

export class LoginDto {
  @NonBlankString()
  username: string;

  @NonBlankString()
  password: string;
}
