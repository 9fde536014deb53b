import { ApiError, MessageError } from '../../../common/errors/api-errors';

export const SAML_REJECTED_MESSAGE = 'Unable to log in: SAML response validation failed';

/**
 * A SAML response that failed validation: 401 with Metabase's fixed message. `reason` is for the log only and is
 * never sent (it may say which check failed, which helps an attacker more than a user).
 */
export class SamlRejected extends ApiError {
  readonly status = 401;
  constructor(readonly reason: string) {
    super(reason);
  }
  body() {
    return SAML_REJECTED_MESSAGE;
  }
}

/** SAML switched off, or not configured enough to start a login (400, as Metabase). */
export class SamlNotConfigured extends MessageError {
  constructor() {
    super('SAML has not been enabled and/or configured');
  }
}
