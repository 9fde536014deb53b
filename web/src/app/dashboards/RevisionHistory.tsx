import { Alert, Button, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { useDashboardRevisions, useRevertDashboard } from '../api/dashboard-edit';
import type { DashboardData } from '../api/dashboard-view';
import { notifySuccess } from '../notify';

/** The dashboard's revisions, newest first, each but the current one with "Revert". */
export function RevisionHistory({ dashboard, onClose }: { dashboard: DashboardData; onClose: () => void }) {
  const revisions = useDashboardRevisions(dashboard.id, true);
  const revert = useRevertDashboard(dashboard.id);
  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      title="Revision history"
      closeButtonProps={{ 'aria-label': 'Close the revision history' }}
    >
      {revisions.isPending && <Loader aria-label="Loading the revisions" />}
      {revisions.error && (
        <Alert color="red" role="alert">
          {revisions.error.message}
        </Alert>
      )}
      <Stack component="ol" gap="sm" p={0} style={{ listStyle: 'none' }} aria-label="Revisions">
        {(revisions.data ?? []).map((r) => (
          <li key={r.id}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Text size="sm">
                  <strong>{r.user?.common_name ?? 'Someone'}</strong> {r.description ?? 'edited this.'}
                </Text>
                <Text size="xs" c="dimmed">
                  {new Date(r.timestamp).toLocaleString()}
                </Text>
              </div>
              {!r.most_recent && (
                <Button
                  size="compact-sm"
                  variant="default"
                  loading={revert.isPending && revert.variables === r.id}
                  aria-label={`Revert to the revision of ${new Date(r.timestamp).toLocaleString()}: ${r.description ?? ''}`}
                  onClick={() => revert.mutate(r.id, { onSuccess: () => notifySuccess('The dashboard is reverted.') })}
                >
                  Revert
                </Button>
              )}
            </Group>
          </li>
        ))}
      </Stack>
    </Drawer>
  );
}
