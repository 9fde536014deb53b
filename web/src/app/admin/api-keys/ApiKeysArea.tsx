import { Alert, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useApiKeys, useDeleteApiKey, useRegenerateApiKey, type ApiKey } from '../../api/api-key';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { usePageTitle } from '../../components/PageTitle';
import { ApiKeyForm } from './ApiKeyForm';
import { NewKeyDialog } from './NewKeyDialog';

type Dialog = { kind: 'create' } | { kind: 'edit' | 'regenerate' | 'delete'; key: ApiKey } | { kind: 'shown'; key: ApiKey } | null;

/**
 * Admin > Settings > Authentication > API keys (Metabase's path): keys scripts use in `X-Api-Key`, each acting as a
 * user of its group. A key is shown once, when created or regenerated; the list shows only its first characters.
 */
export default function ApiKeysArea() {
  usePageTitle('API keys');
  const keys = useApiKeys();
  const regenerate = useRegenerateApiKey();
  const remove = useDeleteApiKey();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1}>API keys</Title>
        <Button onClick={() => setDialog({ kind: 'create' })}>Create API key</Button>
      </Group>
      <Text maw={720}>
        A script or another server sends its key in the <code>X-Api-Key</code> header and acts with the permissions of the key&apos;s group.
      </Text>
      {keys.isPending ? (
        <Loader aria-label="Loading API keys" />
      ) : keys.error ? (
        <Alert color="red" variant="light" role="alert">
          {keys.error.message}
        </Alert>
      ) : keys.data.length === 0 ? (
        <Text c="dimmed">No API keys yet.</Text>
      ) : (
        <KeysTable keys={keys.data} onAction={(kind, key) => setDialog({ kind, key })} />
      )}

      {dialog?.kind === 'create' && <ApiKeyForm onClose={close} onCreated={(key) => setDialog({ kind: 'shown', key })} />}
      {dialog?.kind === 'edit' && <ApiKeyForm apiKey={dialog.key} onClose={close} />}
      {dialog?.kind === 'shown' && <NewKeyDialog apiKey={dialog.key} onClose={close} />}
      <ConfirmDialog
        opened={dialog?.kind === 'regenerate'}
        title="Regenerate this API key?"
        confirmLabel="Regenerate"
        loading={regenerate.isPending}
        onClose={close}
        onConfirm={() =>
          dialog?.kind === 'regenerate' && regenerate.mutate(dialog.key.id, { onSuccess: (key) => setDialog({ kind: 'shown', key }) })
        }
      >
        {`The key of ${dialog && 'key' in dialog ? dialog.key.name : ''} stops working at once; scripts using it need the new one.`}
      </ConfirmDialog>
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title="Delete this API key?"
        confirmLabel="Delete API key"
        loading={remove.isPending}
        onClose={close}
        onConfirm={() => dialog?.kind === 'delete' && remove.mutate(dialog.key.id, { onSuccess: close })}
      >
        {`Scripts using ${dialog && 'key' in dialog ? dialog.key.name : ''} can no longer call this server. This cannot be undone.`}
      </ConfirmDialog>
    </Stack>
  );
}

function KeysTable({ keys, onAction }: { keys: ApiKey[]; onAction(kind: 'edit' | 'regenerate' | 'delete', key: ApiKey): void }) {
  return (
    <Table withTableBorder striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Group</Table.Th>
          <Table.Th>Key</Table.Th>
          <Table.Th>Last changed</Table.Th>
          <Table.Th>Actions</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {keys.map((k) => (
          <Table.Tr key={k.id}>
            <Table.Td>{k.name}</Table.Td>
            <Table.Td>{k.group.name}</Table.Td>
            <Table.Td>
              <code>{k.masked_key}</code>
            </Table.Td>
            <Table.Td>
              {new Date(k.updated_at).toLocaleString()}
              {k.updated_by ? ` by ${k.updated_by.common_name}` : ''}
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <Button size="xs" variant="default" onClick={() => onAction('edit', k)} aria-label={`Edit ${k.name}`}>
                  Edit
                </Button>
                <Button size="xs" variant="default" onClick={() => onAction('regenerate', k)} aria-label={`Regenerate ${k.name}`}>
                  Regenerate
                </Button>
                <Button size="xs" variant="default" color="red" onClick={() => onAction('delete', k)} aria-label={`Delete ${k.name}`}>
                  Delete
                </Button>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
