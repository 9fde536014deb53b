import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { usePasswordCheck } from '../api/util';

/**
 * A new password, checked by the server's rules as it is typed (`POST /api/util/password_check`, debounced): the
 * server's reason is shown at the field, the same words setup would answer. A field error (an empty field, a
 * mismatch, the server's answer to the form) takes precedence.
 */
export function NewPasswordField({ value, error, ...props }: PasswordInputProps & { value: string }) {
  const [debounced] = useDebouncedValue(value, 300);
  const check = usePasswordCheck(debounced);
  const verdict = debounced === value ? check.data : undefined;
  const live = verdict && !verdict.valid ? verdict.message : null;
  const ok = verdict?.valid === true;
  return <PasswordInput {...props} value={value} error={error || live} description={ok && !error ? 'Strong enough.' : props.description} />;
}
