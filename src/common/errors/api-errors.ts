/**
 * Domain errors. Services throw these; ApiExceptionFilter turns them into Metabase's wire shapes (a plain-text
 * status line, `{message}`, or `{errors, specific-errors}`). Besides these, the filter answers the query engine's
 * errors by their kind (query-engine/errors.ts); anything else is a bug and becomes a generic 500.
 */
export abstract class ApiError extends Error {
  abstract readonly status: number;
  /**
   * The public surface answers every failure but a 404 with a bare `An error occurred.`: true for the rare error it
   * answers as it is (a malformed UUID in the path says what is wrong).
   */
  readonly answeredPublicly: boolean = false;
  /** A string is sent as text/plain, an object as JSON. */
  abstract body(): string | Record<string, unknown>;
}

export class UnauthenticatedError extends ApiError {
  readonly status = 401;
  body() {
    return 'Unauthenticated';
  }
}

export class ForbiddenError extends ApiError {
  readonly status = 403;
  body() {
    return "You don't have permissions to do that.";
  }
}

export class NotFoundError extends ApiError {
  readonly status = 404;
  body() {
    return 'Not found.';
  }
}

export class ArchivedError extends ApiError {
  readonly status = 404;
  body() {
    return { message: 'The object has been archived.', error_code: 'archived' };
  }
}

/** Any failure with a message for the user: `{message}` with the given status (400 by default). */
export class MessageError extends ApiError {
  constructor(
    message: string,
    readonly status = 400,
    private readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
  body() {
    return { message: this.message, ...this.extra };
  }
}

/** 400 `{errors: {param: why}, specific-errors: {param: [why, received: value]}}`. */
export class ValidationError extends ApiError {
  readonly status = 400;
  constructor(
    readonly errors: Record<string, string>,
    readonly specificErrors: Record<string, string[]> = {},
  ) {
    super(
      Object.entries(errors)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; '),
    );
  }

  static of(param: string, why: string, received?: unknown): ValidationError {
    return new ValidationError({ [param]: why }, { [param]: [describeReceived(why, received)] });
  }

  body() {
    return { errors: this.errors, 'specific-errors': this.specificErrors };
  }
}

/** Metabase's login throttle answer: a 400 naming the parameter, as its clients expect. */
export class TooManyAttemptsError extends ApiError {
  readonly status = 400;
  constructor(
    readonly param: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`Too many attempts! You must wait ${retryAfterSeconds} seconds before trying again.`);
  }
  body() {
    return { errors: { [this.param]: this.message } };
  }
}

export function describeReceived(why: string, received: unknown): string {
  let shown: string;
  try {
    shown = received === undefined ? 'nothing' : JSON.stringify(received);
  } catch {
    shown = String(received);
  }
  if (shown.length > 200) shown = `${shown.slice(0, 200)}...`;
  return `${why.replace(/\.$/, '')}, received: ${shown}`;
}

/** 401 with Metabase's login failure body. */
export class InvalidCredentialsError extends ApiError {
  readonly status = 401;
  constructor(private readonly reason = 'did not match stored password') {
    super(reason);
  }
  body() {
    return { errors: { password: this.reason } };
  }
}
