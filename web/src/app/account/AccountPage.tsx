import { Stack, Table, Text, Title } from '@mantine/core';
import { useCurrentUser } from '../api/user';
import { usePageTitle } from '../components/PageTitle';

/** `/account/profile`: who is signed in. Editing the profile and the password is left to the people area's engineer. */
export function AccountPage() {
  usePageTitle('Account settings');
  const user = useCurrentUser().data;
  return (
    <Stack gap="md" maw={640}>
      <Title order={1}>Account settings</Title>
      {user && (
        <Table variant="vertical" withTableBorder>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={160}>Name</Table.Th>
              <Table.Td>{user.common_name}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Email address</Table.Th>
              <Table.Td>{user.email}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Role</Table.Th>
              <Table.Td>{user.is_superuser ? 'Administrator' : 'User'}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      )}
      <Text size="sm" c="dimmed">
        Changing your name and password here is not built yet.
      </Text>
    </Stack>
  );
}
