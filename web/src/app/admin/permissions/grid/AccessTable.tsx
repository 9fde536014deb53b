import { Alert, Table, Title } from '@mantine/core';
import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Database } from '../../../api/database';
import { ADMIN_GROUP_ID, type Group } from '../../../api/permissions';
import { AccessRow } from './AccessRow';
import { ImpersonationModal } from './ImpersonationModal';
import { BLOCKED, setDatabase, type Kind } from './levels';
import { GRANULAR } from './options';
import type { DataDraft } from './useDataDraft';

export const tablesPath = (base: string, group: number, db: number) => `${base}/group/${group}/database/${db}`;

/**
 * One slice of the data grid: a group by every database, or a database by every group; three kinds per row (view
 * data, create queries, downloads). "Granular" (or the row's name) opens the database's tables for that group.
 */
export function AccessTable(props: {
  mode: 'group' | 'database';
  id: number;
  groups: Group[];
  databases: Database[];
  /** Per database, its tables' ids: a group's policy on one of them makes its view data granular. */
  tablesOf: (db: number) => number[];
  draft: DataDraft;
  base: string;
}) {
  const { mode, id, groups, databases, draft, base } = props;
  const navigate = useNavigate();
  const [impersonating, setImpersonating] = useState<{ group: Group; db: Database } | null>(null);
  // The rows are memoised: one stable handler that reads the latest draft keeps a change from redrawing every row.
  const latest = useRef(draft);
  latest.current = draft;
  const change = useCallback(
    (g: Group, db: Database, kind: Kind, value: string) => {
      if (value === GRANULAR) return void navigate(tablesPath(base, g.id, db.id));
      if (kind === 'view' && value === 'impersonated') return setImpersonating({ group: g, db });
      const d = latest.current.access;
      const current = d.value(String(g.id), String(db.id)) ?? BLOCKED;
      d.set([{ group: String(g.id), key: String(db.id), value: setDatabase(current, kind, value) }]);
    },
    [navigate, base],
  );
  const group = mode === 'group' ? groups.find((g) => g.id === id) : undefined;
  const database = mode === 'database' ? databases.find((d) => d.id === id) : undefined;
  if (!group && !database) return <Alert variant="light">Not found: it may have been removed. Choose another.</Alert>;
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
      <Table.ScrollContainer minWidth={600}>
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
            {rows.map((r) => {
              const policies = draft.policyTables(r.group.id);
              const tables = props.tablesOf(r.db.id);
              return (
                <AccessRow
                  key={r.key}
                  name={r.name}
                  to={r.group.id === ADMIN_GROUP_ID ? undefined : tablesPath(base, r.group.id, r.db.id)}
                  group={r.group}
                  db={r.db}
                  access={draft.access.value(String(r.group.id), String(r.db.id)) ?? BLOCKED}
                  sandboxed={policies.some((t) => tables.includes(t))}
                  role={draft.role(r.group.id, r.db.id)}
                  changed={draft.access.changes[r.group.id]?.[r.db.id] !== undefined}
                  onChange={change}
                  onEditRole={setImpersonating}
                />
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {impersonating && (
        <ImpersonationModal
          group={impersonating.group}
          db={impersonating.db}
          attribute={draft.role(impersonating.group.id, impersonating.db.id)}
          onClose={() => setImpersonating(null)}
          onSave={(attribute) => {
            const { group: g, db } = impersonating;
            const current = draft.access.value(String(g.id), String(db.id)) ?? BLOCKED;
            draft.access.set([{ group: String(g.id), key: String(db.id), value: setDatabase(current, 'view', 'impersonated') }]);
            draft.setRole(g.id, db.id, attribute);
            setImpersonating(null);
          }}
        />
      )}
    </section>
  );
}
