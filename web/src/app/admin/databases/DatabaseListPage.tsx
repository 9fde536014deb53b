import { Alert, Anchor, Badge, Button, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useDatabases, type DatabaseDetail } from '../../api/database';
import { usePageTitle } from '../../components/PageTitle';
import { ENGINES } from '../../components/database-form/engines';
import { SyncBadge } from './SyncBadge';

/** `/admin/databases`: every connected database, its engine and whether its first sync is done. */
export function DatabaseListPage() {
  usePageTitle('Databases');
  const databases = useDatabases();
  const rows = databases.data as DatabaseDetail[] | undefined;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Title order={1}>Databases</Title>
        <Button component={Link} to="/admin/databases/create">
          Add database
        </Button>
      </Group>
      {databases.isError && (
        <Alert color="red" variant="light" role="alert" title="The databases could not be loaded">
          {databases.error.message}
        </Alert>
      )}
      {databases.isPending && <Skeleton height={120} aria-label="Loading the databases" />}
      {rows && rows.length === 0 && <Text>No database is connected yet. Add one to start asking questions.</Text>}
      {rows && rows.length > 0 && (
        <Table striped highlightOnHover aria-label="Connected databases">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Engine</Table.Th>
              <Table.Th>Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((db) => (
              <Table.Tr key={db.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/admin/databases/${db.id}`}>
                    {db.name}
                  </Anchor>
                  {db.is_sample && (
                    <Badge ml="xs" variant="light" color="gray">
                      Sample
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>{ENGINES[db.engine]?.label ?? db.engine}</Table.Td>
                <Table.Td>
                  <SyncBadge status={db.initial_sync_status} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
