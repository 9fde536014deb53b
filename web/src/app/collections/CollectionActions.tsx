import { ActionIcon, Button, Group, Menu, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useBookmarks, useToggleBookmark } from '../api/bookmark';
import { collectionPath, useUpdateCollection, type Collection } from '../api/collection';
import { useMoveItems } from '../api/item';
import { ConfirmModal } from '../components/ConfirmModal';
import { showApiErrors } from '../forms/api-errors';
import { notifySuccess } from '../notify';
import { CollectionPicker } from './CollectionPicker';
import { CreateDialog } from './CreateDialogs';

/** The header's actions on the collection shown: bookmark, a new collection inside, rename, move, move to the trash. */
export function CollectionActions({ collection }: { collection: Collection & { id: number } }) {
  const [dialog, setDialog] = useState<'new' | 'rename' | 'move' | 'archive' | null>(null);
  const bookmarks = useBookmarks();
  const toggle = useToggleBookmark();
  const update = useUpdateCollection();
  const move = useMoveItems();
  const navigate = useNavigate();
  const marked = bookmarks.data?.some((b) => b.type === 'collection' && b.item_id === collection.id) ?? false;
  const close = () => setDialog(null);
  const editable = collection.can_write && !collection.archived;
  const personal = (collection.personal_owner_id ?? null) !== null;
  const parentPath = collection.effective_ancestors.at(-1);
  return (
    <Group gap="xs">
      <Button
        variant={marked ? 'light' : 'default'}
        aria-pressed={marked}
        loading={toggle.isPending}
        onClick={() =>
          toggle.mutate(
            { type: 'collection', id: collection.id, on: !marked },
            { onSuccess: () => notifySuccess(marked ? 'Bookmark removed.' : 'Bookmarked.') },
          )
        }
      >
        {marked ? 'Remove bookmark' : 'Bookmark'}
      </Button>
      {editable && (
        <Menu position="bottom-end">
          <Menu.Target>
            <ActionIcon variant="default" size="lg" aria-label="Collection actions">
              <span aria-hidden="true">⋯</span>
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => setDialog('new')}>New collection here</Menu.Item>
            {!personal && (
              <>
                <Menu.Item onClick={() => setDialog('rename')}>Rename</Menu.Item>
                <Menu.Item onClick={() => setDialog('move')}>Move</Menu.Item>
                <Menu.Item color="red" onClick={() => setDialog('archive')}>
                  Move to trash
                </Menu.Item>
              </>
            )}
          </Menu.Dropdown>
        </Menu>
      )}
      {dialog === 'new' && <CreateDialog kind="collection" parent={{ id: collection.id, name: collection.name }} onClose={close} />}
      {dialog === 'rename' && <RenameDialog collection={collection} onClose={close} />}
      {dialog === 'move' && (
        <CollectionPicker
          title={`Move ${collection.name}`}
          confirmLabel="Move"
          exclude={new Set([collection.id])}
          loading={move.isPending}
          onClose={close}
          onPick={(to) =>
            move.mutate(
              { items: [{ model: 'collection', id: collection.id, name: collection.name }], to: to.id },
              {
                onSuccess: () => {
                  notifySuccess(`${collection.name} is moved to ${to.name}.`);
                  close();
                },
              },
            )
          }
        />
      )}
      <ConfirmModal
        opened={dialog === 'archive'}
        title={`Move ${collection.name} to the trash?`}
        confirmLabel="Move to trash"
        loading={update.isPending}
        onClose={close}
        onConfirm={() =>
          update.mutate(
            { id: collection.id, archived: true },
            {
              onSuccess: () => {
                notifySuccess(`${collection.name} is in the trash.`);
                close();
                navigate(parentPath ? collectionPath(parentPath) : '/collection/root');
              },
            },
          )
        }
      >
        Everything in it goes to the trash with it. You can restore it from the trash.
      </ConfirmModal>
    </Group>
  );
}

function RenameDialog({ collection, onClose }: { collection: Collection & { id: number }; onClose(): void }) {
  const update = useUpdateCollection({ formErrors: true });
  const form = useForm({
    initialValues: { name: collection.name, description: collection.description ?? '' },
    validate: { name: (v) => (v.trim() ? null : 'Enter a name for the collection.') },
  });
  const submit = form.onSubmit(async ({ name, description }) => {
    try {
      await update.mutateAsync({ id: collection.id, name: name.trim(), description: description.trim() || null });
      notifySuccess(`The collection is renamed ${name.trim()}.`);
      onClose();
    } catch (e) {
      showApiErrors(form, e, { onOther: (m) => form.setFieldError('name', m) });
    }
  });
  return (
    <Modal opened onClose={onClose} title={`Rename ${collection.name}`}>
      <form onSubmit={submit} noValidate aria-label="Rename collection">
        <Stack gap="md">
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <TextInput label="Description" {...form.getInputProps('description')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
