import { Radio, Stack, Text, Title } from '@mantine/core';
import { Warning } from '../../components/Warning';
import { usePageTitle } from '../../components/PageTitle';
import { envLock, pickSettings, SettingsForm, useSettingsForm } from '../settings/settings-form';

/** The spec's SameSite values and what each means ("Settings and admin configuration"). */
const OPTIONS = [
  {
    value: 'lax',
    label: 'Lax (default)',
    about: 'The session cookie goes along when people follow a link here, not with requests from other sites.',
  },
  {
    value: 'none',
    label: 'None',
    about: 'Needed when your application and this server are on different domains and the embed uses the existing session.',
  },
  {
    value: 'strict',
    label: 'Strict (not recommended)',
    about: 'The cookie is sent only by pages of this site, not even when following a link here.',
  },
];

/**
 * Admin > Embedding > Security: the session cookie's SameSite attribute (`session-cookie-samesite`), with the spec's
 * warnings. The server refuses `none` unless the site URL is https (the cookie is then Secure): shown at the field.
 */
export function EmbeddingSecurity() {
  usePageTitle('Embedding security');
  const { form, settings } = useSettingsForm(pickSettings(['session-cookie-samesite']));
  const value = form.getValues()['session-cookie-samesite'];
  return (
    <Stack gap="md">
      <Title order={1}>Security</Title>
      <SettingsForm form={form} label="Embedding security settings">
        <Radio.Group
          label="SameSite cookie setting"
          description="Which requests from other sites carry the session cookie of this server."
          {...form.getInputProps('session-cookie-samesite')}
          {...envLock(settings, 'session-cookie-samesite')}
        >
          <Stack gap="xs" mt="xs">
            {OPTIONS.map((o) => (
              <Radio
                key={o.value}
                value={o.value}
                label={o.label}
                description={o.about}
                disabled={envLock(settings, 'session-cookie-samesite').disabled}
              />
            ))}
          </Stack>
        </Radio.Group>
        {value === 'none' && (
          <Warning title="None needs HTTPS and does not work in Safari">
            <Text size="sm">
              The cookie is then Secure, so this site must be served over HTTPS. Safari and every browser on iOS block such cookies from
              embedded sites: people there cannot use the embed with their existing session.
            </Text>
          </Warning>
        )}
        {value === 'strict' && (
          <Warning title="Strict is not recommended">
            <Text size="sm">
              People following a link to this site from anywhere else arrive signed out, and embeds on other sites never carry the session.
            </Text>
          </Warning>
        )}
      </SettingsForm>
    </Stack>
  );
}
