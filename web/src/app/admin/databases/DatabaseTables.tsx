import { Alert, Anchor, Badge, List, Paper, Skeleton, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useDatabaseMetadata } from '../../api/database';

/** The tables sync found, each a link to its metadata; asked again while the first sync runs. */
export function DatabaseTables({ id }: { id: number }) {
  const meta = useDatabaseMetadata(id, { refetchWhileSyncing: true });
  const tables = meta.data?.tables;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="database-tables">
      <Title order={2} size="h4" id="database-tables" mb="xs">
        Tables{tables ? ` (${tables.length})` : ''}
      </Title>
      {meta.isPending && <Skeleton height={80} aria-label="Loading the tables" />}
      {meta.isError && (
        <Alert color="red" variant="light" role="alert">
          {meta.error.message}
        </Alert>
      )}
      {tables && tables.length === 0 && (
        <Text size="sm">
          {meta.data?.initial_sync_status === 'incomplete' ? 'Reading the tables of this database…' : 'No tables were found.'}
        </Text>
      )}
      {tables && tables.length > 0 && (
        <List spacing={4} listStyleType="none" aria-label="Tables">
          {tables.map((t) => (
            <List.Item key={t.id}>
              <Anchor component={Link} to={`/admin/datamodel/database/${id}/table/${t.id}`}>
                {t.schema ? `${t.schema}.` : ''}
                {t.display_name}
              </Anchor>
              {t.visibility_type && (
                <Badge ml="xs" size="sm" variant="light" color="gray">
                  Hidden
                </Badge>
              )}
            </List.Item>
          ))}
        </List>
      )}
    </Paper>
  );
}
