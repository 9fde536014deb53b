import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmModal } from '../../components/ConfirmModal';
import { CopyField } from '../../components/CopyField';
import { publicIframe } from './snippets';
import { useCreatePublicLink, useRevokePublicLink, type ShareTarget } from './target';

/** The public link: made, copied (the link or an iframe of it), revoked. Only while public sharing is on. */
export function PublicLinkPanel({ target, siteUrl, enabled }: { target: ShareTarget; siteUrl: string; enabled: boolean }) {
  const create = useCreatePublicLink(target);
  const revoke = useRevokePublicLink(target);
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
  const uuid = target.public_uuid;
  const url = uuid ? `${siteUrl}/public/${target.kind}/${uuid}` : '';
  return (
    <Stack>
      <Text size="sm">Anyone with the link sees this {target.kind}, without signing in.</Text>
      {(create.error ?? revoke.error) && (
        <Alert color="red" role="alert">
          {(create.error ?? revoke.error)!.message}
        </Alert>
      )}
      {uuid ? (
        <>
          <CopyField label="Public link" value={url} />
          <CopyField label="Public embed code" value={publicIframe(url, target.name)} />
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
        onConfirm={() => revoke.mutate(target.id, { onSuccess: () => setConfirming(false) })}
      >
        The link stops working at once, and pages that show it in an iframe go blank. A new link has another address.
      </ConfirmModal>
    </Stack>
  );
}
