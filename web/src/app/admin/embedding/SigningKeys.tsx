import { Alert, Badge, Button, Group, Loader, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import {
  useCreateEmbeddingKey,
  useEmbeddingKeys,
  useRevokeEmbeddingKey,
  useRotateEmbeddingKey,
  type EmbeddingKey,
} from '../../api/embedding-key';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyField } from '../../components/CopyField';
import { Warning } from '../../components/Warning';
import { showApiErrors } from '../../forms/api-errors';

type Dialog = { kind: 'create' } | { kind: 'rotate' | 'revoke' | 'shown'; key: EmbeddingKey } | null;

/** What the server accepts as a kid (KID_PATTERN of src/modules/embedding/embedding-keys.dto.ts), checked before sending. */
const KID = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Named signing keys (our extension of static embedding): a token whose header names a key's `kid` is checked with that
 * key only, so each customer can have its own secret, rotated or revoked without touching the others. A secret is
 * shown once, when it is made or rotated; the list shows its last two characters.
 */
export function SigningKeys() {
  const keys = useEmbeddingKeys();
  const rotate = useRotateEmbeddingKey();
  const revoke = useRevokeEmbeddingKey();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const name = dialog && 'key' in dialog ? dialog.key.name : '';

  return (
    <section aria-labelledby="signing-keys">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h3" id="signing-keys">
          Signing keys
        </Title>
        <Button variant="default" onClick={() => setDialog({ kind: 'create' })}>
          Add signing key
        </Button>
      </Group>
      <Text maw={720} mb="sm">
        A token whose header names a key (<code>kid</code>) is checked with that key only; a token without <code>kid</code> uses the
        embedding secret key above.
      </Text>
      {keys.isPending ? (
        <Loader aria-label="Loading signing keys" />
      ) : keys.error ? (
        <Alert color="red" variant="light" role="alert">
          {keys.error.message}
        </Alert>
      ) : keys.data.length === 0 ? (
        <Text c="dimmed">No signing keys yet.</Text>
      ) : (
        <KeysTable keys={keys.data} onAction={(kind, key) => setDialog({ kind, key })} />
      )}

      {dialog?.kind === 'create' && <CreateKeyForm onClose={close} onCreated={(key) => setDialog({ kind: 'shown', key })} />}
      {dialog?.kind === 'shown' && <NewSecretDialog signingKey={dialog.key} onClose={close} />}
      <ConfirmDialog
        opened={dialog?.kind === 'rotate'}
        title="Rotate this signing key?"
        confirmLabel="Rotate key"
        loading={rotate.isPending}
        onClose={close}
        onConfirm={() =>
          dialog?.kind === 'rotate' && rotate.mutate(dialog.key.kid, { onSuccess: (key) => setDialog({ kind: 'shown', key }) })
        }
      >
        {`Embeds signed with the current secret of ${name} stop working at once, until its server signs with the new one.`}
      </ConfirmDialog>
      <ConfirmDialog
        opened={dialog?.kind === 'revoke'}
        title="Revoke this signing key?"
        confirmLabel="Revoke key"
        loading={revoke.isPending}
        onClose={close}
        onConfirm={() => dialog?.kind === 'revoke' && revoke.mutate(dialog.key.kid, { onSuccess: close })}
      >
        {`Every embed signed with ${name} stops working, for good: its kid cannot be used again.`}
      </ConfirmDialog>
    </section>
  );
}

function KeysTable({ keys, onAction }: { keys: EmbeddingKey[]; onAction(kind: 'rotate' | 'revoke', key: EmbeddingKey): void }) {
  return (
    <Table withTableBorder striped aria-labelledby="signing-keys">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Key id (kid)</Table.Th>
          <Table.Th>Secret</Table.Th>
          <Table.Th>Created</Table.Th>
          <Table.Th>Actions</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {keys.map((k) => (
          <Table.Tr key={k.id}>
            <Table.Td>{k.name}</Table.Td>
            <Table.Td>
              <code>{k.kid}</code>
            </Table.Td>
            <Table.Td>
              <code>{k.masked_secret}</code>
            </Table.Td>
            <Table.Td>{new Date(k.created_at).toLocaleString()}</Table.Td>
            <Table.Td>
              {k.revoked_at ? (
                <Badge color="gray" variant="light">
                  Revoked
                </Badge>
              ) : (
                <Group gap={4} wrap="nowrap">
                  <Button size="xs" variant="default" onClick={() => onAction('rotate', k)} aria-label={`Rotate ${k.name}`}>
                    Rotate
                  </Button>
                  <Button size="xs" variant="default" color="red" onClick={() => onAction('revoke', k)} aria-label={`Revoke ${k.name}`}>
                    Revoke
                  </Button>
                </Group>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A new key: its name and kid; the server makes the secret. The API's refusals go to their field. */
function CreateKeyForm({ onClose, onCreated }: { onClose(): void; onCreated(key: EmbeddingKey): void }) {
  const create = useCreateEmbeddingKey();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: '', kid: '' },
    validate: {
      name: (v) => (v.trim() ? null : 'Give the key a name.'),
      kid: (v) => (KID.test(v) ? null : 'Use 1 to 64 letters, digits, _, . or -.'),
    },
  });

  const submit = form.onSubmit(async (v) => {
    setFormError(null);
    try {
      onCreated(await create.mutateAsync({ name: v.name.trim(), kid: v.kid }));
    } catch (e) {
      showApiErrors(form, e, { onOther: setFormError });
    }
  });

  return (
    <Modal opened onClose={onClose} title="Add signing key" centered>
      <form onSubmit={submit} noValidate aria-label="Add signing key">
        <Stack gap="sm">
          <TextInput
            label="Key name"
            description="Who signs with it, e.g. the customer."
            required
            data-autofocus
            {...form.getInputProps('name')}
          />
          <TextInput
            label="Key id (kid)"
            description="What the token header names: letters, digits, _, . or -."
            required
            {...form.getInputProps('kid')}
          />
          {formError && (
            <Alert color="red" variant="light" role="alert">
              {formError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Add
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A secret just made or rotated: the one time it is shown. */
function NewSecretDialog({ signingKey, onClose }: { signingKey: EmbeddingKey; onClose(): void }) {
  return (
    <Modal opened onClose={onClose} title="Copy the signing secret" centered size="lg">
      <Stack gap="sm">
        <Warning title="It is shown only now">
          Give it to the server that signs the tokens of {signingKey.name}, with <code>kid</code> &quot;{signingKey.kid}&quot; in their
          header. Once this window is closed it cannot be shown again; rotate the key if it is lost.
        </Warning>
        <CopyField label="Signing secret" value={signingKey.secret ?? ''} styles={{ input: { fontFamily: 'monospace' } }} />
        <Group justify="flex-end">
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
