import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { databaseKeys, useDatabaseJob, useSyncLog, type DatabaseDetail, type DatabaseJob, type SyncRun } from '../../api/database';
import { notifySuccess } from '../../notify';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DeleteDatabaseModal } from './DeleteDatabaseModal';

const STARTED: Record<DatabaseJob, string> = {
  sync_schema: 'The schema sync has started.',
  rescan_values: 'The field values are being scanned.',
  discard_values: 'The saved field values are discarded.',
};

/** Sync now, re-scan and discard field values, and removal; with how the latest sync went. */
export function DatabaseActions({ database }: { database: DatabaseDetail }) {
  const job = useDatabaseJob(database.id);
  const client = useQueryClient();
  // The newest run when a job was asked for: the log is asked again until a newer one has ended.
  const [awaitingAfter, setAwaitingAfter] = useState<number | null>(null);
  const log = useSyncLog(database.id, (runs) => awaitingAfter !== null || runs?.[0]?.status === 'running');
  const latest = log.data?.[0];
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [removing, setRemoving] = useState(false);

  useEffect(() => {
    if (awaitingAfter === null || !latest || latest.id <= awaitingAfter || latest.status === 'running') return;
    setAwaitingAfter(null);
    // New tables or fields: the lists that show them.
    void client.invalidateQueries({ queryKey: databaseKeys.metadata(database.id) });
  }, [awaitingAfter, latest, client, database.id]);

  const run = (which: DatabaseJob) =>
    job.mutate(which, {
      onSuccess: () => {
        notifySuccess(STARTED[which]);
        if (which !== 'discard_values') setAwaitingAfter(latest?.id ?? 0);
      },
    });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="database-actions">
      <Title order={2} size="h4" id="database-actions" mb="xs">
        Actions
      </Title>
      <Text size="sm" mb="sm" role="status" aria-live="polite">
        {describe(latest, awaitingAfter !== null)}
      </Text>
      <Stack gap="xs" align="flex-start">
        <Button variant="default" onClick={() => run('sync_schema')} loading={job.isPending && job.variables === 'sync_schema'}>
          Sync database schema now
        </Button>
        <Button variant="default" onClick={() => run('rescan_values')} loading={job.isPending && job.variables === 'rescan_values'}>
          Re-scan field values now
        </Button>
        <Button variant="default" color="red" onClick={() => setConfirmDiscard(true)}>
          Discard saved field values
        </Button>
        <Button variant="outline" color="red" onClick={() => setRemoving(true)}>
          Remove this database
        </Button>
      </Stack>
      <ConfirmModal
        opened={confirmDiscard}
        title="Discard saved field values?"
        confirmLabel="Discard values"
        onClose={() => setConfirmDiscard(false)}
        onConfirm={() => {
          setConfirmDiscard(false);
          run('discard_values');
        }}
      >
        The values kept for filters of this database&apos;s fields are dropped; they are read again at the next scan.
      </ConfirmModal>
      <DeleteDatabaseModal database={database} opened={removing} onClose={() => setRemoving(false)} />
    </Paper>
  );
}

function describe(run: SyncRun | undefined, awaiting: boolean): string {
  if (awaiting && (!run || run.status !== 'running')) return 'Starting…';
  if (!run) return 'Not synced yet.';
  const what = run.kind === 'metadata' ? 'Schema sync' : 'Field value scan';
  if (run.status === 'running') return `${what} running since ${time(run.started_at)}.`;
  if (run.status === 'failed') return `${what} failed at ${time(run.ended_at ?? run.started_at)}: ${run.error ?? 'unknown error'}`;
  return `${what} finished at ${time(run.ended_at ?? run.started_at)}.`;
}

const time = (iso: string) => new Date(iso).toLocaleString();
