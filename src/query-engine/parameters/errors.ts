/**
 * A parameter value or template tag the user has to fix (a 400-ish error, never a server fault).
 * `tag` names the template tag or parameter concerned, when there is one.
 */
export class ParameterError extends Error {
  readonly kind = 'parameter';

  constructor(
    message: string,
    readonly tag?: string,
  ) {
    super(message);
    this.name = 'ParameterError';
  }
}
