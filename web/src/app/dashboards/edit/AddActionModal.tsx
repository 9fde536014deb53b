import { Alert, Button, Loader, Modal, Stack, Text } from '@mantine/core';
import { useActions } from '../../api/dashboard-edit';
import type { DashcardAction } from '../../api/dashboard-view';

/** "Action button": one of the actions the person may see (made on a model's page). */
export function AddActionModal(props: { onPick: (a: DashcardAction) => void; onClose: () => void }) {
  const actions = useActions(true);
  return (
    <Modal opened onClose={props.onClose} title="Add an action button">
      <Stack gap={4}>
        {actions.isPending && <Loader size="sm" aria-label="Loading the actions" />}
        {actions.error && (
          <Alert color="red" role="alert">
            {actions.error.message}
          </Alert>
        )}
        {actions.data?.length === 0 && <Text c="dimmed">No actions yet: actions are made on a model.</Text>}
        {(actions.data ?? []).map((a) => (
          <Button key={a.id} variant="subtle" justify="flex-start" onClick={() => props.onPick(a)}>
            {a.name}
          </Button>
        ))}
      </Stack>
    </Modal>
  );
}
