import { ValidationError as ClassValidatorError } from 'class-validator';
import { ValidationError, describeReceived } from '../errors/api-errors';

/** Turns class-validator's findings into the `{errors, specific-errors}` body, one message per parameter. */
export function validationExceptionFactory(found: ClassValidatorError[]): ValidationError {
  const errors: Record<string, string> = {};
  const specific: Record<string, string[]> = {};
  const visit = (e: ClassValidatorError, prefix: string) => {
    const key = prefix ? `${prefix}.${e.property}` : e.property;
    const messages = Object.values(e.constraints ?? {});
    if (messages.length > 0) {
      const top = prefix ? prefix.split('.')[0] : key;
      errors[top] ??= messages[messages.length - 1];
      (specific[top] ??= []).push(...messages.map((m) => describeReceived(m, e.value)));
    }
    for (const child of e.children ?? []) visit(child, key);
  };
  found.forEach((e) => visit(e, ''));
  return new ValidationError(errors, specific);
}
