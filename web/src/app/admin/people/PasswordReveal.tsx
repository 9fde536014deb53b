import { Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';

/** A password shown once, with a copy button: the server keeps only its hash, so it cannot be shown again. */
export function PasswordReveal({ intro, password, onDone }: { intro: string; password: string; onDone(): void }) {
  return (
    <Stack gap="md">
      <Text>{intro}</Text>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label="Temporary password"
          value={password}
          readOnly
          style={{ flex: 1 }}
          ff="monospace"
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton value={password}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy} aria-live="polite">
              {copied ? 'Copied' : 'Copy password'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="sm" c="dimmed">
        It is shown only now. Give it to them safely; they can change it in their account settings.
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone} data-autofocus>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
