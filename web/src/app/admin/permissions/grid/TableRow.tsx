import { Button, NativeSelect, Stack, Table } from '@mantine/core';
import type { MetadataTable } from '../../../api/database';
import type { Group } from '../../../api/permissions';
import type { Kind } from './levels';
import { CREATE_TABLE, DOWNLOAD_TABLE, VIEW_TABLE } from './options';

/** One table's levels for a group; a table under row and column security offers to edit its policy. */
export function TableRow(props: {
  group: Group;
  table: MetadataTable;
  view: string;
  create: string;
  download: string;
  onChange(t: MetadataTable, kind: Kind, value: string): void;
  onEditPolicy(t: MetadataTable): void;
}) {
  const { group, table } = props;
  const on = `for ${group.name} on ${table.display_name}`;
  const blocked = props.view === 'blocked';
  const select = (kind: Kind, label: string, data: Array<{ value: string; label: string }>, value: string) => (
    <NativeSelect
      aria-label={`${label} ${on}`}
      size="xs"
      miw={kind === 'view' ? 175 : 130}
      data={data}
      value={value}
      disabled={kind !== 'view' && blocked}
      onChange={(e) => props.onChange(table, kind, e.currentTarget.value)}
    />
  );
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={500}>
        {table.display_name}
      </Table.Th>
      <Table.Td>
        <Stack gap={2} align="flex-start">
          {select('view', 'View data', VIEW_TABLE, props.view)}
          {props.view === 'sandboxed' && (
            <Button size="compact-xs" variant="subtle" onClick={() => props.onEditPolicy(table)} aria-label={`Edit policy ${on}`}>
              Edit policy
            </Button>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>{select('create', 'Create queries', CREATE_TABLE, props.create)}</Table.Td>
      <Table.Td>{select('download', 'Download results', DOWNLOAD_TABLE, props.download)}</Table.Td>
    </Table.Tr>
  );
}
