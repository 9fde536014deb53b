import { Anchor, Button, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { memo } from 'react';
import { Link } from 'react-router';
import type { Database } from '../../../api/database';
import { ADMIN_GROUP_ID, type Group } from '../../../api/permissions';
import { isGranular, type Access, type Kind } from './levels';
import { CREATE_DB, DOWNLOAD_DB, GRANULAR, ROLE_ENGINES, VIEW_DB } from './options';

/** A database-wide row; it redraws only when its own access changes (memo), so editing one of 50 rows is quick. */
export const AccessRow = memo(function AccessRow(props: {
  name: string;
  /** The database's tables for the group (none for Administrators). */
  to?: string;
  group: Group;
  db: Database;
  access: Access;
  /** A table of the database is under a row policy for the group: its view data is granular. */
  sandboxed: boolean;
  role: string | null;
  changed: boolean;
  onChange(g: Group, db: Database, kind: Kind, value: string): void;
  onEditRole(target: { group: Group; db: Database }): void;
}) {
  const { group, db, access } = props;
  const fixed = group.id === ADMIN_GROUP_ID;
  const blocked = access.view === 'blocked';
  const view = isGranular(access.view) || props.sandboxed ? GRANULAR : access.view;
  const shown = (v: Access[Kind]) => (isGranular(v) ? GRANULAR : v);
  // Native SQL reads every table: only with data access to the whole database.
  const create =
    view === 'unrestricted' || view === 'impersonated' ? CREATE_DB : CREATE_DB.filter((o) => o.value !== 'query-builder-and-native');
  const on = `for ${group.name} on ${db.name}`;
  const select = (kind: Kind, label: string, data: Array<{ value: string; label: string }>, value: string, disabled = false) => (
    <NativeSelect
      aria-label={`${label} ${on}`}
      size="xs"
      miw={kind === 'view' ? 175 : 130}
      data={data}
      value={value}
      disabled={fixed || disabled}
      onChange={(e) => props.onChange(group, db, kind, e.currentTarget.value)}
    />
  );
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={props.changed ? 900 : 500}>
        {props.to ? (
          <Anchor component={Link} to={props.to} aria-label={`Tables of ${db.name} for ${group.name}`}>
            {props.name}
          </Anchor>
        ) : (
          props.name
        )}
        {props.changed && (
          <Text span size="xs" c="dimmed">
            {' '}
            (changed)
          </Text>
        )}
      </Table.Th>
      <Table.Td>
        <Stack gap={2} align="flex-start">
          {select('view', 'View data', VIEW_DB(ROLE_ENGINES.has(db.engine) || view === 'impersonated'), view)}
          {view === 'impersonated' && (
            <Button
              size="compact-xs"
              variant="subtle"
              onClick={() => props.onEditRole({ group, db })}
              aria-label={`${props.role ?? 'Choose'}: role attribute ${on}`}
            >
              {props.role ?? 'Choose'}
            </Button>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>{select('create', 'Create queries', create, shown(access.create), blocked)}</Table.Td>
      <Table.Td>{select('download', 'Download results', DOWNLOAD_DB, shown(access.download), blocked)}</Table.Td>
    </Table.Tr>
  );
});
