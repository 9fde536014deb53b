import { Alert, Button, Group, NumberInput, PasswordInput, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useState } from 'react';
import {
  healthcheck,
  useCreateDatabase,
  useUpdateDatabase,
  validateConnection,
  type DatabaseDetail,
  type Engine,
  type SavedDatabase,
} from '../../api/database';
import { showApiErrors } from '../../forms/api-errors';
import { ENGINE_OPTIONS, ENGINES, SCAN_EVERY, SECRET_MASK, SYNC_EVERY, withValue, type EngineField } from './engines';

export interface DatabaseFormValues {
  engine: Engine;
  name: string;
  host: string;
  port: number | string;
  dbname: string;
  user: string;
  password: string;
  ssl: boolean;
  'ssl-root-cert': string;
  db: string;
  auto_run_queries: boolean;
  metadata_sync_interval_minutes: string;
  field_values_interval_minutes: string;
}

export interface DatabaseFormProps {
  /** The database to edit; without it the form adds one. */
  database?: DatabaseDetail;
  /** `setup`: the engine, a name and the connection only; `admin`: SSL, schedules and options too. */
  variant: 'setup' | 'admin';
  /** The form's accessible name. */
  label: string;
  submitLabel: string;
  onSaved(db: SavedDatabase): void;
  onCancel?(): void;
  cancelLabel?: string;
}

/**
 * A database's connection form, per engine (engines.ts), for first-run setup and the admin console. Before saving,
 * the connection is tried (`POST /api/database/validate`) so that what the engine answers is shown at the field it
 * is about (a host nobody answers at, a database that does not exist, a wrong password); what names no field shows
 * in an alert in the form. "Test connection" does the same without saving.
 */
