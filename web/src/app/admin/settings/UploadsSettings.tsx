import { Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDatabases } from '../../api/database';
import type { SettingsMap } from '../../api/setting';
import { usePageTitle } from '../../components/PageTitle';
import { envLock, SettingsForm, useSettingsForm } from './settings-form';

/** Engines that take uploads (src/modules/settings/uploads-settings.ts UPLOAD_ENGINES). */
const UPLOAD_ENGINES = ['postgres', 'mysql', 'duckdb'];
const SCHEMA = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const PREFIX = /^[A-Za-z0-9_]{0,20}$/;

interface Values extends Record<string, unknown> {
  db_id: string | null;
  schema_name: string;
  table_prefix: string;
}

/** The one `uploads-settings` setting as the form's three fields. */
function read(settings: SettingsMap): Values {
  const v = (settings['uploads-settings']?.value ?? {}) as {
    db_id?: number | null;
    schema_name?: string | null;
    table_prefix?: string | null;
  };
  return { db_id: v.db_id ? String(v.db_id) : null, schema_name: v.schema_name ?? '', table_prefix: v.table_prefix ?? '' };
}

/**
 * Admin > Settings > Uploads: the database (and schema) CSV uploads become tables in, and a prefix for their names.
 * No database: uploads are off. The server checks the database exists and its engine takes uploads; what it refuses
 * is shown at the database field.
 */
export function UploadsSettings() {
  usePageTitle('Uploads');
  const { form, settings } = useSettingsForm<Values>(read, {
    schema_name: (v) => (!v || SCHEMA.test(v) ? null : 'A schema name is letters, digits and underscores, not starting with a digit.'),
    table_prefix: (v) => (PREFIX.test(v) ? null : 'Up to 20 letters, digits or underscores.'),
  });
  const databases = useDatabases();
  const options = (databases.data ?? [])
    .filter((d) => UPLOAD_ENGINES.includes(d.engine))
    .map((d) => ({ value: String(d.id), label: d.name }));
  const lock = envLock(settings, 'uploads-settings');
  const off = !form.getValues().db_id;

  return (
    <Stack gap="md">
      <Title order={1}>Uploads</Title>
      <Text maw={720}>People can upload CSV files; each becomes a table in the database chosen here, ready to query.</Text>
      <SettingsForm
        form={form}
        label="Upload settings"
        fields={{ 'uploads-settings': 'db_id' }}
        write={(_, v) => ({
          'uploads-settings': v.db_id
            ? { db_id: Number(v.db_id), schema_name: v.schema_name.trim() || null, table_prefix: v.table_prefix.trim() || null }
            : { db_id: null, schema_name: null, table_prefix: null },
        })}
      >
        <Select
          label="Database to upload to"
          description={
            options.length || databases.isPending
              ? 'PostgreSQL, MySQL, MariaDB or DuckDB. Empty: uploads are off.'
              : 'No PostgreSQL, MySQL, MariaDB or DuckDB database is connected: add one under Databases first.'
          }
          placeholder="Uploads are off"
          data={options}
          clearable
          // Mantine hides its clear button from the keyboard and screen readers: this one is a real button.
          clearButtonProps={{ 'aria-label': 'Turn uploads off', 'aria-hidden': false, tabIndex: 0 }}
          {...form.getInputProps('db_id')}
          {...lock}
        />
        <TextInput
          label="Schema"
          description="PostgreSQL and DuckDB: the schema new tables go into. Empty: the database's default."
          disabled={off || lock.disabled}
          {...form.getInputProps('schema_name')}
        />
        <TextInput
          label="Table name prefix"
          description="Put before the name of each uploaded table, e.g. upload_."
          disabled={off || lock.disabled}
          {...form.getInputProps('table_prefix')}
        />
      </SettingsForm>
    </Stack>
  );
}
