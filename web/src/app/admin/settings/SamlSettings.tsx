import { Anchor, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { Warning } from '../../components/Warning';
import { Link } from 'react-router';
import { CopyField } from '../../components/CopyField';
import { SettingSwitch } from './SettingSwitch';
import { usePageTitle } from '../../components/PageTitle';
import { httpUrl } from './rules';
import { envLock, pickSettings, SettingsForm, useSettingsForm, type SettingValues } from './settings-form';
import { AttributeFields, FormSection, ProvisioningFields } from './SsoSections';

const KEYS = [
  'saml-enabled',
  'saml-identity-provider-uri',
  'saml-identity-provider-certificate',
  'saml-identity-provider-issuer',
  'saml-application-name',
  'saml-attribute-email',
  'saml-attribute-firstname',
  'saml-attribute-lastname',
  'saml-attribute-group',
  'saml-user-provisioning-enabled?',
  'saml-group-sync',
  'saml-group-mappings',
];

/**
 * Admin > Settings > Authentication > SAML: what to give the identity provider (our ACS URL and entity id, from the
 * site URL and the application name: src/modules/sso/saml/saml-settings.ts), what it gives us (its sign-in URL,
 * certificate and issuer), the attribute names, provisioning and group sync. The server refuses to turn SAML on
 * before the identity provider's URL and certificate are set.
 */
export function SamlSettings() {
  usePageTitle('SAML');
  const { form, settings } = useSettingsForm<SettingValues>(pickSettings([...KEYS, 'site-url']), {
    'saml-identity-provider-uri': (v) => httpUrl(String(v ?? '')),
  });
  const site = String(form.getValues()['site-url'] ?? '').replace(/\/+$/, '');
  const entityId = String(form.getValues()['saml-application-name'] ?? '') || String(settings?.['saml-application-name']?.default ?? '');
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/admin/settings/authentication" size="sm">
        Back to authentication
      </Anchor>
      <Title order={1}>SAML</Title>
      <SettingsForm form={form} label="SAML settings">
        <SettingSwitch
          label="Sign in with SAML"
          description="Needs the identity provider's sign-in URL and certificate."
          {...form.getInputProps('saml-enabled', { type: 'checkbox' })}
          {...envLock(settings, 'saml-enabled')}
        />
        <FormSection title="For your identity provider">
          <Text size="sm" c="dimmed">
            Register this site as an application at your identity provider with these values.
          </Text>
          {site ? (
            <CopyField label="Single sign-on URL (ACS URL)" value={`${site}/auth/sso`} />
          ) : (
            <Warning title="No site URL yet">
              The identity provider posts back to this site&apos;s address. Set the site URL in{' '}
              <Anchor component={Link} to="/admin/settings/general">
                General settings
              </Anchor>{' '}
              first.
            </Warning>
          )}
          <TextInput
            label="Application name (entity ID, audience)"
            description="The name this site uses at the identity provider; it must match the audience of its assertions."
            {...form.getInputProps('saml-application-name')}
            {...envLock(settings, 'saml-application-name')}
          />
          <CopyField label="Entity ID" value={entityId} description="The same name, to copy." />
        </FormSection>
        <FormSection title="From your identity provider">
          <TextInput
            label="SAML identity provider URL"
            placeholder="https://idp.example.com/sso/saml"
            {...form.getInputProps('saml-identity-provider-uri')}
            {...envLock(settings, 'saml-identity-provider-uri')}
          />
          <Textarea
            label="SAML identity provider certificate"
            description="X.509, in PEM or its base64 body. Paste several to roll a certificate over."
            autosize
            minRows={4}
            maxRows={12}
            spellCheck={false}
            styles={{ input: { fontFamily: 'monospace' } }}
            {...form.getInputProps('saml-identity-provider-certificate')}
            {...envLock(settings, 'saml-identity-provider-certificate')}
          />
          <TextInput
            label="SAML identity provider issuer"
            description="Its entity ID. When set, assertions from any other issuer are refused."
            {...form.getInputProps('saml-identity-provider-issuer')}
            {...envLock(settings, 'saml-identity-provider-issuer')}
          />
        </FormSection>
        <FormSection title="User attributes">
          <AttributeFields
            form={form}
            settings={settings}
            fields={[
              { key: 'saml-attribute-email', label: 'Email address attribute' },
              { key: 'saml-attribute-firstname', label: 'First name attribute' },
              { key: 'saml-attribute-lastname', label: 'Last name attribute' },
              { key: 'saml-attribute-group', label: 'Groups attribute' },
            ]}
          />
        </FormSection>
        <FormSection title="Accounts and groups">
          <ProvisioningFields form={form} settings={settings} prefix="saml" source="SAML" />
        </FormSection>
      </SettingsForm>
    </Stack>
  );
}
