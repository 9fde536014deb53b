import { Alert, Anchor, Breadcrumbs, Skeleton, Table, Title } from '@mantine/core';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { useDatabaseMetadata, type Database, type MetadataTable } from '../../../api/database';
import type { Group } from '../../../api/permissions';
import { BLOCKED, setTable, tableLevel, type Kind } from './levels';
import { PolicyModal } from './PolicyModal';
import { TableRow } from './TableRow';
import type { DataDraft } from './useDataDraft';

/**
 * A group's access to each table of a database (the database's "Granular" levels), grouped by schema when it has
 * several. View data per table may be "Row and column security", which opens the policy editor.
 */
export function TableAccess(props: { group: Group; db: Database; draft: DataDraft; back: string }) {
  const { group, db, draft } = props;
  const meta = useDatabaseMetadata(db.id);
  const [editing, setEditing] = useState<MetadataTable | null>(null);
  const tables = [...(meta.data?.tables ?? [])].sort(
    (a, b) => (a.schema ?? '').localeCompare(b.schema ?? '') || a.display_name.localeCompare(b.display_name),
  );
  const access = draft.access.value(String(group.id), String(db.id)) ?? BLOCKED;
  const put = (t: MetadataTable, kind: Kind, value: string) =>
    draft.access.set([{ group: String(group.id), key: String(db.id), value: setTable(access, tables, t, kind, value) }]);
  const change = (t: MetadataTable, kind: Kind, value: string) => {
    if (kind === 'view' && value === 'sandboxed') return setEditing(t);
    put(t, kind, value);
    if (kind === 'view' && draft.policy(group.id, t.id)) draft.setPolicy(group.id, t.id, null);
  };
  const schemas = [...new Set(tables.map((t) => t.schema ?? ''))];
  const title = `${group.name}: access to the tables of ${db.name}`;
  return (
    <section aria-labelledby="tables-title">
      <Breadcrumbs aria-label="Breadcrumb" mb="xs">
        <Anchor component={Link} to={props.back}>
          {group.name}
        </Anchor>
        <span aria-current="page">{db.name}</span>
      </Breadcrumbs>
      <Title order={2} size="h3" id="tables-title" mb="sm">
        {title}
      </Title>
      {meta.isError && (
        <Alert color="red" variant="light" role="alert" title="The tables could not be loaded">
          {meta.error.message}
        </Alert>
      )}
      {meta.isPending ? (
        <Skeleton height={240} aria-label="Loading the tables" />
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table striped aria-labelledby="tables-title">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Table</Table.Th>
                <Table.Th>View data</Table.Th>
                <Table.Th>Create queries</Table.Th>
                <Table.Th>Download results</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {schemas.map((schema) => (
                <Fragment key={schema}>
                  {schemas.length > 1 && (
                    <Table.Tr>
                      <Table.Th colSpan={4} scope="colgroup">
                        Schema {schema || '(none)'}
                      </Table.Th>
                    </Table.Tr>
                  )}
                  {tables
                    .filter((t) => (t.schema ?? '') === schema)
                    .map((t) => {
                      const view = tableLevel(access, 'view', t);
                      return (
                        <TableRow
                          key={t.id}
                          group={group}
                          table={t}
                          view={view === 'unrestricted' && draft.policy(group.id, t.id) ? 'sandboxed' : view}
                          create={tableLevel(access, 'create', t)}
                          download={tableLevel(access, 'download', t)}
                          onChange={change}
                          onEditPolicy={setEditing}
                        />
                      );
                    })}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {editing && (
        <PolicyModal
          group={group}
          table={editing}
          policy={draft.policy(group.id, editing.id)}
          onClose={() => setEditing(null)}
          onSave={(policy) => {
            if (tableLevel(access, 'view', editing) !== 'sandboxed') put(editing, 'view', 'sandboxed');
            draft.setPolicy(group.id, editing.id, policy);
            setEditing(null);
          }}
        />
      )}
    </section>
  );
}
