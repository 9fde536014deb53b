import { Alert, Anchor, Button, Group, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useArchiveItems, useDeleteItems, type ItemRef } from '../api/item';
import { useSearch, type SearchResult } from '../api/search';
import { ConfirmModal } from '../components/ConfirmModal';
import { usePageTitle } from '../components/PageTitle';
import { notifySuccess } from '../notify';
import { formatDate, modelLabel, MOVABLE } from './items';

/**
 * `/trash`: what is archived (`GET /api/search?archived=true`: the server has no trash listing of its own), each with
 * where it was; restore it, or delete it for good.
 */
export function TrashPage() {
  usePageTitle('Trash');
  const trash = useSearch({ archived: 'true', limit: 500 });
  const restore = useArchiveItems();
  const remove = useDeleteItems();
  const [deleting, setDeleting] = useState<ItemRef | null>(null);
  const rows = (trash.data?.data ?? []).filter((r) => MOVABLE.has(r.model));
  const restoreOne = (r: SearchResult) =>
    restore.mutate({ items: [r], archived: false }, { onSuccess: () => notifySuccess(`${r.name} is restored.`) });
  return (
    <Stack gap="md">
      <Title order={1}>Trash</Title>
      <Text c="dimmed">Items in the trash are hidden everywhere else. Restore them, or delete them for good.</Text>
      {trash.isError && (
        <Alert color="red" variant="light" role="alert" title="The trash could not be loaded">
          {trash.error.message}
        </Alert>
      )}
      {trash.isPending ? (
        <Skeleton h={200} aria-label="Loading the trash" />
      ) : rows.length === 0 ? (
        <Text>The trash is empty.</Text>
      ) : (
        <Table aria-label="Trashed items" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Type</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Was in</Table.Th>
              <Table.Th>Last edited at</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={`${r.model}-${r.id}`}>
                <Table.Td>{modelLabel(r.model)}</Table.Td>
                <Table.Td>{r.name}</Table.Td>
                <Table.Td>
                  {r.collection.id === null ? (
                    'Our analytics'
                  ) : (
                    <Anchor component={Link} to={`/collection/${r.collection.id}`}>
                      {r.collection.name}
                    </Anchor>
                  )}
                </Table.Td>
                <Table.Td>{formatDate(r.last_edited_at)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant="light"
                      aria-label={`Restore ${r.name}`}
                      loading={restore.isPending && restore.variables?.items[0] === r}
                      onClick={() => restoreOne(r)}
                    >
                      Restore
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      aria-label={`Delete permanently ${r.name}`}
                      onClick={() => setDeleting(r)}
                    >
                      Delete permanently
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ConfirmModal
        opened={deleting !== null}
        title={`Delete ${deleting?.name ?? ''} permanently?`}
        confirmLabel="Delete permanently"
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(
            { items: [deleting] },
            {
              onSuccess: () => {
                notifySuccess(`${deleting.name} is deleted.`);
                setDeleting(null);
              },
            },
          )
        }
      >
        This cannot be undone.
      </ConfirmModal>
    </Stack>
  );
}
