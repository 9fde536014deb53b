import { Group, TagsInput, TextInput } from '@mantine/core';
import { useFieldValues } from '../api/field';
import { DateFilterInput } from '../components/DateFilterInput';
import type { TagValues } from './parameters';
import { variableTags, type TemplateTag, type TemplateTags } from './sql/template-tags';

/** Placeholder per widget: how a value is typed. */
function hint(type: string, widget?: string): string {
  if (type === 'number' || widget?.startsWith('number')) return 'Enter a number';
  return 'Enter a value';
}

const fieldIdOf = (t: TemplateTag) => (Array.isArray(t.dimension) && typeof t.dimension[1] === 'number' ? t.dimension[1] : null);

/**
 * The values of the native question's variables, above the results: each sent as a parameter on the next run
 * (Enter in a field runs). A field filter on a text or category field offers the field's values and takes several.
 */
export function FilterBar({
  tags,
  values,
  onChange,
  onRun,
}: {
  tags: TemplateTags;
  values: TagValues;
  onChange(v: TagValues): void;
  onRun(): void;
}) {
  return (
    <form
      aria-label="Filters"
      onSubmit={(e) => {
        e.preventDefault();
        onRun();
      }}
    >
      <Group gap="sm" align="flex-end">
        {variableTags(tags).map((t) => {
          const set = (v: string) => onChange({ ...values, [t.name]: v });
          const fieldId = fieldIdOf(t);
          const many = t.type === 'dimension' && fieldId !== null && !/^(date|number)/.test(t['widget-type'] ?? '');
          const date = t.type === 'date' || (t.type === 'dimension' && (t['widget-type'] ?? '').startsWith('date'));
          if (date)
            return (
              <DateFilterInput
                key={t.name}
                label={t['display-name'] || t.name}
                type={t.type === 'date' ? 'date/single' : t['widget-type']}
                required={t.required}
                value={values[t.name] || null}
                onChange={(v) => set(v ?? '')}
              />
            );
          return many ? (
            <FieldValuesInput key={t.name} tag={t} fieldId={fieldId} value={values[t.name] ?? ''} onChange={set} />
          ) : (
            <TextInput
              key={t.name}
              label={t['display-name'] || t.name}
              required={t.required}
              placeholder={hint(t.type, t['widget-type'])}
              value={values[t.name] ?? ''}
              onChange={(e) => set(e.currentTarget.value)}
              w={220}
            />
          );
        })}
        {/* Enter in a text field submits the form only with a submit button in it. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Group>
    </form>
  );
}

/** Several values of a field (kept as "a, b" like the other inputs), the field's known values offered as suggestions. */
function FieldValuesInput({
  tag,
  fieldId,
  value,
  onChange,
}: {
  tag: TemplateTag;
  fieldId: number;
  value: string;
  onChange(v: string): void;
}) {
  const known = useFieldValues(fieldId);
  const data = [...new Set((known.data?.values ?? []).map((v) => String(v[0])))];
  const picked = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return (
    <TagsInput
      label={tag['display-name'] || tag.name}
      required={tag.required}
      placeholder={picked.length ? undefined : 'Pick or enter values'}
      data={data}
      value={picked}
      onChange={(v) => onChange(v.join(', '))}
      w={280}
      clearable
    />
  );
}
