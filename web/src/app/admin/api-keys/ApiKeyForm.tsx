import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useCreateApiKey, useUpdateApiKey, type ApiKey } from '../../api/api-key';
import { useGroups } from '../../api/permissions';
import { showApiErrors } from '../../forms/api-errors';
import { notifySuccess } from '../../notify';

/** Create a key (its name and group), or change an existing key's name and group. The API's refusals go to their field. */
export function ApiKeyForm({ apiKey, onClose, onCreated }: { apiKey?: ApiKey; onClose(): void; onCreated?(key: ApiKey): void }) {
  const groups = useGroups();
  const create = useCreateApiKey();
  const update = useUpdateApiKey();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: apiKey?.name ?? '', group_id: apiKey ? String(apiKey.group.id) : '' },
    validate: {
      name: (v) => (v.trim() ? null : 'Give the key a name.'),
      group_id: (v) => (v ? null : 'Pick the group the key acts as a member of.'),
    },
  });

  const submit = form.onSubmit(async (v) => {
    setFormError(null);
    const body = { name: v.name.trim(), group_id: Number(v.group_id) };
    try {
      if (apiKey) {
        await update.mutateAsync({ id: apiKey.id, body });
        notifySuccess('API key saved.');
        onClose();
      } else {
        onCreated?.(await create.mutateAsync(body));
      }
    } catch (e) {
      showApiErrors(form, e, { onOther: setFormError });
    }
  });

  return (
    <Modal opened onClose={onClose} title={apiKey ? 'Edit API key' : 'Create API key'} centered>
      <form onSubmit={submit} noValidate aria-label={apiKey ? 'Edit API key' : 'Create API key'}>
        <Stack gap="sm">
          <TextInput label="Key name" required data-autofocus {...form.getInputProps('name')} />
          <Select
            label="Group"
            description="The key acts with this group's permissions."
            required
            data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
            allowDeselect={false}
            searchable
            {...form.getInputProps('group_id')}
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
            <Button type="submit" loading={create.isPending || update.isPending}>
              {apiKey ? 'Save' : 'Create'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
