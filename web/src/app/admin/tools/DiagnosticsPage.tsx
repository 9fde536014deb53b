import { Alert, Button, Code, CopyButton, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useBugReportDetails, useConnectionPools } from '../../api/util';
import { usePageTitle } from '../../components/PageTitle';

/**
 * Admin > Tools > Help: the diagnostic information to attach to a bug report (`GET /api/util/bug_report_details`:
 * versions, system and a few settings, no secrets) and the connection pools (`/api/util/diagnostic_info/...`).
 */
export function DiagnosticsPage() {
  usePageTitle('Diagnostic info');
  return (
    <Stack gap="xl">
      <Title order={1}>Diagnostic info</Title>
      <ConnectionPools />
      <BugReport />
    </Stack>
  );
}

function BugReport() {
  const details = useBugReportDetails();
  const json = details.data ? JSON.stringify(details.data, null, 2) : '';
  return (
    <section aria-labelledby="bug-report">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h3" id="bug-report">
          For a bug report
        </Title>
        <CopyButton value={json} timeout={2000}>
          {({ copied, copy }) => (
            <Button variant="default" size="xs" onClick={copy} disabled={!json}>
              {copied ? 'Copied' : 'Copy diagnostic info'}
            </Button>
          )}
        </CopyButton>
      </Group>
      {details.isPending ? (
        <Loader aria-label="Loading the diagnostic info" />
      ) : details.error ? (
        <Alert color="red" variant="light" role="alert">
          {details.error.message}
        </Alert>
      ) : (
        <Code block aria-label="Diagnostic info" tabIndex={0} style={{ maxHeight: 480, overflow: 'auto' }}>
          {json}
        </Code>
      )}
    </section>
  );
}

function ConnectionPools() {
  const pools = useConnectionPools();
  return (
    <section aria-labelledby="pools">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h3" id="pools">
          Connection pools
        </Title>
        <Button variant="default" size="xs" onClick={() => void pools.refetch()} loading={pools.isFetching}>
          Refresh
        </Button>
      </Group>
      {pools.isPending ? (
        <Loader aria-label="Loading the connection pools" />
      ) : pools.error ? (
        <Alert color="red" variant="light" role="alert">
          {pools.error.message}
        </Alert>
      ) : Object.keys(pools.data).length === 0 ? (
        <Text c="dimmed">No pool is open.</Text>
      ) : (
        <Table withTableBorder striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Pool</Table.Th>
              <Table.Th>Connections</Table.Th>
              <Table.Th>Busy</Table.Th>
              <Table.Th>Idle</Table.Th>
              <Table.Th>Waiting</Table.Th>
              <Table.Th>Queued queries</Table.Th>
              <Table.Th>Maximum</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {Object.entries(pools.data).map(([name, p]) => (
              <Table.Tr key={name}>
                <Table.Td>{name}</Table.Td>
                <Table.Td>{p.numConnections}</Table.Td>
                <Table.Td>{p.numBusyConnections}</Table.Td>
                <Table.Td>{p.numIdleConnections}</Table.Td>
                <Table.Td>{p.numWaiting}</Table.Td>
                <Table.Td>{p.numQueuedQueries ?? '–'}</Table.Td>
                <Table.Td>{p.maxPoolSize}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </section>
  );
}
