import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDeleteDatabase, type DatabaseDetail } from '../../api/database';
import { notifySuccess } from '../../notify';

/**
 * Removing a database takes its metadata and permissions with it and breaks what was built on it: the admin types its
 * name first, as in Metabase, so a slip cannot do it.
 */
export function DeleteDatabaseModal({ database, opened, onClose }: { database: DatabaseDetail; opened: boolean; onClose(): void }) {
  const remove = useDeleteDatabase();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const matches = typed.trim() === database.name;
  const close = () => {
    setTyped('');
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={`Remove ${database.name}?`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!matches) return;
          // The promise, not mutate's callbacks: those are dropped if this dialog unmounts first.
          remove
            .mutateAsync(database.id)
            .then(() => {
              notifySuccess(`${database.name} is removed.`);
              navigate('/admin/databases', { replace: true });
            })
            // A refusal is shown by the toaster (the query client's mutation errors).
            .catch(() => undefined);
        }}
      >
        <Stack gap="md">
          <Text>
            Its table metadata and permissions are removed with it, and the questions built on it stop working. This cannot be undone.
          </Text>
          <TextInput
            label={`Type ${database.name} to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            autoComplete="off"
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" disabled={!matches} loading={remove.isPending}>
              Remove database
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
