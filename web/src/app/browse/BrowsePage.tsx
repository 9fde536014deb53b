import { Alert, Anchor, Box, Breadcrumbs, Button, Card, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, Navigate, Route, Routes, useParams } from 'react-router';
import { useDatabases, useDatabaseSchemas, useSchemaTables, useTableMetadata } from '../api/database';
import { itemPath } from '../api/item';
import { useSearch } from '../api/search';
import { NotFound } from '../components/NotFound';
import { usePageTitle } from '../components/PageTitle';
import { CollectionPathText } from '../search/CollectionPathText';

/** `/browse/...`: the databases, a database's schemas, a schema's tables, a table; and the models. */
export function BrowsePage() {
  return (
    <Routes>
      <Route index element={<Navigate to="databases" replace />} />
      <Route path="databases" element={<Databases />} />
      <Route path="databases/:db" element={<Schemas />} />
      <Route path="databases/:db/schema/:schema?" element={<Tables />} />
      <Route path="tables/:id" element={<TablePage />} />
      <Route path="models" element={<Models />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

function Trail({ items, current }: { items: Array<{ to: string; label: string }>; current: string }) {
  return (
    <Box component="nav" aria-label="Breadcrumb">
      <Breadcrumbs>
        {items.map((i) => (
          <Anchor key={i.to} component={Link} to={i.to}>
            {i.label}
          </Anchor>
        ))}
        <span aria-current="page">{current}</span>
      </Breadcrumbs>
    </Box>
  );
}

function Grid({ label, children }: { label: string; children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
      {children}
    </SimpleGrid>
  );
}

function Tile({ to, name, text }: { to: string; name: string; text?: ReactNode | null }) {
  return (
    <li>
      <Card withBorder padding="md" h="100%">
        <Anchor component={Link} to={to} fw={700}>
          {name}
        </Anchor>
        {typeof text === 'string' ? (
          <Text size="sm" c="dimmed" lineClamp={2}>
            {text}
          </Text>
        ) : (
          text
        )}
      </Card>
    </li>
  );
}

function Failed({ error }: { error: Error }) {
  return (
    <Alert color="red" variant="light" role="alert">
      {error.message}
    </Alert>
  );
}

function Databases() {
  usePageTitle('Databases');
  const dbs = useDatabases();
  return (
    <Stack gap="md">
      <Title order={1}>Databases</Title>
      {dbs.isError && <Failed error={dbs.error} />}
      {dbs.isPending ? (
        <Skeleton h={120} aria-label="Loading the databases" />
      ) : dbs.data?.length ? (
        <Grid label="Databases">
          {dbs.data.map((d) => (
            <Tile key={d.id} to={`/browse/databases/${d.id}`} name={d.name} text={d.engine} />
          ))}
        </Grid>
      ) : (
        <Text>No database is connected yet.</Text>
      )}
    </Stack>
  );
}

/** A database's schemas; with one schema only (or none, as SQLite has), straight to its tables. */
function Schemas() {
  const db = Number(useParams().db);
  const schemas = useDatabaseSchemas(db);
  const name = useDatabases().data?.find((d) => d.id === db)?.name ?? 'Database';
  usePageTitle(name);
  if (schemas.data?.length === 1) return <Navigate to={`schema/${encodeURIComponent(schemas.data[0])}`} replace />;
  return (
    <Stack gap="md">
      <Trail items={[{ to: '/browse/databases', label: 'Databases' }]} current={name} />
      <Title order={1}>{name}</Title>
      {schemas.isError && <Failed error={schemas.error} />}
      {schemas.isPending ? (
        <Skeleton h={120} aria-label="Loading the schemas" />
      ) : (
        <Grid label="Schemas">
          {schemas.data?.map((s) => (
            <Tile key={s} to={`/browse/databases/${db}/schema/${encodeURIComponent(s)}`} name={s} />
          ))}
        </Grid>
      )}
    </Stack>
  );
}

function Tables() {
  const params = useParams();
  const db = Number(params.db);
  const schema = params.schema ?? '';
  const tables = useSchemaTables(db, schema);
  const schemas = useDatabaseSchemas(db);
  const name = useDatabases().data?.find((d) => d.id === db)?.name ?? 'Database';
  usePageTitle(schema ? `${name} · ${schema}` : name);
  const trail = [{ to: '/browse/databases', label: 'Databases' }];
  // A database with one schema has no page of schemas: the database is this page.
  const single = (schemas.data?.length ?? 1) <= 1;
  if (!single) trail.push({ to: `/browse/databases/${db}`, label: name });
  return (
    <Stack gap="md">
      <Trail items={trail} current={single ? name : schema} />
      <Title order={1}>{single ? name : schema}</Title>
      {tables.isError && <Failed error={tables.error} />}
      {tables.isPending ? (
        <Skeleton h={120} aria-label="Loading the tables" />
      ) : (
        <Grid label="Tables">
          {tables.data
            ?.filter((t) => t.visibility_type === null)
            .map((t) => (
              <Tile key={t.id} to={`/browse/tables/${t.id}`} name={t.display_name} text={t.description} />
            ))}
        </Grid>
      )}
    </Stack>
  );
}

/** A table: its fields, and what to do with it: start a question on it, or see its x-ray. */
function TablePage() {
  const id = Number(useParams().id);
  const table = useTableMetadata(id);
  const t = table.data;
  usePageTitle(t?.display_name ?? 'Table');
  return (
    <Stack gap="md">
      <Trail
        items={[
          { to: '/browse/databases', label: 'Databases' },
          ...(t ? [{ to: `/browse/databases/${t.db_id}`, label: t.db?.name ?? 'Database' }] : []),
        ]}
        current={t?.display_name ?? '…'}
      />
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>{t?.display_name ?? 'Table'}</Title>
          {t?.description && <Text c="dimmed">{t.description}</Text>}
        </Stack>
        <Group gap="xs">
          <Button component={Link} to={`/question/notebook?table=${id}`}>
            Start a question
          </Button>
          <Button component={Link} to={`/auto/dashboard/table/${id}`} variant="light">
            X-ray this table
          </Button>
        </Group>
      </Group>
      {table.isError && <Failed error={table.error} />}
      {table.isPending ? (
        <Skeleton h={200} aria-label="Loading the table" />
      ) : (
        t && (
          <Table aria-label="Fields" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Description</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {t.fields
                .filter((f) => f.visibility_type !== 'sensitive' && f.visibility_type !== 'retired')
                .map((f) => (
                  <Table.Tr key={f.id}>
                    <Table.Td>{f.display_name}</Table.Td>
                    <Table.Td>{(f.semantic_type ?? f.base_type).replace(/^type\//, '')}</Table.Td>
                    <Table.Td>{f.description ?? ''}</Table.Td>
                  </Table.Tr>
                ))}
            </Table.Tbody>
          </Table>
        )
      )}
    </Stack>
  );
}

/** The models everyone may read (`GET /api/search?models=dataset`), each with where it lives. */
function Models() {
  usePageTitle('Models');
  const models = useSearch({ models: ['dataset'], limit: 200 });
  return (
    <Stack gap="md">
      <Title order={1}>Models</Title>
      {models.isError && <Failed error={models.error} />}
      {models.isPending ? (
        <Skeleton h={120} aria-label="Loading the models" />
      ) : models.data?.data.length ? (
        <Grid label="Models">
          {models.data.data.map((m) => (
            <Tile key={m.id} to={itemPath(m)} name={m.name} text={<CollectionPathText result={m} />} />
          ))}
        </Grid>
      ) : (
        <Text>No models yet. A model is a question saved as the starting point of others.</Text>
      )}
    </Stack>
  );
}
