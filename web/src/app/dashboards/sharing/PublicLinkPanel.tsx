import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useRevokeDashboardLink } from '../../api/dashboard';
import { useCreateDashboardLink } from '../../api/dashboard-sharing';
import type { DashboardData } from '../../api/dashboard-view';
import { ConfirmModal } from '../../components/ConfirmModal';
import { CopyField } from '../../components/CopyField';
import { publicIframe } from './snippets';

/** The public link: made, copied (the link or an iframe of it), revoked. Only while public sharing is on. */
export function PublicLinkPanel({ dashboard, siteUrl, enabled }: { dashboard: DashboardData; siteUrl: string; enabled: boolean }) {
  const create = useCreateDashboardLink(dashboard.id);
  const revoke = useRevokeDashboardLink();
  const [confirming, setConfirming] = useState(false);
  if (!enabled) {
    return (
      <Text>
        Public sharing is off. An admin turns it on in{' '}
        <Anchor component={Link} to="/admin/settings/public-sharing">
          Admin › Settings › Public sharing
        </Anchor>
        .
      </Text>
    );
  }
  const uuid = dashboard.public_uuid;
  const url = uuid ? `${siteUrl}/public/dashboard/${uuid}` : '';
  return (
    <Stack>
      <Text size="sm">Anyone with the link sees this dashboard, without signing in.</Text>
      {(create.error ?? revoke.error) && (
        <Alert color="red" role="alert">
          {(create.error ?? revoke.error)!.message}
        </Alert>
      )}
      {uuid ? (
        <>
          <CopyField label="Public link" value={url} />
          <CopyField label="Public embed code" value={publicIframe(url)} />
          <Button color="red" variant="light" onClick={() => setConfirming(true)}>
            Remove the public link
          </Button>
        </>
      ) : (
        <Button onClick={() => create.mutate()} loading={create.isPending}>
          Create a public link
        </Button>
      )}
      <ConfirmModal
        opened={confirming}
        title="Remove the public link?"
        confirmLabel="Remove the link"
        loading={revoke.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => revoke.mutate(dashboard.id, { onSuccess: () => setConfirming(false) })}
      >
        The link stops working at once, and pages that show it in an iframe go blank. A new link has another address.
      </ConfirmModal>
    </Stack>
  );
}
