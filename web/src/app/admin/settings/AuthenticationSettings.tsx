import { Anchor, Badge, Card, Group, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useSettings } from '../../api/setting';
import { SettingSwitch } from './SettingSwitch';
import { usePageTitle } from '../../components/PageTitle';
import { envLock, pickSettings, SettingsForm, useSettingsForm } from './settings-form';

/** The server's password rules per `password-complexity` (src/modules/users/password-policy.ts RULES). */
const COMPLEXITY = [
  { value: 'weak', label: 'Weak', rule: 'At least 6 characters.' },
  { value: 'normal', label: 'Normal', rule: 'At least 6 characters, including a number.' },
  {
    value: 'strong',
    label: 'Strong',
    rule: 'At least 8 characters, with 2 lower case and 2 upper case letters, a number and a special character.',
  },
];

/** Admin > Settings > Authentication: password rules, and the ways to sign in other than a password. */
export function AuthenticationSettings() {
  usePageTitle('Authentication');
  const { form, settings } = useSettingsForm(pickSettings(['password-complexity', 'enable-password-login']));
  return (
    <Stack gap="xl">
      <Title order={1}>Authentication</Title>
      <SignInMethods />
      <section aria-labelledby="password-rules">
        <Title order={2} id="password-rules" fz="h3" mb="sm">
          Passwords
        </Title>
        <SettingsForm form={form} label="Password settings">
          <Radio.Group
            label="Password strength"
            description="What a new password must have. Common passwords are always refused."
            {...form.getInputProps('password-complexity')}
            {...envLock(settings, 'password-complexity')}
          >
            <Stack gap="xs" mt="xs">
              {COMPLEXITY.map((c) => (
                <Radio
                  key={c.value}
                  value={c.value}
                  label={c.label}
                  description={c.rule}
                  disabled={settings?.['password-complexity']?.is_env_setting}
                />
              ))}
            </Stack>
          </Radio.Group>
          <SettingSwitch
            label="Allow signing in with email and password"
            description="Turn it off only once JWT or SAML sign-in works: people then sign in through SSO alone."
            {...form.getInputProps('enable-password-login', { type: 'checkbox' })}
            {...envLock(settings, 'enable-password-login')}
          />
        </SettingsForm>
      </section>
    </Stack>
  );
}

/** JWT, SAML and API keys: whether each is on, and a link to its page. */
function SignInMethods() {
  const settings = useSettings().data;
  const on = (key: string) => settings?.[key]?.value === true;
  const methods = [
    {
      to: 'jwt',
      title: 'JWT',
      about: 'Sign people in with a token your application signs (modular and full-app embedding).',
      on: on('jwt-enabled'),
    },
    {
      to: 'saml',
      title: 'SAML',
      about: 'Sign people in through an identity provider such as Okta, Entra ID or Keycloak.',
      on: on('saml-enabled'),
    },
  ];
  return (
    <section aria-labelledby="sso-methods">
      <Title order={2} id="sso-methods" fz="h3" mb="sm">
        Single sign-on and API keys
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        {methods.map((m) => (
          <Card key={m.to} withBorder padding="md">
            <Group justify="space-between" mb={4}>
              <Text fw={700}>{m.title}</Text>
              {settings && (
                <Badge color={m.on ? 'green' : 'gray'} variant="light">
                  {m.on ? 'On' : 'Off'}
                </Badge>
              )}
            </Group>
            <Text size="sm" mb="sm">
              {m.about}
            </Text>
            <Anchor component={Link} to={`/admin/settings/authentication/${m.to}`}>
              Set up {m.title}
            </Anchor>
          </Card>
        ))}
        <Card withBorder padding="md">
          <Text fw={700} mb={4}>
            API keys
          </Text>
          <Text size="sm" mb="sm">
            Keys that scripts and other servers use instead of a person's password.
          </Text>
          <Anchor component={Link} to="/admin/settings/authentication/api-keys">
            Manage API keys
          </Anchor>
        </Card>
      </SimpleGrid>
    </section>
  );
}
