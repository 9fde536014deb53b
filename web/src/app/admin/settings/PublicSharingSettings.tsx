import { Stack, Text, Title } from '@mantine/core';
import { usePublicCards, useRevokeCardLink } from '../../api/card';
import { usePublicDashboards, useRevokeDashboardLink } from '../../api/dashboard';
import { useSettings } from '../../api/setting';
import { SettingSwitch } from './SettingSwitch';
import { usePageTitle } from '../../components/PageTitle';
import { envLock, pickSettings, SettingsForm, useSettingsForm } from './settings-form';
import { SharedItemsTable } from './SharedItemsTable';

/**
 * Admin > Settings > Public sharing: the switch (`enable-public-sharing`), and while it is on the questions and
 * dashboards with a public link (`GET /api/card/public`, `/api/dashboard/public`), each with a revoke button.
 */
export function PublicSharingSettings() {
  usePageTitle('Public sharing');
  const { form, settings } = useSettingsForm(pickSettings(['enable-public-sharing']));
  const on = useSettings().data?.['enable-public-sharing']?.value === true;
  const cards = usePublicCards(on);
  const dashboards = usePublicDashboards(on);
  const revokeCard = useRevokeCardLink();
  const revokeDashboard = useRevokeDashboardLink();
  const site = String(settings?.['site-url']?.value || window.location.origin).replace(/\/+$/, '');
  const warning = (what: string) =>
    `Anyone with the link to ${what} loses access at once. A new link can be made later; it will be a different one.`;

  return (
    <Stack gap="lg">
      <Title order={1}>Public sharing</Title>
      <SettingsForm form={form} label="Public sharing settings">
        <SettingSwitch
          label="Enable public sharing"
          description="Admins can then make a link to a question or dashboard that anyone can open, without signing in."
          {...form.getInputProps('enable-public-sharing', { type: 'checkbox' })}
          {...envLock(settings, 'enable-public-sharing')}
        />
      </SettingsForm>
      <section aria-labelledby="shared-items">
        <Title order={2} fz="h3" id="shared-items" mb="sm">
          Shared questions and dashboards
        </Title>
        {!on ? (
          <Text c="dimmed">Public sharing is off: no public link works, and none is listed.</Text>
        ) : (
          <Stack gap="lg">
            <SharedItemsTable
              caption="Shared questions"
              kind="question"
              items={cards.data?.map((c) => ({ id: c.id, name: c.name, shared: `${site}/public/question/${c.public_uuid}` }))}
              loading={cards.isPending}
              error={cards.error}
              empty="No question has a public link."
              pathOf={(i) => `/question/${i.id}`}
              revoke={{ label: 'Revoke link', warning, run: (id) => revokeCard.mutateAsync(id) }}
            />
            <SharedItemsTable
              caption="Shared dashboards"
              kind="dashboard"
              items={dashboards.data?.map((d) => ({ id: d.id, name: d.name, shared: `${site}/public/dashboard/${d.public_uuid}` }))}
              loading={dashboards.isPending}
              error={dashboards.error}
              empty="No dashboard has a public link."
              pathOf={(i) => `/dashboard/${i.id}`}
              revoke={{ label: 'Revoke link', warning, run: (id) => revokeDashboard.mutateAsync(id) }}
            />
          </Stack>
        )}
      </section>
    </Stack>
  );
}
