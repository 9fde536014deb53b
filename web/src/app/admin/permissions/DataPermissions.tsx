import { Alert, Box, Button, Flex, Group, NavLink, ScrollArea, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/client';
import { useDatabases } from '../../api/database';
import { useDataGraph, useGroups, useSaveDataGraph, type GraphAccess } from '../../api/permissions';
import { notifySuccess } from '../../notify';
import { AccessTable } from './AccessTable';
import { useGraphDraft } from './draft';
import { LeaveGuard } from './LeaveGuard';
import { UnsavedBar } from './UnsavedBar';

const BASE = '/admin/permissions/data';
const same = (a: GraphAccess, b: GraphAccess) => a.data === b.data && a.native === b.native && a.download.schemas === b.download.schemas;

/**
 * The data permissions grid, one slice at a time as Metabase shows it: a group's access to every database
 * (`/admin/permissions/data/group/:id`), or every group's access to a database (`.../database/:id`). Edits stay a
 * draft across slices until saved together with the revision they were made on.
 */
export function DataPermissions() {
  const rest = useParams()['*'] ?? '';
  const [, kind, rawId] = /^(group|database)\/(\d+)/.exec(rest) ?? [];
  const selected = rawId ? Number(rawId) : undefined;
  const graph = useDataGraph();
  const groups = useGroups();
  const databases = useDatabases();
  const draft = useGraphDraft(graph.data?.groups, same);
  const save = useSaveDataGraph();
  const [conflict, setConflict] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    if (!graph.data) return;
    setError(null);
    // Only what changed, each entry whole; `upload` is left out, which keeps each group's upload setting.
    const groupsBody = Object.fromEntries(
      Object.entries(draft.changes).map(([gid, dbs]) => [
        gid,
        Object.fromEntries(Object.entries(dbs).map(([db, a]) => [db, { data: a.data, native: a.native, download: a.download }])),
      ]),
    );
    save.mutate(
      { revision: graph.data.revision, groups: groupsBody },
      {
        onSuccess: () => {
          draft.clear();
          notifySuccess('The data permissions are saved.');
        },
        onError: (e) => (isApiError(e) && e.status === 409 ? setConflict(true) : setError(e.message)),
      },
    );
  };
  const reload = async () => {
    setConflict(false);
    setError(null);
    draft.clear();
    await graph.refetch();
  };

  const loading = graph.isPending || groups.isPending || databases.isPending;
  const failed = graph.error ?? groups.error ?? databases.error;
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
          ) : (
            <AccessTable mode={mode} id={selected} groups={groups.data ?? []} databases={databases.data ?? []} draft={draft} />
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
