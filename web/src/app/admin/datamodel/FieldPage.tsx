import { Alert, Anchor, Button, Group, NativeSelect, Paper, Radio, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useDatabaseMetadata, type MetadataTable } from '../../api/database';
import { useField, useFieldValues, useSetDimension, useSetFieldValues, type FieldDetail, type FieldValues } from '../../api/field';
import { NotFound } from '../../components/NotFound';
import { notifySuccess } from '../../notify';
import { errorFor } from './autosave';

type Mode = 'original' | 'external' | 'internal';

/**
 * A field's display values: its own values, a field of the table its foreign key points to (an `external`
 * dimension), or custom names for each of its values (an `internal` dimension and the values' human-readable names).
 */
export function FieldPage() {
  const { dbId, tableId, fieldId } = useParams();
  const field = useField(Number(fieldId));
  const meta = useDatabaseMetadata(Number(dbId));
  const back = `/admin/datamodel/database/${dbId}/table/${tableId}`;
  if (field.isPending || meta.isPending) return <Skeleton height={300} aria-label="Loading the field" />;
  if (field.isError || meta.isError) {
    const error = field.error ?? meta.error;
    return (
      <Alert color="red" variant="light" role="alert" title="The field could not be loaded">
        {error?.message}
      </Alert>
    );
  }
  if (field.data.table_id !== Number(tableId)) return <NotFound />;
  const target = field.data.target ? meta.data.tables.find((t) => t.id === field.data.target!.table_id) : undefined;
  return (
    <Stack gap="md">
      <Anchor component={Link} to={back}>
        Back to {field.data.table.display_name}
      </Anchor>
      <Paper withBorder p="md" component="section" aria-labelledby="field-title">
        <Title order={2} id="field-title">
          {field.data.display_name}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {field.data.table.display_name} → {field.data.name}
        </Text>
        <DisplayValues key={field.data.id} field={field.data} targetTable={target} />
      </Paper>
    </Stack>
  );
}

function DisplayValues({ field, targetTable }: { field: FieldDetail; targetTable?: MetadataTable }) {
  const dimension = field.dimensions[0];
  const values = useFieldValues(field.id);
  const setDimension = useSetDimension(field.id);
  const setValues = useSetFieldValues(field.id);
  const [mode, setMode] = useState<Mode>(dimension ? dimension.type : 'original');
  const [humanField, setHumanField] = useState<string>(dimension?.human_readable_field_id ? String(dimension.human_readable_field_id) : '');
  const [names, setNames] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const list = values.data?.values ?? [];
  // The names stored so far, once the values are read (and again when they change).
  useEffect(() => setNames((values.data?.values ?? []).map((p) => (p.length === 2 ? p[1] : ''))), [values.data]);

  const canExternal = field.semantic_type === 'type/FK' && !!targetTable;
  const canInternal = list.length > 0;
  const save = async () => {
    setError(null);
    try {
      if (mode === 'original') await setDimension.mutateAsync(null);
      else if (mode === 'external') {
        if (!humanField) return setError('Choose the field to show.');
        await setDimension.mutateAsync({ type: 'external', name: field.display_name, human_readable_field_id: Number(humanField) });
      } else {
        await setDimension.mutateAsync({ type: 'internal', name: field.display_name });
        // Every value needs a name (the server refuses a partial mapping): an empty one keeps the value itself.
        await setValues.mutateAsync(list.map((p, i) => [p[0], names[i]?.trim() || String(p[0])]));
      }
      notifySuccess(`The display values of ${field.display_name} are saved.`);
    } catch (e) {
      setError(errorFor(e, mode === 'internal' ? 'values' : 'human_readable_field_id'));
    }
  };

  return (
    <Stack gap="sm">
      <Radio.Group label="Display values" value={mode} onChange={(v) => setMode(v as Mode)}>
        <Stack gap={6} mt={4}>
          <Radio value="original" label="Use the original value" />
          <Radio value="external" label="Use a field of the linked table" disabled={!canExternal} />
          <Radio value="internal" label="Custom mapping" disabled={!canInternal} />
        </Stack>
      </Radio.Group>
      {!canExternal && (
        <Text size="sm" c="dimmed">
          A field of the linked table can be shown for a foreign key with a target.
        </Text>
      )}
      {mode === 'external' && targetTable && (
        <NativeSelect
          label={`Field of ${targetTable.display_name} to show`}
          data={[
            { value: '', label: 'Choose a field' },
            ...targetTable.fields.map((f) => ({ value: String(f.id), label: f.display_name })),
          ]}
          value={humanField}
          onChange={(e) => setHumanField(e.currentTarget.value)}
        />
      )}
      {mode === 'internal' && <CustomValues values={values.data} names={names} onChange={setNames} />}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button onClick={save} loading={setDimension.isPending || setValues.isPending}>
          Save display values
        </Button>
      </Group>
    </Stack>
  );
}

function CustomValues({ values, names, onChange }: { values?: FieldValues; names: string[]; onChange(names: string[]): void }) {
  if (!values) return <Skeleton height={120} aria-label="Loading the values" />;
  return (
    <Table aria-label="Custom display values">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Value</Table.Th>
          <Table.Th>Shown as</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {values.values.map((pair, i) => (
          <Table.Tr key={String(pair[0])}>
            <Table.Td>{String(pair[0])}</Table.Td>
            <Table.Td>
              <TextInput
                aria-label={`Display value for ${String(pair[0])}`}
                placeholder={String(pair[0])}
                value={names[i] ?? ''}
                onChange={(e) => onChange(names.map((n, j) => (j === i ? e.currentTarget.value : n)))}
              />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
