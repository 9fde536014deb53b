import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSetPassword, type User } from '../../api/user';
import { generatePassword } from './password';
import { PasswordReveal } from './PasswordReveal';

/** An admin gives someone a new, generated password (shown once); their sessions elsewhere end. */
export function ResetPasswordModal({ user, onClose }: { user: User; onClose(): void }) {
  const setPassword = useSetPassword(user.id);
  const [password, setShown] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const name = user.common_name ?? user.email;
  const reset = async () => {
    setError(null);
    const generated = generatePassword();
    try {
      await setPassword.mutateAsync(generated);
      setShown(generated);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <Modal opened onClose={onClose} title={`Reset ${name}'s password?`}>
      {password ? (
        <PasswordReveal intro={`${name} can now sign in with this password.`} password={password} onDone={onClose} />
      ) : (
        <Stack gap="md">
          <Text>They get a new password, shown to you once; they are signed out everywhere else.</Text>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color="red" onClick={reset} loading={setPassword.isPending}>
              Reset password
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
