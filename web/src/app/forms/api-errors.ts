import { ApiError } from '../api/client';
import { notifyError } from '../notify';

/** The part of a Mantine form (`useForm`) the mapping needs: which fields it has, and how to set their errors. */
export interface FormLike<Values> {
  getValues(): Values;
  setErrors(errors: Record<string, string>): void;
}

/**
 * Puts an API error where it belongs: each `errors.<param>` beside the form's field of that name (or the one `fields`
 * maps it to: the API's `username` is the form's `email`); what names no field of the form (a `{message}`, an
 * unknown parameter, a network failure) goes to `onOther` when given (an alert in the form), else to the toaster.
 * Answers true when at least one field got an error.
 */
export function showApiErrors<Values extends object>(
  form: FormLike<Values>,
  error: unknown,
  opts: { fields?: Record<string, keyof Values & string>; onOther?: (message: string) => void } = {},
): boolean {
  const other = opts.onOther ?? notifyError;
  if (!(error instanceof ApiError)) {
    other(error instanceof Error ? error.message : String(error));
    return false;
  }
  const known = new Set(Object.keys(form.getValues()));
  const onFields: Record<string, string> = {};
  const rest: string[] = [];
  for (const [param, why] of Object.entries(error.fieldErrors)) {
    const field = opts.fields?.[param] ?? param;
    if (known.has(field)) onFields[field] = why;
    else rest.push(why);
  }
  form.setErrors(onFields);
  const placed = Object.keys(onFields).length > 0;
  if (!placed && rest.length === 0) other(error.message);
  else if (rest.length > 0) other(rest.join(' '));
  return placed;
}
