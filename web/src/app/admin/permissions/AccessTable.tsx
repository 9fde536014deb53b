import { Alert, NativeSelect, Table, Text, Title } from '@mantine/core';
import { memo, useCallback, useRef } from 'react';
import type { Database } from '../../api/database';
import {
  ADMIN_GROUP_ID,
  type DataAccess,
  type DownloadAccess,
  type Group,
  type GraphAccess,
  type NativeAccess,
} from '../../api/permissions';
import type { useGraphDraft } from './draft';

const NO_ACCESS: GraphAccess = { data: 'no', native: 'none', download: { schemas: 'none' } };
const DATA: Array<{ value: DataAccess; label: string }> = [
  { value: 'unrestricted', label: 'Can view' },
  { value: 'no', label: 'No access' },
];
const NATIVE: Array<{ value: NativeAccess; label: string }> = [
  { value: 'write', label: 'Query builder and native SQL' },
  { value: 'none', label: 'Query builder only' },
];
const NATIVE_NONE = [{ value: 'none', label: 'No' }];
const DOWNLOAD: Array<{ value: DownloadAccess; label: string }> = [
  { value: 'full', label: '1 million rows' },
  { value: 'limited', label: '10 thousand rows' },
  { value: 'none', label: 'No' },
];

type Draft = ReturnType<typeof useGraphDraft<GraphAccess>>;

/**
 * One slice of the data grid: a group by every database, or a database by every group; three levels per row (data
 * access, native SQL, downloads), each a native select (light enough for 50 rows, operable from the keyboard).
 */
export function AccessTable(props: { mode: 'group' | 'database'; id: number; groups: Group[]; databases: Database[]; draft: Draft }) {
  const { mode, id, groups, databases, draft } = props;
  // The rows are memoised: one stable handler that reads the latest draft keeps a change from redrawing every row.
  const latest = useRef(draft);
  latest.current = draft;
  const change = useCallback((g: Group, db: Database, patch: Partial<GraphAccess>) => {
    const d = latest.current;
    const current = d.value(String(g.id), String(db.id)) ?? NO_ACCESS;
    let next: GraphAccess = { ...current, ...patch };
    // Native SQL and downloads need data access: taking it takes them; giving it back starts with the query builder.
    if (next.data === 'no') next = NO_ACCESS;
    else if (current.data === 'no') next = { data: 'unrestricted', native: 'none', download: { schemas: 'full' } };
    d.set([{ group: String(g.id), key: String(db.id), value: next }]);
  }, []);
  const group = mode === 'group' ? groups.find((g) => g.id === id) : undefined;
  const database = mode === 'database' ? databases.find((d) => d.id === id) : undefined;
  if (!group && !database) return <Text>Not found: it may have been removed. Choose another.</Text>;
  const rows =
    mode === 'group'
      ? databases.map((d) => ({ key: `${d.id}`, name: d.name, group: group!, db: d }))
      : groups.map((g) => ({ key: `${g.id}`, name: g.name, group: g, db: database! }));
  const title = group ? `${group.name}: access to each database` : `${database!.name}: access of each group`;
  return (
    <section aria-labelledby="access-title">
      <Title order={2} size="h3" id="access-title" mb="sm">
        {title}
      </Title>
      {group?.id === ADMIN_GROUP_ID && (
        <Alert variant="light" mb="sm">
          Administrators always have full access to every database.
        </Alert>
      )}
      <Table striped aria-labelledby="access-title">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{mode === 'group' ? 'Database' : 'Group'}</Table.Th>
            <Table.Th>View data</Table.Th>
            <Table.Th>Create queries</Table.Th>
            <Table.Th>Download results</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <AccessRow
              key={r.key}
              name={r.name}
              group={r.group}
              db={r.db}
              access={draft.value(String(r.group.id), String(r.db.id)) ?? NO_ACCESS}
              changed={draft.changes[r.group.id]?.[r.db.id] !== undefined}
              onChange={change}
            />
          ))}
        </Table.Tbody>
      </Table>
    </section>
  );
}

/** A row redraws only when its own access changes (memo): editing one of 50 rows does not redraw the other 49. */
const AccessRow = memo(function AccessRow(props: {
  name: string;
  group: Group;
  db: Database;
  access: GraphAccess;
  changed: boolean;
  onChange(g: Group, db: Database, patch: Partial<GraphAccess>): void;
}) {
  const { group, db, access } = props;
  const fixed = group.id === ADMIN_GROUP_ID;
  const on = `for ${group.name} on ${db.name}`;
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={props.changed ? 900 : 500}>
        {props.name}
        {props.changed && (
          <Text span size="xs" c="dimmed">
            {' '}
            (changed)
          </Text>
        )}
      </Table.Th>
      <Table.Td>
        <NativeSelect
          aria-label={`View data ${on}`}
          size="xs"
          data={DATA}
          value={access.data}
          disabled={fixed}
          onChange={(e) => props.onChange(group, db, { data: e.currentTarget.value as DataAccess })}
        />
      </Table.Td>
      <Table.Td>
        <NativeSelect
          aria-label={`Create queries ${on}`}
          size="xs"
          data={access.data === 'no' ? NATIVE_NONE : NATIVE}
          value={access.native}
          disabled={fixed || access.data === 'no'}
          onChange={(e) => props.onChange(group, db, { native: e.currentTarget.value as NativeAccess })}
        />
      </Table.Td>
      <Table.Td>
        <NativeSelect
          aria-label={`Download results ${on}`}
          size="xs"
          data={DOWNLOAD}
          value={access.download.schemas}
          disabled={fixed || access.data === 'no'}
          onChange={(e) => props.onChange(group, db, { download: { schemas: e.currentTarget.value as DownloadAccess } })}
        />
      </Table.Td>
    </Table.Tr>
  );
});
