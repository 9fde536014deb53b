import { CloseButton, Fieldset, Group, Paper, ScrollArea, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import type { MetadataField, MetadataTable } from '../../api/database';
import { variableTags, type TagType, type TemplateTag, type TemplateTags } from './template-tags';

const TYPES: Array<{ value: TagType; label: string }> = [
  { value: 'text', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'date', label: 'Date' },
  { value: 'dimension', label: 'Field filter' },
];

/** Metabase's widget types of a field filter, by the field's kind. */
const WIDGETS = {
  text: [
    { value: 'string/=', label: 'Is' },
    { value: 'string/contains', label: 'Contains' },
    { value: 'string/starts-with', label: 'Starts with' },
    { value: 'category', label: 'Category' },
  ],
  number: [
    { value: 'number/=', label: 'Equal to' },
    { value: 'number/>=', label: 'Greater than or equal to' },
    { value: 'number/<=', label: 'Less than or equal to' },
    { value: 'category', label: 'Category' },
  ],
  date: [
    { value: 'date/single', label: 'Single date' },
    { value: 'date/range', label: 'Date range' },
    { value: 'date/relative', label: 'Relative date' },
    { value: 'date/all-options', label: 'All options' },
  ],
};

const kindOf = (f: MetadataField | undefined): keyof typeof WIDGETS =>
  !f ? 'text' : /Date|Time/.test(f.base_type) ? 'date' : /Integer|Float|Decimal|Number/.test(f.base_type) ? 'number' : 'text';

/**
 * One box per variable of the query: its type, the label its filter shows, a default and whether a value is
 * required; a field filter also its field (from the database's tables) and its widget.
 */
export function VariablesPanel({
  tags,
  tables,
  onChange,
  onClose,
}: {
  tags: TemplateTags;
  tables: readonly MetadataTable[];
  onChange(tags: TemplateTags): void;
  onClose(): void;
}) {
  const vars = variableTags(tags);
  const fields = new Map(tables.flatMap((t) => t.fields.map((f) => [f.id, f] as const)));
  const fieldOptions = tables.map((t) => ({
    group: t.display_name,
    items: t.fields.map((f) => ({ value: String(f.id), label: `${t.display_name} → ${f.display_name}` })),
  }));
  const set = (tag: TemplateTag, patch: Partial<TemplateTag>) => onChange({ ...tags, [tag.name]: { ...tag, ...patch } });

  return (
    <Paper component="aside" aria-labelledby="variables-title" withBorder p="sm" w={340} style={{ flex: 'none' }}>
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5" id="variables-title">
          Variables
        </Title>
        <CloseButton aria-label="Close the variables" onClick={onClose} />
      </Group>
      <ScrollArea.Autosize mah={520} type="auto">
        {vars.length === 0 && <Text size="sm">Write {'{{name}}'} in the query to add a variable.</Text>}
        <Stack gap="sm">
          {vars.map((t) => {
            const fieldId = Array.isArray(t.dimension) && typeof t.dimension[1] === 'number' ? t.dimension[1] : null;
            const field = fieldId === null ? undefined : fields.get(fieldId);
            return (
              <Fieldset key={t.name} legend={t.name} variant="filled">
                <Stack gap="xs">
                  <Select
                    label={`Type of ${t.name}`}
                    data={TYPES}
                    value={t.type}
                    allowDeselect={false}
                    onChange={(v) => {
                      const type = (v ?? 'text') as TagType;
                      // A field filter drops a variable's default (its values are the field's), and back.
                      const { dimension: _d, 'widget-type': _w, ...rest } = t;
                      onChange({ ...tags, [t.name]: type === 'dimension' ? { ...rest, type, default: undefined } : { ...rest, type } });
                    }}
                  />
                  {t.type === 'dimension' && (
                    <>
                      <Select
                        label={`Field of ${t.name}`}
                        searchable
                        placeholder="Pick a field"
                        data={fieldOptions}
                        value={fieldId === null ? null : String(fieldId)}
                        onChange={(v) => {
                          const f = v ? fields.get(Number(v)) : undefined;
                          set(t, { dimension: ['field', Number(v), null], 'widget-type': WIDGETS[kindOf(f)][0].value });
                        }}
                      />
                      <Select
                        label={`Filter widget of ${t.name}`}
                        data={WIDGETS[kindOf(field)]}
                        value={t['widget-type'] ?? null}
                        allowDeselect={false}
                        disabled={!field}
                        onChange={(v) => v && set(t, { 'widget-type': v })}
                      />
                    </>
                  )}
                  <TextInput
                    label={`Label of ${t.name}`}
                    value={t['display-name']}
                    onChange={(e) => set(t, { 'display-name': e.currentTarget.value })}
                  />
                  <TextInput
                    label={`Default of ${t.name}`}
                    value={
                      t.default === undefined || t.default === null
                        ? ''
                        : Array.isArray(t.default)
                          ? t.default.join(', ')
                          : String(t.default)
                    }
                    onChange={(e) => {
                      const raw = e.currentTarget.value;
                      const value =
                        raw === ''
                          ? undefined
                          : t.type === 'dimension'
                            ? raw.split(',').map((s) => s.trim())
                            : t.type === 'number' && !Number.isNaN(Number(raw))
                              ? Number(raw)
                              : raw;
                      set(t, { default: value });
                    }}
                  />
                  <Switch
                    label={`Always require a value for ${t.name}`}
                    checked={t.required === true}
                    onChange={(e) => set(t, { required: e.currentTarget.checked })}
                  />
                </Stack>
              </Fieldset>
            );
          })}
        </Stack>
      </ScrollArea.Autosize>
    </Paper>
  );
}
