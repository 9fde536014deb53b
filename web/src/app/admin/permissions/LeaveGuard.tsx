import { useBlocker } from 'react-router';
import { ConfirmModal } from '../../components/ConfirmModal';

/** Asks before leaving a grid with unsaved changes for another page of the app (the edits would be lost). */
export function LeaveGuard({ dirty, base }: { dirty: boolean; base: string }) {
  // Moving inside the grid (another group or database) keeps the edits: only leaving it asks.
  const blocker = useBlocker(({ nextLocation }) => dirty && !nextLocation.pathname.startsWith(base));
  return (
    <ConfirmModal
      opened={blocker.state === 'blocked'}
      title="Discard your changes?"
      confirmLabel="Discard changes"
      onClose={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    >
      Your changes to these permissions are not saved yet.
    </ConfirmModal>
  );
}
