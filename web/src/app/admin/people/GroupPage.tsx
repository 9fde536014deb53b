import { Alert, Anchor, Breadcrumbs, Button, Group, Select, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/client';
import { ALL_USERS_GROUP_ID, useAddMember, useGroup, useRemoveMember } from '../../api/permissions';
import { useUsers } from '../../api/user';
import { NotFound } from '../../components/NotFound';
import { usePageTitle } from '../../components/PageTitle';
import { notifySuccess } from '../../notify';

/** `/admin/people/groups/:id`: a group's members; add someone (searched on the server) or remove them. */
export function GroupPage() {
  const id = Number(useParams().id);
  const group = useGroup(id);
  const remove = useRemoveMember();
  usePageTitle(group.data?.name ?? 'Group');
  if (isApiError(group.error) && group.error.status === 404) return <NotFound />;
  const g = group.data;
  const fixed = id === ALL_USERS_GROUP_ID;
  return (
    <Stack gap="md">
      <Breadcrumbs aria-label="Breadcrumb">
        <Anchor component={Link} to="/admin/people/groups">
          Groups
        </Anchor>
        <span aria-current="page">{g?.name ?? '…'}</span>
      </Breadcrumbs>
      <Title order={1}>{g?.name ?? 'Group'}</Title>
      {group.isError && (
        <Alert color="red" variant="light" role="alert" title="The group could not be loaded">
          {group.error.message}
        </Alert>
      )}
      {fixed ? (
        <Text>Everyone is a member of All Users: people join it when they are added.</Text>
      ) : (
        <AddMember groupId={id} members={g?.members.map((m) => m.user_id) ?? []} />
      )}
      {group.isPending ? (
        <Skeleton height={200} aria-label="Loading the members" />
      ) : (
        g && (
          <>
            <Text size="sm">{g.members.length === 1 ? '1 member' : `${g.members.length} members`}</Text>
            <Table striped aria-label="Members">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {g.members.map((m) => (
                  <Table.Tr key={m.membership_id}>
                    <Table.Td>{m.common_name}</Table.Td>
                    <Table.Td>{m.email}</Table.Td>
                    <Table.Td>
                      {!fixed && (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          loading={remove.isPending && remove.variables === m.membership_id}
                          onClick={() =>
                            remove.mutate(m.membership_id, {
                              onSuccess: () => notifySuccess(`${m.common_name} is removed from ${g.name}.`),
                            })
                          }
                        >
                          Remove {m.common_name}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        )
      )}
    </Stack>
  );
}

/** A person to add, searched by name or email on the server as it is typed (a few at a time, however many there are). */
function AddMember({ groupId, members }: { groupId: number; members: number[] }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 200);
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  // Choosing puts the option's label in the search box: that is not a new search.
  const query = chosen && debounced === chosen.label ? '' : debounced.trim();
  const found = useUsers({ query: query || undefined, limit: 20 });
  const add = useAddMember();
  const options = (found.data?.data ?? [])
    .filter((u) => !members.includes(u.id))
    .map((u) => ({ value: String(u.id), label: `${u.common_name ?? u.email} (${u.email})` }));
  if (chosen && !options.some((o) => o.value === chosen.value)) options.unshift(chosen);
  return (
    <form
      aria-label="Add a member"
      onSubmit={(e) => {
        e.preventDefault();
        if (!chosen) return;
        add.mutate(
          { group_id: groupId, user_id: Number(chosen.value) },
          {
            onSuccess: () => {
              notifySuccess('Added to the group.');
              setChosen(null);
              setSearch('');
            },
          },
        );
      }}
    >
      <Group align="flex-end" gap="xs">
        <Select
          label="Add a member"
          placeholder="Search by name or email"
          searchable
          data={options}
          value={chosen?.value ?? null}
          onChange={(value, option) => setChosen(value ? option : null)}
          searchValue={search}
          onSearchChange={setSearch}
          // The server searched already: every option it answered is shown.
          filter={({ options: all }) => all}
          nothingFoundMessage={found.isFetching ? 'Searching…' : 'No one found'}
          w={360}
        />
        <Button type="submit" disabled={!chosen} loading={add.isPending}>
          Add
        </Button>
      </Group>
    </form>
  );
}
