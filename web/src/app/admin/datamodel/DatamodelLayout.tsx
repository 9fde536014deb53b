import { Alert, Box, Flex, NavLink, ScrollArea, Select, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, Outlet, useNavigate, useParams } from 'react-router';
import { useDatabaseMetadata, useDatabases } from '../../api/database';
import { usePageTitle } from '../../components/PageTitle';

/** The database picker and its tables beside whatever table or field is open. */
export function DatamodelLayout() {
  usePageTitle('Table metadata');
  const { dbId, tableId } = useParams();
  const navigate = useNavigate();
  const databases = useDatabases();
  const selected = dbId ? Number(dbId) : undefined;
  return (
    <Stack gap="md">
      <Title order={1}>Table metadata</Title>
      <Flex gap="lg" align="flex-start" direction={{ base: 'column', md: 'row' }}>
        <Box component="nav" aria-label="Tables" w={{ base: '100%', md: 280 }} style={{ flexShrink: 0 }}>
          <Stack gap="sm">
            {databases.isPending ? (
              <Skeleton height={56} aria-label="Loading the databases" />
            ) : (
              <Select
                label="Database"
                placeholder="Choose a database"
                data={(databases.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
                value={dbId ?? null}
                allowDeselect={false}
                onChange={(v) => v && navigate(`/admin/datamodel/database/${v}`)}
              />
            )}
            {selected !== undefined && <TableList dbId={selected} tableId={tableId ? Number(tableId) : undefined} />}
          </Stack>
        </Box>
        <Box style={{ flex: 1, minWidth: 0 }}>
          {tableId ? (
            <Outlet />
          ) : (
            <Text c="dimmed">
              {selected === undefined ? 'Choose a database to edit its metadata.' : 'Choose a table to edit its metadata.'}
            </Text>
          )}
        </Box>
      </Flex>
    </Stack>
  );
}

function TableList({ dbId, tableId }: { dbId: number; tableId?: number }) {
  const meta = useDatabaseMetadata(dbId);
  const [filter, setFilter] = useState('');
  if (meta.isPending) return <Skeleton height={160} aria-label="Loading the tables" />;
  if (meta.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        {meta.error.message}
      </Alert>
    );
  const q = filter.trim().toLowerCase();
  const tables = meta.data.tables.filter((t) => !q || t.display_name.toLowerCase().includes(q) || t.name.toLowerCase().includes(q));
  return (
    <Stack gap="xs">
      <TextInput label="Find a table" value={filter} onChange={(e) => setFilter(e.currentTarget.value)} />
      <ScrollArea.Autosize mah={480}>
        {tables.map((t) => (
          <NavLink
            key={t.id}
            component={Link}
            to={`/admin/datamodel/database/${dbId}/table/${t.id}`}
            label={t.visibility_type ? `${t.display_name} (hidden)` : t.display_name}
            active={t.id === tableId}
            aria-current={t.id === tableId ? 'page' : undefined}
          />
        ))}
        {tables.length === 0 && <Text size="sm">No table matches.</Text>}
      </ScrollArea.Autosize>
    </Stack>
  );
}
