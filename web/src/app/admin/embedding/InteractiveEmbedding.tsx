import { Stack, Text, Title } from '@mantine/core';
import { SettingSwitch } from '../settings/SettingSwitch';
import { usePageTitle } from '../../components/PageTitle';
import { envLock, pickSettings, SettingsForm, useSettingsForm } from '../settings/settings-form';
import { OriginsField } from './OriginsField';
import { originsProblem } from './origins';

/** Admin > Embedding > Interactive embedding: the whole application in an iframe of the sites named here. */
export function InteractiveEmbedding() {
  usePageTitle('Interactive embedding');
  const { form, settings } = useSettingsForm(pickSettings(['enable-embedding-interactive', 'embedding-app-origins-interactive']), {
    'embedding-app-origins-interactive': (v) => originsProblem(String(v ?? '')),
  });
  return (
    <Stack gap="md">
      <Title order={1}>Interactive embedding</Title>
      <Text maw={720}>Show the whole application in an iframe of your site, signed in through SSO.</Text>
      <SettingsForm form={form} label="Interactive embedding settings">
        <SettingSwitch
          label="Enable interactive embedding"
          {...form.getInputProps('enable-embedding-interactive', { type: 'checkbox' })}
          {...envLock(settings, 'enable-embedding-interactive')}
        />
        <OriginsField
          label="Authorized origins"
          description="The sites allowed to embed the application, separated by spaces."
          {...form.getInputProps('embedding-app-origins-interactive')}
          value={String(form.getValues()['embedding-app-origins-interactive'] ?? '')}
          {...envLock(settings, 'embedding-app-origins-interactive')}
          anySite="A bare * is never trusted with the visitor's session here: name each site that embeds the application."
        />
      </SettingsForm>
    </Stack>
  );
}
