import { Alert, Anchor, Fieldset, Group, Paper, Radio, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useDatabaseMetadata, type MetadataField, type MetadataTable } from '../../api/database';
import { useUpdateField, type UpdateFieldBody } from '../../api/field';
import { useUpdateTable } from '../../api/table';
import { NotFound } from '../../components/NotFound';
import { errorFor, SavedSelect, SavedText, SaveStatus } from './autosave';
import { FIELD_VISIBILITY_OPTIONS, FILTERING_OPTIONS, SEMANTIC_TYPE_OPTIONS, TABLE_VISIBILITY_OPTIONS } from './field-options';

/** A table's display name, description and visibility, and every field's; each change is saved as it is made. */
export function TablePage() {
  const dbId = Number(useParams().dbId);
  const tableId = Number(useParams().tableId);
  const meta = useDatabaseMetadata(dbId);
  if (meta.isPending) return <Skeleton height={400} aria-label="Loading the table" />;
  if (meta.isError)
    return (
      <Alert color="red" variant="light" role="alert" title="The table could not be loaded">
        {meta.error.message}
      </Alert>
    );
  const table = meta.data.tables.find((t) => t.id === tableId);
  if (!table) return <NotFound />;
  // Foreign keys point at the primary keys of this database's tables (Metabase offers those).
  const labelled = meta.data.tables.flatMap((t) =>
    t.fields.map((f) => ({ field: f, value: String(f.id), label: `${t.display_name} → ${f.display_name}` })),
  );
  const keys = labelled.filter((k) => k.field.semantic_type === 'type/PK');
  return (
    <Stack gap="md">
      <TableSettings key={table.id} table={table} />
      <Title order={3} size="h4">
        Fields
      </Title>
      {table.fields.map((f) => (
        <FieldSettings
          key={f.id}
          field={f}
          dbId={dbId}
          // The current target stays offered even when it is not a primary key (set through the API, or by sync).
          keys={
            keys.some((k) => k.field.id === f.fk_target_field_id)
              ? keys
              : [...keys, ...labelled.filter((k) => k.field.id === f.fk_target_field_id)]
          }
        />
      ))}
    </Stack>
  );
}

function TableSettings({ table }: { table: MetadataTable }) {
  const update = useUpdateTable(table.id);
  const [visibilityError, setVisibilityError] = useState<string | null>(null);
  // The choice shows at once; the table as the server answers it once saved.
  const [pendingVisibility, setPendingVisibility] = useState<string | null>(null);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="table-title">
      <Group justify="space-between" align="baseline">
        <Title order={2} id="table-title">
          {table.display_name}
        </Title>
        <Text size="sm" c="dimmed">
          {table.schema ? `${table.schema}.` : ''}
          {table.name}
        </Text>
      </Group>
      <Stack gap="sm" mt="sm">
        <SavedText
          label="Table display name"
          param="display_name"
          required
          value={table.display_name}
          onSave={(display_name) => update.mutateAsync({ display_name: display_name.trim() })}
        />
        <SavedText
          label="Table description"
          param="description"
          multiline
          value={table.description ?? ''}
          onSave={(d) => update.mutateAsync({ description: d.trim() || null })}
        />
        <Radio.Group
          label="Visibility"
          value={pendingVisibility ?? table.visibility_type ?? ''}
          error={visibilityError}
          onChange={(v) => {
            setVisibilityError(null);
            setPendingVisibility(v);
            update
              .mutateAsync({ visibility_type: (v || null) as MetadataTable['visibility_type'] })
              .catch((e: unknown) => setVisibilityError(errorFor(e, 'visibility_type')))
              .finally(() => setPendingVisibility(null));
          }}
        >
          <Group gap="md" mt={4}>
            {TABLE_VISIBILITY_OPTIONS.map((o) => (
              <Radio key={o.value} value={o.value} label={o.label} />
            ))}
          </Group>
        </Radio.Group>
        <SaveStatus pending={update.isPending} saved={update.isSuccess} />
      </Stack>
    </Paper>
  );
}

function FieldSettings({ field, dbId, keys }: { field: MetadataField; dbId: number; keys: Array<{ value: string; label: string }> }) {
  const update = useUpdateField(field.id);
  const save = (body: UpdateFieldBody) => update.mutateAsync(body);
  const isFk = field.semantic_type === 'type/FK';
  const targets = [
    { value: '', label: 'No target' },
    ...keys.filter((k) => k.value !== String(field.id)).map(({ value, label }) => ({ value, label })),
  ];
  return (
    <Fieldset legend={field.name} variant="filled">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        <SavedText
          label="Display name"
          param="display_name"
          required
          value={field.display_name}
          onSave={(v) => save({ display_name: v.trim() })}
        />
        <SavedText
          label="Description"
          param="description"
          value={field.description ?? ''}
          onSave={(v) => save({ description: v.trim() || null })}
        />
        <SavedSelect
          label="Semantic type"
          param="semantic_type"
          data={SEMANTIC_TYPE_OPTIONS}
          value={field.semantic_type ?? ''}
          onSave={(v) => save({ semantic_type: (v || null) as UpdateFieldBody['semantic_type'] })}
        />
        <SavedSelect
          label="Visibility"
          param="visibility_type"
          data={FIELD_VISIBILITY_OPTIONS}
          value={field.visibility_type}
          onSave={(v) => save({ visibility_type: v as UpdateFieldBody['visibility_type'] })}
        />
        <SavedSelect
          label="Filtering"
          param="has_field_values"
          data={FILTERING_OPTIONS}
          value={field.has_field_values ?? 'none'}
          onSave={(v) => save({ has_field_values: v as UpdateFieldBody['has_field_values'] })}
        />
        {isFk && (
          <SavedSelect
            label="Foreign key target"
            param="fk_target_field_id"
            data={targets}
            value={field.fk_target_field_id ? String(field.fk_target_field_id) : ''}
            onSave={(v) => save({ fk_target_field_id: v ? Number(v) : null })}
          />
        )}
      </SimpleGrid>
      <Group justify="space-between" mt="xs">
        <Anchor component={Link} to={`/admin/datamodel/database/${dbId}/table/${field.table_id}/field/${field.id}`} size="sm">
          Display values of {field.display_name}
        </Anchor>
        <SaveStatus pending={update.isPending} saved={update.isSuccess} />
      </Group>
    </Fieldset>
  );
}
