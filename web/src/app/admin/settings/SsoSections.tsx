import { Stack, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import type { SettingsMap } from '../../api/setting';
import { SettingSwitch } from './SettingSwitch';
import { GroupMappings, type GroupMappingsValue } from './GroupMappings';
import { envLock, type SettingValues } from './settings-form';

/** A titled part of a long settings form. */
export function FormSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
      <Title order={2} fz="h4" component="legend" mb="xs">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** The attribute (claim) names of an SSO provider's settings: where its token or assertion carries each value. */
export function AttributeFields({
  form,
  settings,
  fields,
}: {
  form: UseFormReturnType<SettingValues>;
  settings: SettingsMap | undefined;
  fields: Array<{ key: string; label: string }>;
}) {
  return (
    <>
      {fields.map((f) => (
        <TextInput
          key={f.key}
          label={f.label}
          placeholder={String(settings?.[f.key]?.default ?? '')}
          {...form.getInputProps(f.key)}
          {...envLock(settings, f.key)}
        />
      ))}
    </>
  );
}

/** User provisioning, group sync and the group mappings of an SSO provider (`prefix` jwt or saml). */
export function ProvisioningFields({
  form,
  settings,
  prefix,
  source,
}: {
  form: UseFormReturnType<SettingValues>;
  settings: SettingsMap | undefined;
  prefix: 'jwt' | 'saml';
  source: string;
}) {
  const mappings = `${prefix}-group-mappings`;
  const sync = form.getValues()[`${prefix}-group-sync`] === true;
  return (
    <>
      <SettingSwitch
        label="Create an account on first sign-in"
        description={`Someone ${source} vouches for who has no account here yet gets one. Off: only existing people can sign in.`}
        {...form.getInputProps(`${prefix}-user-provisioning-enabled?`, { type: 'checkbox' })}
        {...envLock(settings, `${prefix}-user-provisioning-enabled?`)}
      />
      <SettingSwitch
        label="Synchronize group memberships"
        description={`At each sign-in, join the groups mapped from the person's ${source} groups and leave the other mapped ones.`}
        {...form.getInputProps(`${prefix}-group-sync`, { type: 'checkbox' })}
        {...envLock(settings, `${prefix}-group-sync`)}
      />
      {sync && (
        <GroupMappings
          source={source}
          value={(form.getValues()[mappings] as GroupMappingsValue) ?? {}}
          onChange={(v) => form.setFieldValue(mappings, v)}
          error={form.errors[mappings]}
          disabled={envLock(settings, mappings).disabled}
        />
      )}
    </>
  );
}
