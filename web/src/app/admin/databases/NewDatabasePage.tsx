import { Anchor, Breadcrumbs, Paper, Stack, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { usePageTitle } from '../../components/PageTitle';
import { DatabaseForm } from '../../components/database-form/DatabaseForm';
import { notifySuccess } from '../../notify';
import { notifyWarnings } from './warnings';

/** `/admin/databases/create`: the connection form; once saved, the database's page (its first sync running). */
export function NewDatabasePage() {
  usePageTitle('Add a database');
  const navigate = useNavigate();
  return (
    <Stack gap="md" maw={640}>
      <Breadcrumbs aria-label="Breadcrumb">
        <Anchor component={Link} to="/admin/databases">
          Databases
        </Anchor>
        <span aria-current="page">Add a database</span>
      </Breadcrumbs>
      <Title order={1}>Add a database</Title>
      <Paper withBorder p="md">
        <DatabaseForm
          variant="admin"
          label="Add a database"
          submitLabel="Save"
          onCancel={() => navigate('/admin/databases')}
          onSaved={(db) => {
            notifySuccess(`${db.name} is connected. Its tables are being read now.`);
            notifyWarnings(db.warnings);
            navigate(`/admin/databases/${db.id}`);
          }}
        />
      </Paper>
    </Stack>
  );
}
