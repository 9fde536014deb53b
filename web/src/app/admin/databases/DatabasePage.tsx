import { Alert, Anchor, Breadcrumbs, Grid, Group, Paper, Skeleton, Stack, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/client';
import { useDatabase } from '../../api/database';
import { usePageTitle } from '../../components/PageTitle';
import { DatabaseForm } from '../../components/database-form/DatabaseForm';
import { NotFound } from '../../components/NotFound';
import { notifySuccess } from '../../notify';
import { DatabaseActions } from './DatabaseActions';
import { DatabaseTables } from './DatabaseTables';
import { SyncBadge } from './SyncBadge';
import { notifyWarnings } from './warnings';

/** `/admin/databases/:id`: the connection (edit and test), its sync and value jobs, its tables, and removal. */
export function DatabasePage() {
  const id = Number(useParams().id);
  const database = useDatabase(id);
  usePageTitle(database.data?.name ?? 'Database');
  if (!Number.isInteger(id) || id <= 0 || (isApiError(database.error) && database.error.status === 404)) return <NotFound />;
  const db = database.data;
  return (
    <Stack gap="md">
      <Breadcrumbs aria-label="Breadcrumb">
        <Anchor component={Link} to="/admin/databases">
          Databases
        </Anchor>
        <span aria-current="page">{db?.name ?? '…'}</span>
      </Breadcrumbs>
      <Group gap="sm" align="center">
        <Title order={1}>{db?.name ?? 'Database'}</Title>
        {db && <SyncBadge status={db.initial_sync_status} />}
      </Group>
      {database.isError && (
        <Alert color="red" variant="light" role="alert" title="The database could not be loaded">
          {database.error.message}
        </Alert>
      )}
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder p="md" component="section" aria-label="Connection">
            {db ? (
              <DatabaseForm
                // A new form when the saved database changes underneath (another tab, a save here).
                key={db.id}
                database={db}
                variant="admin"
                label={`Connection of ${db.name}`}
                submitLabel="Save changes"
                onSaved={(saved) => {
                  notifySuccess(`${saved.name} is saved.`);
                  notifyWarnings(saved.warnings);
                }}
              />
            ) : (
              <Skeleton height={360} aria-label="Loading the connection" />
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            {db ? <DatabaseActions database={db} /> : <Skeleton height={200} aria-label="Loading the actions" />}
            <DatabaseTables id={id} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
