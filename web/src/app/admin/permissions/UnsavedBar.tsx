import { Alert, Button, Group, Paper, Text } from '@mantine/core';

/**
 * The bar under a permissions grid while it has unsaved changes: save or discard them. A save refused because
 * someone else saved first (409) says so and offers to reload, rather than overwriting their changes.
 */
export function UnsavedBar(props: {
  count: number;
  saving: boolean;
  conflict: boolean;
  error: string | null;
  onSave(): void;
  onDiscard(): void;
  onReload(): void;
}) {
  if (props.count === 0 && !props.conflict && !props.error) return null;
  return (
    <Paper
      withBorder
      shadow="md"
      p="sm"
      component="section"
      aria-label="Unsaved changes"
      style={{ position: 'sticky', bottom: 0, zIndex: 2 }}
    >
      {props.conflict ? (
        <Alert color="red" variant="light" role="alert" title="Someone else changed these permissions">
          <Text size="sm">
            The permissions were saved by someone else since you opened them, so yours were not saved. Reload to see the current
            permissions, then make your changes again.
          </Text>
          <Group mt="xs">
            <Button color="red" onClick={props.onReload}>
              Reload permissions
            </Button>
          </Group>
        </Alert>
      ) : (
        <Group justify="space-between">
          <Text role="status" aria-live="polite">
            {props.error ?? (props.count === 1 ? 'You have 1 unsaved change.' : `You have ${props.count} unsaved changes.`)}
          </Text>
          <Group gap="xs">
            <Button variant="default" onClick={props.onDiscard} disabled={props.saving}>
              Discard changes
            </Button>
            <Button onClick={props.onSave} loading={props.saving}>
              Save changes
            </Button>
          </Group>
        </Group>
      )}
    </Paper>
  );
}