export function DatabaseForm({ database, variant, label, submitLabel, onSaved, onCancel, cancelLabel = 'Cancel' }: DatabaseFormProps) {
  const create = useCreateDatabase();
  const update = useUpdateDatabase(database?.id ?? 0);
  const [formError, setFormError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [checking, setChecking] = useState(false);
  const form = useForm<DatabaseFormValues>({ initialValues: initialValues(database), validate: validateValues });
  const values = form.getValues();
  const spec = ENGINES[values.engine];
  const fields = spec.fields.filter((f) => (variant === 'admin' || !f.advanced) && (!f.whenSsl || values.ssl));

  /** Tries the connection; answers whether it worked, after putting what the engine said where it belongs. */
  const tryConnection = async (v: DatabaseFormValues): Promise<boolean> => {
    const details = detailsOf(v);
    const kept = database && details.password === SECRET_MASK;
    const connectionChanged = form.isDirty('engine') || ENGINES[v.engine].fields.some((f) => form.isDirty(f.name));
    if (kept && connectionChanged) {
      // The stored password is never sent to the browser: a changed connection can only be tried with it typed again.
      form.setFieldError('password', 'Enter the password again to try the changed settings.');
      return false;
    }
    const verdict = kept
      ? await healthcheck(database.id).then((h) => (h.status === 'ok' ? { valid: true as const } : { valid: false as const, ...h }))
      : await validateConnection(v.engine, details);
    if (verdict.valid) return true;
    const placed = placeErrors(form, verdict.errors ?? {});
    if (!placed) setFormError(verdict.message);
    return false;
  };

  const submit = form.onSubmit(async (v) => {
    setFormError(null);
    setStatus(null);
    setChecking(true);
    try {
      // An unchanged connection kept with its stored password was tried when it was saved; saving tries it again.
      const needsTry = !(database && v.password === SECRET_MASK);
      if (needsTry && !(await tryConnection(v))) return;
      const body = bodyOf(v, variant);
      const saved = database ? await update.mutateAsync(body) : await create.mutateAsync(body);
      form.resetDirty();
      onSaved(saved);
    } catch (e) {
      showApiErrors(form, e, { onOther: setFormError });
    } finally {
      setChecking(false);
    }
  });

  const test = async () => {
    setFormError(null);
    setStatus(null);
    if (form.validate().hasErrors) return;
    setTesting(true);
    try {
      if (await tryConnection(form.getValues())) setStatus('Connected: the database accepts these settings.');
    } catch (e) {
      showApiErrors(form, e, { onOther: setFormError });
    } finally {
      setTesting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <Stack gap="sm">
        <Select
          label="Database type"
          data={ENGINE_OPTIONS}
          allowDeselect={false}
          {...form.getInputProps('engine')}
          onChange={(value) => {
            if (!value) return;
            form.setFieldValue('engine', value as Engine);
            const port = ENGINES[value as Engine].defaultPort;
            if (port) form.setFieldValue('port', port);
          }}
        />
        <TextInput label="Display name" description="How people will see this database." required {...form.getInputProps('name')} />
        {fields.map((f) => (
          <DetailInput key={f.name} field={f} form={form} />
        ))}
        {variant === 'admin' && <Schedules form={form} />}
        {formError && (
          <Alert color="red" variant="light" role="alert" title="The database could not be connected">
            {formError}
          </Alert>
        )}
        <Text role="status" size="sm" aria-live="polite">
          {status}
        </Text>
        <Group justify="space-between">
          <Group gap="xs">
            {onCancel && (
              <Button variant="default" onClick={onCancel}>
                {cancelLabel}
              </Button>
            )}
            <Button variant="default" onClick={test} loading={testing}>
              Test connection
            </Button>
          </Group>
          <Button type="submit" loading={checking || create.isPending || update.isPending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DetailInput({ field, form }: { field: EngineField; form: UseFormReturnType<DatabaseFormValues> }) {
  const common = { label: field.label, description: field.description, required: field.required };
  switch (field.kind) {
    case 'port':
      return (
        <NumberInput
          {...common}
          min={1}
          max={65535}
          allowDecimal={false}
          placeholder={String(ENGINES[form.getValues().engine].defaultPort ?? '')}
          {...form.getInputProps('port')}
        />
      );
    case 'password':
      return <PasswordInput {...common} autoComplete="new-password" {...form.getInputProps(field.name)} />;
    case 'switch':
      return <Switch {...common} {...form.getInputProps(field.name, { type: 'checkbox' })} />;
    case 'certificate':
      return <Textarea {...common} autosize minRows={3} maxRows={8} spellCheck={false} {...form.getInputProps(field.name)} />;
    default:
      return <TextInput {...common} autoComplete="off" spellCheck={false} {...form.getInputProps(field.name)} />;
  }
}

function Schedules({ form }: { form: UseFormReturnType<DatabaseFormValues> }) {
  const v = form.getValues();
  return (
    <>
      <Select
        label="Sync the database schema"
        description="How often new tables and columns are looked for."
        data={withValue(SYNC_EVERY, Number(v.metadata_sync_interval_minutes))}
        allowDeselect={false}
        {...form.getInputProps('metadata_sync_interval_minutes')}
      />
      <Select
        label="Scan field values"
        description="How often the values of list and search filters are read again."
        data={withValue(SCAN_EVERY, Number(v.field_values_interval_minutes))}
        allowDeselect={false}
        {...form.getInputProps('field_values_interval_minutes')}
      />
      <Switch label="Run simple questions as soon as they change" {...form.getInputProps('auto_run_queries', { type: 'checkbox' })} />
    </>
  );
}

function initialValues(db?: DatabaseDetail): DatabaseFormValues {
  const d = db?.details ?? {};
  const str = (k: string, fallback = '') => (typeof d[k] === 'string' ? (d[k] as string) : fallback);
  const engine = db?.engine ?? 'postgres';
  return {
    engine,
    name: db?.name ?? '',
    host: str('host', db ? '' : 'localhost'),
    port: typeof d.port === 'number' ? d.port : (ENGINES[engine].defaultPort ?? ''),
    dbname: str('dbname'),
    user: str('user'),
    password: str('password'),
    ssl: d.ssl === true,
    'ssl-root-cert': str('ssl-root-cert'),
    db: str('db'),
    auto_run_queries: db?.auto_run_queries ?? true,
    metadata_sync_interval_minutes: String(db?.metadata_sync_interval_minutes ?? 60),
    field_values_interval_minutes: String(db?.field_values_interval_minutes ?? 1440),
  };
}

function validateValues(v: DatabaseFormValues): Partial<Record<keyof DatabaseFormValues, string | null>> {
  const out: Partial<Record<keyof DatabaseFormValues, string | null>> = { name: v.name.trim() ? null : 'Give the database a name.' };
  for (const f of ENGINES[v.engine].fields) {
    const value = v[f.name];
    if (f.required && typeof value === 'string' && !value.trim()) out[f.name] = `Enter the ${f.label.toLowerCase()}.`;
  }
  return out;
}

/** The engine's connection settings only: another engine's leftovers would be refused as unknown keys. */
function detailsOf(v: DatabaseFormValues): Record<string, unknown> {
  const spec = ENGINES[v.engine];
  const out: Record<string, unknown> = {};
  for (const f of spec.fields) {
    const value = v[f.name];
    if (f.kind === 'port') out.port = value === '' ? spec.defaultPort : Number(value);
    else if (f.kind === 'switch') out[f.name] = Boolean(value);
    else if (f.kind === 'password') out[f.name] = value === '' ? null : value;
    else if (f.whenSsl && !v.ssl) continue;
    else if (typeof value === 'string' && (value.trim() || f.required)) out[f.name] = value.trim();
  }
  return out;
}

function bodyOf(v: DatabaseFormValues, variant: 'setup' | 'admin') {
  const base = { engine: v.engine, name: v.name.trim(), details: detailsOf(v) };
  if (variant === 'setup') return base;
  return {
    ...base,
    auto_run_queries: v.auto_run_queries,
    metadata_sync_interval_minutes: Number(v.metadata_sync_interval_minutes),
    field_values_interval_minutes: Number(v.field_values_interval_minutes),
  };
}

/** The engine's errors at the fields they name (`db`, `host`...); answers whether any field took one. */
function placeErrors(form: UseFormReturnType<DatabaseFormValues>, errors: Record<string, string>): boolean {
  const known = new Set(Object.keys(form.getValues()));
  const placed = Object.entries(errors).filter(([k]) => known.has(k));
  form.setErrors(Object.fromEntries(placed));
  return placed.length > 0;
}
