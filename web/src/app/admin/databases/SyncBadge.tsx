import { Badge } from '@mantine/core';
import type { DatabaseDetail } from '../../api/database';

const SHOWN: Record<DatabaseDetail['initial_sync_status'], { label: string; color: string }> = {
  incomplete: { label: 'Syncing…', color: 'blue' },
  complete: { label: 'Synced', color: 'green' },
  aborted: { label: 'Sync failed', color: 'red' },
};

/** Whether a database's first sync (its tables and fields read) is done. */
export function SyncBadge({ status }: { status: DatabaseDetail['initial_sync_status'] }) {
  const shown = SHOWN[status] ?? SHOWN.incomplete;
  return (
    <Badge variant="dot" color={shown.color}>
      {shown.label}
    </Badge>
  );
}
