import { Alert, Loader, ScrollArea, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { runQuery } from './api';
import type { Mbql5Query } from './types';

/** Ten rows of the query as it stands after a step (steps.ts queryUntil), run with POST /api/dataset. */
export function Preview({ query, label }: { query: Mbql5Query; label: string }) {
  const result = useQuery({
    queryKey: ['dataset', 'notebook-preview', query],
    queryFn: ({ signal }) => runQuery(query, signal),
    retry: false,
    meta: { errors: 'caller' },
  });
  if (result.isPending) return <Loader size="sm" aria-label={`Loading ${label}`} />;
  if (result.isError)
    return (
      <Alert color="red" title="The preview failed">
        {result.error.message}
      </Alert>
    );
  const { cols, rows } = result.data.data;
  if (!rows.length) return <Text size="sm">No rows.</Text>;
  return (
    <ScrollArea type="auto">
      <Table aria-label={label} striped withTableBorder fz="sm">
        <Table.Thead>
          <Table.Tr>
            {cols.map((c, i) => (
              <Table.Th key={i} scope="col">
                {c.display_name}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, r) => (
            <Table.Tr key={r}>
              {row.map((v, i) => (
                <Table.Td key={i}>{v === null ? '' : String(v)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
