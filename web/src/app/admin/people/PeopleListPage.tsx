import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Menu,
  Pagination,
  Radio,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useGroups, ALL_USERS_GROUP_ID } from '../../api/permissions';
import { useCurrentUser, useSetUserActive, useUsers, type User } from '../../api/user';
import { ConfirmModal } from '../../components/ConfirmModal';
import { usePageTitle } from '../../components/PageTitle';
import { notifySuccess } from '../../notify';
import { PeopleNav } from './PeopleNav';
import { ResetPasswordModal } from './ResetPasswordModal';
import { UserFormModal } from './UserFormModal';

export const PAGE_SIZE = 25;

type Dialog = { kind: 'create' } | { kind: 'edit' | 'reset' | 'deactivate'; user: User } | null;

/**
 * `/admin/people`: people searched and paged by the server (`GET /api/user?query&limit&offset`), so ten thousand
 * stay as fast as ten; the search, the page and active/deactivated live in the URL (`?q=`, `?page=`, `?status=`).
 */
export function PeopleListPage() {
  usePageTitle('People');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const status = params.get('status') === 'deactivated' ? 'deactivated' : 'active';
  const [search, setSearch] = useState(q);
  const [debounced] = useDebouncedValue(search, 250);
  const [dialog, setDialog] = useState<Dialog>(null);

  const setParam = (changes: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes))
          if (v) next.set(k, v);
          else next.delete(k);
        return next;
      },
      { replace: true },
    );
  useEffect(() => {
    if (debounced.trim() !== q) setParam({ q: debounced.trim() || null, page: null });
    // Only a new debounced text searches: the URL changing (back, a link) must not be overwritten by the old text.
  }, [debounced]);

  const users = useUsers({ query: q || undefined, status, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Title order={1}>People</Title>
        <Button onClick={() => setDialog({ kind: 'create' })}>Add someone</Button>
      </Group>
      <PeopleNav />
      <Group gap="md" align="flex-end">
        <TextInput
          label="Search people"
          placeholder="Name or email"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={320}
          type="search"
        />
        <Radio.Group
          label="Show"
          value={status}
          onChange={(v) => setParam({ status: v === 'deactivated' ? 'deactivated' : null, page: null })}
        >
          <Group gap="md" mt={6} mb={6}>
            <Radio value="active" label="Active people" />
            <Radio value="deactivated" label="Deactivated people" />
          </Group>
        </Radio.Group>
      </Group>
      {users.isError && (
        <Alert color="red" variant="light" role="alert" title="The people could not be loaded">
          {users.error.message}
        </Alert>
      )}
      {users.isPending ? (
        <Skeleton height={320} aria-label="Loading the people" />
      ) : (
        users.data && (
          <>
            <Text size="sm" aria-live="polite">
              {total === 1 ? '1 person' : `${total.toLocaleString('en-US')} people`}
              {q ? ` matching “${q}”` : ''}
            </Text>
            <PeopleTable users={users.data.data} status={status} onAction={setDialog} />
            {pages > 1 && (
              <nav aria-label="Pages">
                <Pagination
                  total={pages}
                  value={Math.min(page, pages)}
                  onChange={(p) => setParam({ page: p > 1 ? String(p) : null })}
                  getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
                  getItemProps={(p) => ({ 'aria-label': `Page ${p}`, 'aria-current': p === page ? 'page' : undefined })}
                />
              </nav>
            )}
          </>
        )
      )}
      <UserFormModal
        opened={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        user={dialog?.kind === 'edit' ? dialog.user : undefined}
        onClose={() => setDialog(null)}
      />
      {dialog?.kind === 'reset' && <ResetPasswordModal user={dialog.user} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'deactivate' && <DeactivateModal user={dialog.user} onClose={() => setDialog(null)} />}
    </Stack>
  );
}

function PeopleTable({ users, status, onAction }: { users: User[]; status: 'active' | 'deactivated'; onAction(d: Dialog): void }) {
  const groups = useGroups();
  const me = useCurrentUser().data;
  const reactivate = useSetUserActive();
  const names = new Map((groups.data ?? []).map((g) => [g.id, g.name]));
  if (users.length === 0) return <Text>No one matches.</Text>;
  return (
    <Table striped highlightOnHover aria-label={status === 'active' ? 'People' : 'Deactivated people'}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Email</Table.Th>
          <Table.Th>Groups</Table.Th>
          <Table.Th>Last sign-in</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {users.map((u) => {
          const name = u.common_name ?? u.email;
          return (
            <Table.Tr key={u.id}>
              <Table.Td>
                {name}
                {u.is_superuser && (
                  <Badge ml="xs" size="sm" variant="light">
                    Admin
                  </Badge>
                )}
                {u.sso_source && (
                  <Badge ml="xs" size="sm" variant="light" color="gray">
                    {u.sso_source.toUpperCase()}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{u.email}</Table.Td>
              <Table.Td>
                {u.group_ids
                  .filter((id) => id !== ALL_USERS_GROUP_ID)
                  .map((id) => names.get(id))
                  .filter(Boolean)
                  .join(', ') || '—'}
              </Table.Td>
              <Table.Td>{u.last_login ? new Date(u.last_login).toLocaleDateString() : 'Never'}</Table.Td>
              <Table.Td>
                {status === 'deactivated' ? (
                  <Button
                    size="compact-sm"
                    variant="default"
                    loading={reactivate.isPending && reactivate.variables?.id === u.id}
                    onClick={() =>
                      reactivate.mutate({ id: u.id, active: true }, { onSuccess: () => notifySuccess(`${name} is reactivated.`) })
                    }
                  >
                    Reactivate {name}
                  </Button>
                ) : (
                  <Menu position="bottom-end">
                    <Menu.Target>
                      <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`}>
                        <span aria-hidden="true">⋯</span>
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item onClick={() => onAction({ kind: 'edit', user: u })}>Edit user</Menu.Item>
                      {!u.sso_source && <Menu.Item onClick={() => onAction({ kind: 'reset', user: u })}>Reset password</Menu.Item>}
                      {u.id !== me?.id && (
                        <Menu.Item color="red" onClick={() => onAction({ kind: 'deactivate', user: u })}>
                          Deactivate user
                        </Menu.Item>
                      )}
                    </Menu.Dropdown>
                  </Menu>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

const CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

function DeactivateModal({ user, onClose }: { user: User; onClose(): void }) {
  const setActive = useSetUserActive();
  const name = user.common_name ?? user.email;
  return (
    <ConfirmModal
      opened
      title={`Deactivate ${name}?`}
      confirmLabel="Deactivate"
      loading={setActive.isPending}
      onClose={onClose}
      onConfirm={() =>
        setActive.mutate(
          { id: user.id, active: false },
          {
            onSuccess: () => {
              notifySuccess(`${name} is deactivated.`);
              onClose();
            },
          },
        )
      }
    >
      {name} will not be able to sign in, and is signed out now. What they made stays; they can be reactivated later.
    </ConfirmModal>
  );
}
