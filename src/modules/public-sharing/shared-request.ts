import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';

/** A `str+` parameter. */
export function nonBlank(name: string, v: unknown): string {
  if (typeof v !== 'string' || !/\S/.test(v)) throw ValidationError.of(name, MSG.nonBlank, v);
  return v;
}
