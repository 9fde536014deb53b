import { Alert, Button, Drawer, Group, Skeleton, Stack, Text } from '@mantine/core';
import type { Card } from '../api/card';
import { useRevert, useRevisions } from '../api/revision';
import { notifySuccess } from '../notify';

/** The card's revisions, newest first, each but the current one with "Revert" (which records a new revision). */
export function RevisionDrawer({ card, onClose, onReverted }: { card: Card; onClose(): void; onReverted(): void }) {
  const revisions = useRevisions('card', card.id);
  const revert = useRevert('card', card.id);
  return (
    <Drawer opened closeButtonProps={{ 'aria-label': 'Close' }} onClose={onClose} title="Revision history" position="right" size="md">
      {revisions.isPending ? (
        <Skeleton h={120} aria-label="Loading the revision history" />
      ) : revisions.isError ? (
        <Alert color="red">{revisions.error.message}</Alert>
      ) : (
        <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Revisions">
          {revisions.data.map((r) => (
            <li key={r.id}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <div>
                  <Text size="sm" fw={700}>
                    {r.user?.common_name ?? 'Someone'} {r.description ?? 'edited this.'}
                  </Text>
                  <Text size="xs" c="dimmed">
                    <time dateTime={r.timestamp}>{new Date(r.timestamp).toLocaleString()}</time>
                  </Text>
                </div>
                {!r.most_recent && card.can_write && (
                  <Button
                    size="compact-sm"
                    variant="default"
                    loading={revert.isPending && revert.variables === r.id}
                    aria-label={`Revert to the version of ${new Date(r.timestamp).toLocaleString()}: ${r.description ?? ''}`}
                    onClick={() =>
                      revert.mutate(r.id, {
                        onSuccess: () => {
                          notifySuccess('Reverted to an earlier version.');
                          onClose();
                          onReverted();
                        },
                      })
                    }
                  >
                    Revert
                  </Button>
                )}
              </Group>
            </li>
          ))}
        </Stack>
      )}
    </Drawer>
  );
}
