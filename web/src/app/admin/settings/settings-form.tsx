import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useForm, type FormValidateInput, type UseFormReturnType } from '@mantine/form';
import { useEffect, useState, type ReactNode } from 'react';
import { useSettings, useUpdateSettings, type SettingsMap } from '../../api/setting';
import { showApiErrors } from '../../forms/api-errors';
import { notifySuccess } from '../../notify';

export type SettingValues = Record<string, unknown>;

/** A settings form's values straight from settings: a text setting without a value is '' (the API takes '' as "unset"). */
export function pickSettings(keys: readonly string[]) {
  return (settings: SettingsMap): SettingValues =>
    Object.fromEntries(keys.map((k) => [k, settings[k]?.value ?? (typeof settings[k]?.default === 'boolean' ? false : '')]));
}

/**
 * The settings behind a form, read fresh each time the form opens (another admin, or a script, may have changed them)
 * and put into a Mantine form once; `read` turns them into the form's values.
 */
export function useSettingsForm<V extends SettingValues>(read: (settings: SettingsMap) => V, validate?: FormValidateInput<V>) {
  const settings = useSettings();
  const form = useForm<V>({ initialValues: {} as V, validate, validateInputOnChange: true });
  useEffect(() => {
    // Only from an answer fetched since the form opened: a cached list may be old (another admin, a script).
    if (settings.data && settings.isFetchedAfterMount && !settings.isFetching && !form.initialized) form.initialize(read(settings.data));
    // `read` and `form` are the same for a form's life; a new answer matters only before the form has its values.
  }, [settings.data, settings.isFetchedAfterMount, settings.isFetching]);
  return { form, settings: settings.data, error: settings.error };
}

/** What an input of a setting fixed by an environment variable says and does: it cannot be changed here. */
export function envLock(settings: SettingsMap | undefined, key: string): { disabled?: boolean; description?: string } {
  const s = settings?.[key];
  return s?.is_env_setting ? { disabled: true, description: `Set by the environment variable ${s.env_name}.` } : {};
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A form value as the API takes it: text trimmed, and empty text (or an emptied number) as null, the default. */
function toApi(value: unknown): unknown {
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  return value;
}

/**
 * A form of settings: its fields, an unsaved-changes note, Discard and Save. Save sends only what changed, in one
 * `PUT /api/setting` (all or nothing); what the server refuses is shown beside the field of that setting (`fields`
 * maps a setting to another field), anything else above the buttons. `write` turns the changed values into
 * settings when the form's fields are not settings one to one.
 */
export function SettingsForm<V extends SettingValues>({
  form,
  label,
  children,
  write,
  fields,
  onSaved,
}: {
  form: UseFormReturnType<V>;
  label: string;
  children: ReactNode;
  write?: (changed: Partial<V>, values: V) => Record<string, unknown>;
  fields?: Record<string, keyof V & string>;
  onSaved?: (values: V) => void;
}) {
  const update = useUpdateSettings();
  const [formError, setFormError] = useState<string | null>(null);
  const dirty = form.initialized && form.isDirty();

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    const initial = form.getInitialValues();
    const changed = Object.fromEntries(Object.entries(values).filter(([k, v]) => !same(v, initial[k]))) as Partial<V>;
    if (Object.keys(changed).length === 0) return;
    const body = write ? write(changed, values) : Object.fromEntries(Object.entries(changed).map(([k, v]) => [k, toApi(v)]));
    try {
      await update.mutateAsync(body);
      form.setInitialValues(values);
      form.resetDirty(values);
      notifySuccess('Changes saved.');
      onSaved?.(values);
    } catch (e) {
      showApiErrors(form, e, { fields, onOther: setFormError });
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <Stack gap="md" maw={720}>
        {form.initialized ? children : <Skeleton height={160} aria-label={`Loading ${label}`} role="progressbar" />}
        {formError && (
          <Alert color="red" variant="light" role="alert" title="The changes were not saved">
            {formError}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Text role="status" size="sm" c="dimmed">
            {dirty ? 'You have unsaved changes.' : ''}
          </Text>
          <Button variant="default" disabled={!dirty} onClick={() => form.reset()}>
            Discard changes
          </Button>
          <Button type="submit" disabled={!dirty} loading={update.isPending}>
            Save changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
