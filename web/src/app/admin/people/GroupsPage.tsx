import { ActionIcon, Alert, Anchor, Button, Group, Menu, Skeleton, Stack, Table, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router';
import { useCreateGroup, useDeleteGroup, useGroups, useRenameGroup, type Group as PermissionsGroup } from '../../api/permissions';
import { ConfirmModal } from '../../components/ConfirmModal';
import { RenameModal } from '../../components/RenameModal';
import { usePageTitle } from '../../components/PageTitle';
import { showApiErrors } from '../../forms/api-errors';
import { notifySuccess } from '../../notify';
import { PeopleNav } from './PeopleNav';

/** `/admin/people/groups`: the groups and how many people each has; create, rename and delete (not the built-in two). */
export function GroupsPage() {
  usePageTitle('Groups');
  const groups = useGroups();
  const [renaming, setRenaming] = useState<PermissionsGroup | null>(null);
  const [deleting, setDeleting] = useState<PermissionsGroup | null>(null);
  const remove = useDeleteGroup();
  return (
    <Stack gap="md">
      <Title order={1}>Groups</Title>
      <PeopleNav />
      <CreateGroupForm />
      {groups.isError && (
        <Alert color="red" variant="light" role="alert" title="The groups could not be loaded">
          {groups.error.message}
        </Alert>
      )}
      {groups.isPending ? (
        <Skeleton height={200} aria-label="Loading the groups" />
      ) : (
        groups.data && (
          <Table striped highlightOnHover aria-label="Groups">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Group name</Table.Th>
                <Table.Th>Members</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {groups.data.map((g) => (
                <Table.Tr key={g.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/admin/people/groups/${g.id}`}>
                      {g.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{g.member_count}</Table.Td>
                  <Table.Td>
                    {!g.magic_group_type && (
                      <Menu position="bottom-end">
                        <Menu.Target>
                          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${g.name}`}>
                            <span aria-hidden="true">⋯</span>
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item onClick={() => setRenaming(g)}>Rename group</Menu.Item>
                          <Menu.Item color="red" onClick={() => setDeleting(g)}>
                            Remove group
                          </Menu.Item>
                        </Menu.Dropdown>
                      </Menu>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )
      )}
      {renaming && <RenameGroupModal group={renaming} onClose={() => setRenaming(null)} />}
      <ConfirmModal
        opened={deleting !== null}
        title={`Remove the group ${deleting?.name ?? ''}?`}
        confirmLabel="Remove group"
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifySuccess(`${deleting.name} is removed.`);
              setDeleting(null);
            },
          })
        }
      >
        Its members lose the access it gave them; they stay in All Users and their other groups.
      </ConfirmModal>
    </Stack>
  );
}

function CreateGroupForm() {
  const create = useCreateGroup();
  const form = useForm({ initialValues: { name: '' }, validate: { name: (v) => (v.trim() ? null : 'Enter a name for the group.') } });
  const submit = form.onSubmit(async ({ name }) => {
    try {
      const group = await create.mutateAsync({ name: name.trim() });
      notifySuccess(`The group ${group.name} is created.`);
      form.reset();
    } catch (e) {
      // The API names no parameter for a taken name: it belongs at the name field all the same.
      showApiErrors(form, e, { onOther: (m) => form.setFieldError('name', m) });
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Create a group">
      <Group align="flex-start" gap="xs">
        <TextInput label="New group name" w={320} {...form.getInputProps('name')} />
        <Button type="submit" mt={25} loading={create.isPending}>
          Create group
        </Button>
      </Group>
    </form>
  );
}

function RenameGroupModal({ group, onClose }: { group: PermissionsGroup; onClose(): void }) {
  const rename = useRenameGroup(group.id);
  return (
    <RenameModal
      kind="group"
      name={group.name}
      pending={rename.isPending}
      rename={(name) => rename.mutateAsync({ name })}
      onClose={onClose}
    />
  );
}
