import { Alert, Box, Button, Flex, Group, NavLink, ScrollArea, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/client';
import { useDatabases } from '../../api/database';
import {
  useDataGraph,
  useGroups,
  useImpersonations,
  useRowPolicies,
  useSaveDataPermissions,
  useTableDatabases,
} from '../../api/permissions';
import { notifySuccess } from '../../notify';
import { AccessTable } from './grid/AccessTable';
import { TableAccess } from './grid/TableAccess';
import { useDataDraft } from './grid/useDataDraft';
import { LeaveGuard } from './LeaveGuard';
import { UnsavedBar } from './UnsavedBar';

const BASE = '/admin/permissions/data';

/**
 * The data permissions grid, one slice at a time as Metabase shows it: a group's access to every database
 * (`/admin/permissions/data/group/:id`), or every group's access to a database (`.../database/:id`). Edits stay a
 * draft across slices until saved together with the revision they were made on.
 */
export function DataPermissions() {
  const rest = useParams()['*'] ?? '';
  const [, kind, rawId] = /^(group|database)\/(\d+)/.exec(rest) ?? [];
  const tablesOfDb = /^group\/\d+\/database\/(\d+)/.exec(rest)?.[1];
  const selected = rawId ? Number(rawId) : undefined;
  const graph = useDataGraph();
  const groups = useGroups();
  const databases = useDatabases();
  const policies = useRowPolicies();
  const impersonations = useImpersonations();
  const tables = useTableDatabases();
  const draft = useDataDraft(graph.data, policies.data, impersonations.data);
  const save = useSaveDataPermissions();
  const [conflict, setConflict] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    if (!graph.data) return;
    setError(null);
    save.mutate(draft.toSave(graph.data.revision), {
      onSuccess: () => {
        draft.clear();
        notifySuccess('The data permissions are saved.');
      },
      onError: (e) => (isApiError(e) && e.status === 409 ? setConflict(true) : setError(e.message)),
    });
  };
  const reload = async () => {
    setConflict(false);
    setError(null);
    draft.clear();
    await Promise.all([graph.refetch(), policies.refetch(), impersonations.refetch()]);
  };

  const loading = graph.isPending || groups.isPending || databases.isPending || policies.isPending || impersonations.isPending;
  const failed = graph.error ?? groups.error ?? databases.error ?? policies.error ?? impersonations.error;
  const tablesOf = (db: number) => (tables.data ?? []).filter((t) => t.db_id === db).map((t) => t.id);
  const tableGroup = tablesOfDb !== undefined ? groups.data?.find((g) => g.id === selected) : undefined;
  const tableDb = tablesOfDb !== undefined ? databases.data?.find((d) => d.id === Number(tablesOfDb)) : undefined;
  const mode = kind === 'database' ? 'database' : 'group';
  return (
    <Stack gap="md">
      <LeaveGuard dirty={draft.count > 0} base={BASE} />
      {failed && (
        <Alert color="red" variant="light" role="alert" title="The permissions could not be loaded">
          {failed.message}
        </Alert>
      )}
      <Flex gap="lg" align="flex-start" direction={{ base: 'column', md: 'row' }}>
        <Box w={{ base: '100%', md: 260 }} style={{ flexShrink: 0 }}>
          <Group gap="xs" mb="xs" component="nav" aria-label="Permissions by">
            <Button
              component={Link}
              to={groups.data?.[0] ? `${BASE}/group/${firstGroup(groups.data)}` : BASE}
              variant={mode === 'group' ? 'light' : 'subtle'}
              aria-current={mode === 'group' ? 'page' : undefined}
              size="compact-sm"
            >
              Groups
            </Button>
            <Button
              component={Link}
              to={databases.data?.[0] ? `${BASE}/database/${databases.data[0].id}` : BASE}
              variant={mode === 'database' ? 'light' : 'subtle'}
              aria-current={mode === 'database' ? 'page' : undefined}
              size="compact-sm"
            >
              Databases
            </Button>
          </Group>
          {loading ? (
            <Skeleton height={240} aria-label="Loading the groups and databases" />
          ) : mode === 'group' ? (
            <Picker
              label="Groups"
              items={(groups.data ?? []).map((g) => ({ id: g.id, name: g.name }))}
              selected={selected}
              path={`${BASE}/group`}
            />
          ) : (
            <Picker
              label="Databases"
              items={(databases.data ?? []).map((d) => ({ id: d.id, name: d.name }))}
              selected={selected}
              path={`${BASE}/database`}
            />
          )}
        </Box>
        <Box style={{ flex: 1, minWidth: 0 }}>
          {loading || !graph.data ? (
            <Skeleton height={320} aria-label="Loading the permissions" />
          ) : selected === undefined ? (
            <Text c="dimmed">Choose a group to see its access to each database, or a database to see each group&apos;s access.</Text>
          ) : tablesOfDb !== undefined ? (
            tableGroup && tableDb ? (
              <TableAccess group={tableGroup} db={tableDb} draft={draft} back={`${BASE}/group/${tableGroup.id}`} />
            ) : (
              <Text>Not found: it may have been removed. Choose another.</Text>
            )
          ) : (
            <AccessTable
              mode={mode}
              id={selected}
              groups={groups.data ?? []}
              databases={databases.data ?? []}
              tablesOf={tablesOf}
              draft={draft}
              base={BASE}
            />
          )}
        </Box>
      </Flex>
      <UnsavedBar
        count={draft.count}
        saving={save.isPending}
        conflict={conflict}
        error={error}
        onSave={submit}
        onDiscard={() => {
          draft.clear();
          setError(null);
        }}
        onReload={() => void reload()}
      />
    </Stack>
  );
}

/** Administrators cannot be changed: the first other group is where "Groups" leads. */
const firstGroup = (groups: Array<{ id: number }>) => (groups.find((g) => g.id !== 2) ?? groups[0]).id;

/** The groups or databases to choose from, filtered as typed (50 groups stay one short list). */
export function Picker({
  label,
  items,
  selected,
  path,
}: {
  label: string;
  items: Array<{ id: number; name: string }>;
  selected?: number;
  path: string;
}) {
  const [filter, setFilter] = useState('');
  const q = filter.trim().toLowerCase();
  const shown = q ? items.filter((i) => i.name.toLowerCase().includes(q)) : items;
  return (
    <Stack gap={4} component="nav" aria-label={label}>
      <TextInput label={`Find ${label.toLowerCase()}`} size="xs" value={filter} onChange={(e) => setFilter(e.currentTarget.value)} />
      <ScrollArea.Autosize mah={520}>
        {shown.map((i) => (
          <NavLink
            key={i.id}
            component={Link}
            to={`${path}/${i.id}`}
            label={i.name}
            active={i.id === selected}
            aria-current={i.id === selected ? 'page' : undefined}
          />
        ))}
        {shown.length === 0 && <Text size="sm">Nothing matches.</Text>}
      </ScrollArea.Autosize>
    </Stack>
  );
}
