import { Anchor, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link } from 'react-router';
import { SettingSwitch } from './SettingSwitch';
import { usePageTitle } from '../../components/PageTitle';
import { httpUrl, sharedSecret } from './rules';
import { SecretField } from './SecretField';
import { envLock, pickSettings, SettingsForm, useSettingsForm, type SettingValues } from './settings-form';
import { AttributeFields, FormSection, ProvisioningFields } from './SsoSections';

const KEYS = [
  'jwt-enabled',
  'jwt-identity-provider-uri',
  'jwt-shared-secret',
  'jwt-attribute-email',
  'jwt-attribute-firstname',
  'jwt-attribute-lastname',
  'jwt-attribute-groups',
  'jwt-user-provisioning-enabled?',
  'jwt-group-sync',
  'jwt-group-mappings',
];

/**
 * Admin > Settings > Authentication > JWT (the spec's JWT SSO flow): the identity provider URI (the customer
 * backend's endpoint that signs a token), the shared secret it signs with, claim names, provisioning, group sync.
 * The server refuses to turn JWT on before the URI and the secret are set: its answer is shown at the switch.
 */
export function JwtSettings() {
  usePageTitle('JWT');
  const { form, settings } = useSettingsForm<SettingValues>(pickSettings(KEYS), {
    'jwt-identity-provider-uri': (v) => httpUrl(String(v ?? '')),
    'jwt-shared-secret': (v) => sharedSecret(String(v ?? '')),
  });
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/admin/settings/authentication" size="sm">
        Back to authentication
      </Anchor>
      <Title order={1}>JWT</Title>
      <Text maw={720}>
        Your application signs a token for the person signed in to it, and sends them to <code>/auth/sso?jwt=…</code>; the embedding SDK
        fetches the token from the identity provider URI below.
      </Text>
      <SettingsForm form={form} label="JWT settings">
        <SettingSwitch
          label="Sign in with JWT"
          description="Needs the identity provider URI and the shared secret."
          {...form.getInputProps('jwt-enabled', { type: 'checkbox' })}
          {...envLock(settings, 'jwt-enabled')}
        />
        <FormSection title="Connection">
          <TextInput
            label="JWT Identity Provider URI"
            placeholder="https://app.example.com/sso/analytics"
            description="Your backend's endpoint that signs a token for the signed-in person."
            {...form.getInputProps('jwt-identity-provider-uri')}
            {...envLock(settings, 'jwt-identity-provider-uri')}
          />
          <SecretField
            label="Shared secret"
            description="Your backend signs tokens with it (HS256). Keep it on the server, never in a page."
            {...form.getInputProps('jwt-shared-secret')}
            value={String(form.getValues()['jwt-shared-secret'] ?? '')}
            onChange={(v) => form.setFieldValue('jwt-shared-secret', v)}
            {...envLock(settings, 'jwt-shared-secret')}
          />
        </FormSection>
        <FormSection title="User attributes">
          <Text size="sm" c="dimmed">
            The claims of the token that carry each value. Other claims are kept as the person&apos;s attributes.
          </Text>
          <AttributeFields
            form={form}
            settings={settings}
            fields={[
              { key: 'jwt-attribute-email', label: 'Email address claim' },
              { key: 'jwt-attribute-firstname', label: 'First name claim' },
              { key: 'jwt-attribute-lastname', label: 'Last name claim' },
              { key: 'jwt-attribute-groups', label: 'Groups claim' },
            ]}
          />
        </FormSection>
        <FormSection title="Accounts and groups">
          <ProvisioningFields form={form} settings={settings} prefix="jwt" source="JWT" />
        </FormSection>
      </SettingsForm>
    </Stack>
  );
}
