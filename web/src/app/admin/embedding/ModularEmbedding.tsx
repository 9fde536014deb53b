import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { SettingSwitch } from '../settings/SettingSwitch';
import { usePageTitle } from '../../components/PageTitle';
import { envLock, pickSettings, SettingsForm, useSettingsForm } from '../settings/settings-form';
import { OriginsField } from './OriginsField';
import { originsProblem } from './origins';

/**
 * Admin > Embedding > Modular embedding (the spec's screen): the React SDK on or off, and under Cross-Origin Resource
 * Sharing the origins allowed to call this server from a browser (`embedding-app-origins-sdk`; src/common/http/origin-policy.ts).
 */
export function ModularEmbedding() {
  usePageTitle('Modular embedding');
  const { form, settings } = useSettingsForm(pickSettings(['enable-embedding-sdk', 'embedding-app-origins-sdk']), {
    'embedding-app-origins-sdk': (v) => originsProblem(String(v ?? '')),
  });
  return (
    <Stack gap="md">
      <Title order={1}>Modular embedding</Title>
      <Text maw={720}>
        Embed questions, dashboards and the query builder in your React application with the SDK. People sign in through{' '}
        <Anchor component={Link} to="/admin/settings/authentication/jwt">
          JWT
        </Anchor>{' '}
        or{' '}
        <Anchor component={Link} to="/admin/settings/authentication/saml">
          SAML
        </Anchor>
        ; an API key is for trying it out on your own machine.
      </Text>
      <SettingsForm form={form} label="Modular embedding settings">
        <SettingSwitch
          label="Enable modular embedding"
          {...form.getInputProps('enable-embedding-sdk', { type: 'checkbox' })}
          {...envLock(settings, 'enable-embedding-sdk')}
        />
        <Title order={2} fz="h4">
          Cross-Origin Resource Sharing (CORS)
        </Title>
        <OriginsField
          label="Authorized origins"
          description={
            'The sites your application runs on, separated by spaces. *.example.com allows every subdomain of example.com. ' +
            'Localhost is allowed while developing.'
          }
          {...form.getInputProps('embedding-app-origins-sdk')}
          value={String(form.getValues()['embedding-app-origins-sdk'] ?? '')}
          {...envLock(settings, 'embedding-app-origins-sdk')}
          anySite={
            <>
              Any website may then call this server with header credentials (the SDK&apos;s session token), never with the visitor&apos;s
              cookie. Name your application&apos;s origin for it to use the signed-in session.
            </>
          }
        />
      </SettingsForm>
    </Stack>
  );
}
