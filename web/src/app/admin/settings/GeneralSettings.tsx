import { Select, TextInput, Title } from '@mantine/core';
import { usePageTitle } from '../../components/PageTitle';
import { envLock, pickSettings, SettingsForm, useSettingsForm } from './settings-form';
import { httpUrl } from './rules';

const KEYS = ['site-name', 'site-url', 'admin-email', 'report-timezone'] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TIME_ZONES = Intl.supportedValuesOf('timeZone');

/** Admin > Settings > General: the site's name and address, who to ask for help, the time zone of reports. */
export function GeneralSettings() {
  usePageTitle('General settings');
  const { form, settings } = useSettingsForm(pickSettings(KEYS), {
    'site-name': (v) => (String(v ?? '').trim() ? null : 'Enter a name.'),
    'site-url': (v) => httpUrl(String(v ?? '')),
    'admin-email': (v) => (!v || EMAIL.test(String(v).trim()) ? null : 'Enter a valid email address.'),
  });
  return (
    <>
      <Title order={1} mb="md">
        General settings
      </Title>
      <SettingsForm form={form} label="General settings">
        <TextInput
          label="Site name"
          required
          description="Shown in the header and on the sign-in page."
          {...form.getInputProps('site-name')}
          {...envLock(settings, 'site-name')}
        />
        <TextInput
          label="Site URL"
          placeholder="https://analytics.example.com"
          description="The address people reach this site at: links in emails and SSO redirects are built from it."
          {...form.getInputProps('site-url')}
          {...envLock(settings, 'site-url')}
        />
        <TextInput
          label="Email address for help requests"
          type="email"
          description="Shown to people who need help with their account."
          {...form.getInputProps('admin-email')}
          {...envLock(settings, 'admin-email')}
        />
        <Select
          label="Report time zone"
          description="Dates and times in questions are shown in this zone. Empty: the database's own."
          placeholder="The database's time zone"
          data={TIME_ZONES}
          searchable
          clearable
          // Mantine hides its clear button from the keyboard and screen readers: this one is a real button.
          clearButtonProps={{ 'aria-label': 'Clear the report time zone', 'aria-hidden': false, tabIndex: 0 }}
          limit={50}
          {...form.getInputProps('report-timezone')}
          value={(form.getValues()['report-timezone'] as string) || null}
          onChange={(v) => form.setFieldValue('report-timezone', v ?? '')}
          {...envLock(settings, 'report-timezone')}
        />
      </SettingsForm>
    </>
  );
}
