import { NumberInput, Stack, Text, Title } from '@mantine/core';
import { SettingSwitch } from './SettingSwitch';
import { usePageTitle } from '../../components/PageTitle';
import { wholeNumber } from './rules';
import { envLock, pickSettings, SettingsForm, useSettingsForm } from './settings-form';

const KEYS = ['enable-query-caching', 'query-caching-min-ttl', 'query-caching-ttl-ratio'];

/**
 * Admin > Settings > Caching: the query cache of saved questions (src/modules/query-cache): on or off, which runs
 * are worth keeping, and for how long a result is kept when its question sets no time of its own.
 */
export function CachingSettings() {
  usePageTitle('Caching');
  const { form, settings } = useSettingsForm(pickSettings(KEYS), {
    'query-caching-min-ttl': wholeNumber,
    'query-caching-ttl-ratio': wholeNumber,
  });
  const on = form.getValues()['enable-query-caching'] === true;
  return (
    <Stack gap="md">
      <Title order={1}>Caching</Title>
      <Text maw={720}>Saved questions that take long to run can answer from a stored result instead of asking the database again.</Text>
      <SettingsForm form={form} label="Caching settings">
        <SettingSwitch
          label="Cache the results of saved questions"
          {...form.getInputProps('enable-query-caching', { type: 'checkbox' })}
          {...envLock(settings, 'enable-query-caching')}
        />
        <NumberInput
          label="Minimum query duration (seconds)"
          description="Only results of runs that took longer than this are kept."
          min={0}
          allowDecimal={false}
          disabled={!on}
          {...form.getInputProps('query-caching-min-ttl')}
          {...envLock(settings, 'query-caching-min-ttl')}
        />
        <NumberInput
          label="Cache time-to-live multiplier"
          description="Without a time set on the question, a result is kept for its average run time times this."
          min={0}
          allowDecimal={false}
          disabled={!on}
          {...form.getInputProps('query-caching-ttl-ratio')}
          {...envLock(settings, 'query-caching-ttl-ratio')}
        />
      </SettingsForm>
    </Stack>
  );
}
