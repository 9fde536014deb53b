import { Alert, Button, CopyButton, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useEmbeddableCards } from '../../api/card';
import { useEmbeddableDashboards } from '../../api/dashboard';
import { useSettings, useUpdateSettings } from '../../api/setting';
import { randomToken } from '../../api/util';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { SettingSwitch } from '../settings/SettingSwitch';
import { usePageTitle } from '../../components/PageTitle';
import { notifyError, notifySuccess } from '../../notify';
import { SharedItemsTable } from '../settings/SharedItemsTable';
import { SigningKeys } from './SigningKeys';
import { envLock, pickSettings, SettingsForm, useSettingsForm } from '../settings/settings-form';

/**
 * Admin > Embedding > Static embedding: the switch, the secret key that signs embed tokens (HS256, keyed with the
 * key's string itself), and the questions and dashboards that can be embedded (`GET /api/card/embeddable`, `/api/dashboard/...`).
 */
export function StaticEmbedding() {
  usePageTitle('Static embedding');
  const { form, settings } = useSettingsForm(pickSettings(['enable-embedding-static']));
  const on = useSettings().data?.['enable-embedding-static']?.value === true;
  const cards = useEmbeddableCards(on);
  const dashboards = useEmbeddableDashboards(on);
  return (
    <Stack gap="lg">
      <Title order={1}>Static embedding</Title>
      <Text maw={720}>
        Your server signs a token naming a question or dashboard with the secret key below; a page of yours shows it in an iframe at{' '}
        <code>/embed/question/&lt;token&gt;</code> or <code>/embed/dashboard/&lt;token&gt;</code>.
      </Text>
      <SettingsForm form={form} label="Static embedding settings">
        <SettingSwitch
          label="Enable static embedding"
          description="Turning it on the first time makes a secret key."
          {...form.getInputProps('enable-embedding-static', { type: 'checkbox' })}
          {...envLock(settings, 'enable-embedding-static')}
        />
      </SettingsForm>
      <EmbeddingKey />
      <SigningKeys />
      <section aria-labelledby="embedded-items">
        <Title order={2} fz="h3" id="embedded-items" mb="sm">
          Embedded questions and dashboards
        </Title>
        {!on ? (
          <Text c="dimmed">Static embedding is off: no signed embed works.</Text>
        ) : (
          <Stack gap="lg">
            <SharedItemsTable
              caption="Embedded questions"
              kind="question"
              items={cards.data}
              loading={cards.isPending}
              error={cards.error}
              empty="No question has embedding turned on."
              pathOf={(i) => `/question/${i.id}`}
            />
            <SharedItemsTable
              caption="Embedded dashboards"
              kind="dashboard"
              items={dashboards.data}
              loading={dashboards.isPending}
              error={dashboards.error}
              empty="No dashboard has embedding turned on."
              pathOf={(i) => `/dashboard/${i.id}`}
            />
          </Stack>
        )}
      </section>
    </Stack>
  );
}

/**
 * The embedding secret key. The API answers a stored key masked (only its last two characters), so it is never shown
 * again; a key regenerated here is shown once (masked until revealed) to copy into the embedding server's config.
 */
function EmbeddingKey() {
  const settings = useSettings();
  const update = useUpdateSettings();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [fresh, setFresh] = useState<string | null>(null);
  const [visible, setVisible] = useState(false);
  const key = settings.data?.['embedding-secret-key'];
  const stored = typeof key?.value === 'string' ? key.value : '';

  const regenerate = async () => {
    setBusy(true);
    try {
      const token = await randomToken();
      await update.mutateAsync({ 'embedding-secret-key': token });
      setFresh(token);
      setVisible(false);
      setConfirming(false);
      notifySuccess('A new embedding key is in use.');
    } catch (e) {
      notifyError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="embedding-key">
      <Title order={2} fz="h3" id="embedding-key" mb="sm">
        Embedding secret key
      </Title>
      <Stack gap="sm" maw={720}>
        {fresh ? (
          <>
            <Alert color="blue" variant="light" title="Copy the new key now">
              This is the only time it is shown. Put it where your server signs embed tokens.
            </Alert>
            <PasswordInput
              label="New embedding secret key"
              value={fresh}
              readOnly
              visible={visible}
              onVisibilityChange={setVisible}
              visibilityToggleButtonProps={{ 'aria-label': visible ? 'Hide the new key' : 'Show the new key', tabIndex: 0 }}
            />
            <Group>
              <CopyButton value={fresh} timeout={2000}>
                {({ copied, copy }) => (
                  <Button variant="default" size="xs" onClick={copy}>
                    {copied ? 'Copied' : 'Copy the new key'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </>
        ) : (
          <TextInput
            label="Current embedding secret key"
            readOnly
            value={stored || 'No key yet: turning static embedding on makes one.'}
            description={stored ? 'Only its last two characters are shown. Regenerate it to see a key again.' : undefined}
            {...envLock(settings.data, 'embedding-secret-key')}
          />
        )}
        <Group>
          <Button
            variant="default"
            color="red"
            onClick={() => setConfirming(true)}
            disabled={envLock(settings.data, 'embedding-secret-key').disabled}
          >
            Regenerate key
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title="Regenerate the embedding key?"
        confirmLabel="Regenerate key"
        onConfirm={() => void regenerate()}
        onClose={() => setConfirming(false)}
        loading={busy}
      >
        Every signed embed stops working: the questions and dashboards embedded in other sites show an error until their server signs tokens
        with the new key.
      </ConfirmDialog>
    </section>
  );
}
