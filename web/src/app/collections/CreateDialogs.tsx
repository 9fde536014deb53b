import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { collectionPath, useCreateCollection } from '../api/collection';
import { useCreateDashboard } from '../api/dashboard';
import { showApiErrors } from '../forms/api-errors';
import { notifySuccess } from '../notify';
import { CollectionPicker, ROOT, type PickedCollection } from './CollectionPicker';

export type CreateKind = 'collection' | 'dashboard';

/**
 * "New collection" and "New dashboard": a name, a description, and where it goes (the collection the person is in,
 * or another one chosen in the picker). The new collection opens at once; a new dashboard opens at its page.
 */
export function CreateDialog({ kind, parent = ROOT, onClose }: { kind: CreateKind; parent?: PickedCollection; onClose(): void }) {
  const [where, setWhere] = useState<PickedCollection>(parent);
  const [picking, setPicking] = useState(false);
  const [other, setOther] = useState<string | null>(null);
  const createCollection = useCreateCollection();
  const createDashboard = useCreateDashboard();
  const navigate = useNavigate();
  const noun = kind === 'collection' ? 'collection' : 'dashboard';
  const form = useForm({
    initialValues: { name: '', description: '' },
    validate: { name: (v) => (v.trim() ? null : `Enter a name for the ${noun}.`) },
  });
  const submit = form.onSubmit(async ({ name, description }) => {
    setOther(null);
    const body = { name: name.trim(), description: description.trim() || null };
    try {
      if (kind === 'collection') {
        const c = await createCollection.mutateAsync({ ...body, parent_id: where.id });
        notifySuccess(`The collection ${c.name} is created.`);
        navigate(collectionPath(c));
      } else {
        const d = await createDashboard.mutateAsync({ ...body, collection_id: where.id });
        notifySuccess(`The dashboard ${d.name} is created.`);
        navigate(`/dashboard/${d.id}`);
      }
      onClose();
    } catch (e) {
      showApiErrors(form, e, { onOther: setOther });
    }
  });
  const title = kind === 'collection' ? 'New collection' : 'New dashboard';
  return (
    <>
      <Modal opened={!picking} onClose={onClose} title={title}>
        <form onSubmit={submit} noValidate aria-label={title}>
          <Stack gap="md">
            {other && (
              <Alert color="red" variant="light" role="alert">
                {other}
              </Alert>
            )}
            <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
            <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
            <Group gap="xs" align="center">
              <Text size="sm">
                In <strong>{where.name}</strong>
              </Text>
              <Button variant="subtle" size="compact-sm" onClick={() => setPicking(true)}>
                Change collection
              </Button>
            </Group>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={createCollection.isPending || createDashboard.isPending}>
                Create
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      {picking && (
        <CollectionPicker
          title={`Where the ${noun} goes`}
          confirmLabel="Choose"
          initial={where}
          onClose={() => setPicking(false)}
          onPick={(c) => {
            setWhere(c);
            setPicking(false);
          }}
        />
      )}
    </>
  );
}
