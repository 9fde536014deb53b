import { Alert, Box, Checkbox, Flex, NativeSelect, NavLink, ScrollArea, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/client';
import {
  useCollectionGraph,
  useCollectionTree,
  useSaveCollectionGraph,
  type CollectionAccess,
  type CollectionNode,
} from '../../api/collection';
import { ADMIN_GROUP_ID, useGroups } from '../../api/permissions';
import { notifySuccess } from '../../notify';
import { useGraphDraft } from './draft';
import { LeaveGuard } from './LeaveGuard';
import { UnsavedBar } from './UnsavedBar';

const BASE = '/admin/permissions/collections';
const LEVELS: Array<{ value: CollectionAccess; label: string }> = [
  { value: 'write', label: 'Curate' },
  { value: 'read', label: 'View' },
  { value: 'none', label: 'No access' },
];
const same = (a: CollectionAccess, b: CollectionAccess) => a === b;

interface Node {
  key: string;
  name: string;
  depth: number;
  /** Its sub-collections' keys, at every depth. */
  below: string[];
}

/**
 * The collection grid: a collection (Our analytics is `root`) by every group but Administrators, curate, view or no
 * access; a change may go to its sub-collections too. Saved with the revision read; a 409 asks for a reload.
 */
export function CollectionPermissions() {
  const selected = (useParams()['*'] ?? '').split('/')[0] || undefined;
  const graph = useCollectionGraph();
  const tree = useCollectionTree({ 'exclude-archived': 'true', 'exclude-other-user-collections': 'true' });
  const groups = useGroups();
  const draft = useGraphDraft(graph.data?.groups, same);
  const save = useSaveCollectionGraph();
  const [withChildren, setWithChildren] = useState(false);
  const [conflict, setConflict] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const known = new Set(Object.keys(Object.values(graph.data?.groups ?? {})[0] ?? { root: 'none' }));
  const nodes = flatten(tree.data ?? [], known);
  const node = nodes.find((n) => n.key === selected);
  const rows = (groups.data ?? []).filter((g) => g.id !== ADMIN_GROUP_ID && graph.data?.groups[g.id]);

  const submit = () => {
    if (!graph.data) return;
    setError(null);
    save.mutate(
      { revision: graph.data.revision, groups: draft.changes },
      {
        onSuccess: () => {
          draft.clear();
          notifySuccess('The collection permissions are saved.');
        },
        onError: (e) => (isApiError(e) && e.status === 409 ? setConflict(true) : setError(e.message)),
      },
    );
  };

  const failed = graph.error ?? tree.error ?? groups.error;
  const loading = graph.isPending || tree.isPending || groups.isPending;
  return (
    <Stack gap="md">
      <LeaveGuard dirty={draft.count > 0} base={BASE} />
      {failed && (
        <Alert color="red" variant="light" role="alert" title="The permissions could not be loaded">
          {failed.message}
        </Alert>
      )}
      <Flex gap="lg" align="flex-start" direction={{ base: 'column', md: 'row' }}>
        <Box component="nav" aria-label="Choose a collection" w={{ base: '100%', md: 260 }} style={{ flexShrink: 0 }}>
          {loading ? (
            <Skeleton height={240} aria-label="Loading the collections" />
          ) : (
            <ScrollArea.Autosize mah={560}>
              {nodes.map((n) => (
                <NavLink
                  key={n.key}
                  component={Link}
                  to={`${BASE}/${n.key}`}
                  label={n.name}
                  active={n.key === selected}
                  aria-current={n.key === selected ? 'page' : undefined}
                  pl={12 + n.depth * 16}
                />
              ))}
            </ScrollArea.Autosize>
          )}
        </Box>
        <Box style={{ flex: 1, minWidth: 0 }}>
          {loading || !graph.data ? (
            <Skeleton height={320} aria-label="Loading the permissions" />
          ) : !node ? (
            <Text c="dimmed">Choose a collection to see who may view and curate it.</Text>
          ) : (
            <section aria-labelledby="collection-access-title">
              <Title order={2} size="h3" id="collection-access-title" mb="sm">
                {node.name}: access of each group
              </Title>
              {node.below.length > 0 && (
                <Checkbox
                  mb="sm"
                  label={`Also change its ${node.below.length} sub-collection${node.below.length > 1 ? 's' : ''}`}
                  checked={withChildren}
                  onChange={(e) => setWithChildren(e.currentTarget.checked)}
                />
              )}
              <Table striped aria-labelledby="collection-access-title">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Group</Table.Th>
                    <Table.Th>Collection access</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((g) => {
                    const value = draft.value(String(g.id), node.key) ?? 'none';
                    const changed = draft.changes[g.id]?.[node.key] !== undefined;
                    return (
                      <Table.Tr key={g.id}>
                        <Table.Th scope="row" fw={changed ? 900 : 500}>
                          {g.name}
                          {changed && (
                            <Text span size="xs" c="dimmed">
                              {' '}
                              (changed)
                            </Text>
                          )}
                        </Table.Th>
                        <Table.Td>
                          <NativeSelect
                            aria-label={`Access for ${g.name} to ${node.name}`}
                            size="xs"
                            data={LEVELS}
                            value={value}
                            onChange={(e) => {
                              const level = e.currentTarget.value as CollectionAccess;
                              const keys = [node.key, ...(withChildren ? node.below : [])];
                              draft.set(keys.map((key) => ({ group: String(g.id), key, value: level })));
                            }}
                          />
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </section>
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
        onReload={() => {
          setConflict(false);
          setError(null);
          draft.clear();
          void graph.refetch();
        }}
      />
    </Stack>
  );
}

/** Our analytics, then the shared collections in tree order (personal ones are not in the graph), with their descendants. */
function flatten(tree: CollectionNode[], known: Set<string>): Node[] {
  const out: Node[] = [];
  const walk = (list: CollectionNode[], depth: number): string[] => {
    const keys: string[] = [];
    for (const c of list) {
      const key = String(c.id);
      if (!known.has(key) || c.personal_owner_id !== null) continue;
      const node: Node = { key, name: c.name, depth, below: [] };
      out.push(node);
      node.below = walk(Array.isArray(c.children) ? c.children : [], depth + 1);
      keys.push(key, ...node.below);
    }
    return keys;
  };
  const root: Node = { key: 'root', name: 'Our analytics', depth: 0, below: [] };
  out.push(root);
  root.below = walk(tree, 1);
  return out;
}
