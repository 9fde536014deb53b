import { Alert, Button, Checkbox, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { useCopyDashboard, useUpdateDashboard } from '../api/dashboard-edit';
import type { DashboardData } from '../api/dashboard-view';
import { CollectionPicker, ROOT } from '../collections/CollectionPicker';
import { ConfirmModal } from '../components/ConfirmModal';
import { showApiErrors } from '../forms/api-errors';
import { notifySuccess } from '../notify';
import { RevisionHistory } from './RevisionHistory';
import { dashboardTarget } from './sharing/target';

// Sharing (and its embed preview, which draws with the embed viewer) is a chunk of its own, loaded when opened.
const SharingModal = lazy(async () => ({ default: (await import('./sharing/SharingModal')).SharingModal }));

export type ActionKind = 'history' | 'copy' | 'move' | 'archive' | 'sharing';

/** The dialogs of the "More" menu. */
export function DashboardActions(props: { dashboard: DashboardData; action: ActionKind | null; onClose: () => void }) {
  const d = props.dashboard;
  switch (props.action) {
    case 'history':
      return <RevisionHistory dashboard={d} onClose={props.onClose} />;
    case 'copy':
      return <CopyDialog dashboard={d} onClose={props.onClose} />;
    case 'move':
      return <MoveDialog dashboard={d} onClose={props.onClose} />;
    case 'archive':
      return <ArchiveDialog dashboard={d} onClose={props.onClose} />;
    case 'sharing':
      return (
        <Suspense fallback={null}>
          <SharingModal target={dashboardTarget(d)} onClose={props.onClose} />
        </Suspense>
      );
    default:
      return null;
  }
}

/** "Duplicate": a name, a collection, and whether the questions are copied too (a deep copy). */
function CopyDialog({ dashboard, onClose }: { dashboard: DashboardData; onClose: () => void }) {
  const copy = useCopyDashboard(dashboard.id);
  const navigate = useNavigate();
  const [where, setWhere] = useState({
    id: dashboard.collection_id,
    name: dashboard.collection_id === null ? ROOT.name : 'Same collection',
  });
  const [picking, setPicking] = useState(false);
  const [other, setOther] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: `${dashboard.name} - Duplicate`, is_deep_copy: false },
    validate: { name: (v) => (v.trim() ? null : 'Enter a name for the copy.') },
  });
  const submit = form.onSubmit(async (v) => {
    try {
      const made = await copy.mutateAsync({ name: v.name.trim(), collection_id: where.id, is_deep_copy: v.is_deep_copy });
      notifySuccess(`The dashboard ${made.name} is created.`);
      onClose();
      navigate(`/dashboard/${made.id}`);
    } catch (e) {
      showApiErrors(form, e, { onOther: setOther });
    }
  });
  return (
    <>
      <Modal opened={!picking} onClose={onClose} title={`Duplicate "${dashboard.name}"`}>
        <form onSubmit={submit} noValidate aria-label="Duplicate the dashboard">
          <Stack>
            {other && (
              <Alert color="red" role="alert">
                {other}
              </Alert>
            )}
            <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
            <Group gap="xs">
              <span>
                In <strong>{where.name}</strong>
              </span>
              <Button variant="subtle" size="compact-sm" onClick={() => setPicking(true)}>
                Change collection
              </Button>
            </Group>
            <Checkbox label="Also duplicate the questions" {...form.getInputProps('is_deep_copy', { type: 'checkbox' })} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={copy.isPending}>
                Duplicate
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      {picking && (
        <CollectionPicker
          title="Duplicate into"
          confirmLabel="Choose"
          onClose={() => setPicking(false)}
          onPick={(c) => {
            setWhere(c);
            setPicking(false);
          }}
        />
      )}
    </>
  );
}

function MoveDialog({ dashboard, onClose }: { dashboard: DashboardData; onClose: () => void }) {
  const update = useUpdateDashboard(dashboard.id);
  return (
    <CollectionPicker
      title={`Move "${dashboard.name}"`}
      confirmLabel="Move"
      loading={update.isPending}
      onClose={onClose}
      onPick={(c) =>
        update.mutate(
          { collection_id: c.id },
          {
            onSuccess: () => {
              notifySuccess(`Moved to ${c.name}.`);
              onClose();
            },
          },
        )
      }
    />
  );
}

function ArchiveDialog({ dashboard, onClose }: { dashboard: DashboardData; onClose: () => void }) {
  const update = useUpdateDashboard(dashboard.id);
  return (
    <ConfirmModal
      opened
      title={`Move "${dashboard.name}" to the trash?`}
      confirmLabel="Move to trash"
      loading={update.isPending}
      onClose={onClose}
      onConfirm={() =>
        update.mutate(
          { archived: true },
          {
            onSuccess: () => {
              notifySuccess('The dashboard is in the trash.');
              onClose();
            },
          },
        )
      }
    >
      Its public link and embeds stop working; it can be restored from the trash.
    </ConfirmModal>
  );
}
