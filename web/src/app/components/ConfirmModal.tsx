import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A yes-or-no question before something that cannot be undone. */
export function ConfirmModal(props: {
  opened: boolean;
  title: string;
  confirmLabel: string;
  onClose(): void;
  onConfirm(): void;
  loading?: boolean;
  children: ReactNode;
}) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title}>
      <Stack gap="md">
        <Text>{props.children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={props.onConfirm} loading={props.loading}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
