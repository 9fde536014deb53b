import { NumberInput, Select, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import type { Settings } from '../../../visualizations';
import { isNumeric, isTemporal, type ColumnFormat } from '../../../visualizations/format';
import type { ResultColumn } from '../../api/dataset';

const NUMBER_STYLES = [
  { value: 'decimal', label: 'Normal' },
  { value: 'percent', label: 'Percent' },
  { value: 'scientific', label: 'Scientific' },
  { value: 'currency', label: 'Currency' },
];
const DATE_STYLES = ['MMMM D, YYYY', 'D MMMM, YYYY', 'dddd, MMMM D, YYYY', 'M/D/YYYY', 'D/M/YYYY', 'YYYY/M/D'].map((v) => ({
  value: v,
  label: v,
}));
const TIMES = [
  { value: 'default', label: 'As the column is' },
  { value: 'off', label: 'Off' },
  { value: 'minutes', label: 'Hours and minutes' },
  { value: 'seconds', label: 'With seconds' },
];

/** Metabase's key of a column's settings by name: `["name","TOTAL"]`. */
export const columnKey = (name: string) => JSON.stringify(['name', name]);

/**
 * One column's formatting (Metabase's `column_settings`, which the results table and every chart read): its title,
 * and for numbers the style, currency, decimals, multiplier, prefix and suffix; for dates the date style and time.
 */
export function ColumnFormatFields({
  cols,
  settings,
  onChange,
}: {
  cols: ResultColumn[];
  settings: Settings;
  onChange(s: Settings): void;
}) {
  const [name, setName] = useState<string | null>(null);
  const col = cols.find((c) => c.name === name);
  const all = (settings.column_settings ?? {}) as Record<string, ColumnFormat>;
  const format: ColumnFormat = col ? (all[columnKey(col.name)] ?? {}) : {};
  const set = (key: keyof ColumnFormat & string, value: unknown) => patch({ [key]: value });
  const patch = (changes: Partial<ColumnFormat>) => {
    if (!col) return;
    const next: ColumnFormat = { ...format, ...changes };
    for (const [k, v] of Object.entries(changes)) if (v === undefined || v === '') delete next[k];
    const rest = { ...all };
    if (Object.keys(next).length) rest[columnKey(col.name)] = next;
    else delete rest[columnKey(col.name)];
    onChange({ ...settings, column_settings: Object.keys(rest).length ? rest : undefined });
  };
  const text = (key: keyof ColumnFormat & string) => (typeof format[key] === 'string' ? (format[key] as string) : '');
  const num = (key: keyof ColumnFormat & string) => (typeof format[key] === 'number' ? (format[key] as number) : '');
  const column = col as Parameters<typeof isNumeric>[0] | undefined;
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Column formatting
      </Title>
      <Select
        label="Column to format"
        data={cols.map((c) => ({ value: c.name, label: c.display_name }))}
        value={name}
        onChange={setName}
        placeholder="Choose a column"
      />
      {col && (
        <>
          <TextInput
            label="Column title"
            placeholder={col.display_name}
            value={text('column_title')}
            onChange={(e) => set('column_title', e.currentTarget.value)}
          />
          {column && isNumeric(column) && (
            <>
              <Select
                label="Style"
                data={NUMBER_STYLES}
                allowDeselect={false}
                value={text('number_style') || 'decimal'}
                onChange={(v) =>
                  patch({
                    number_style: v === 'decimal' ? undefined : (v ?? undefined),
                    // A currency needs its code: dollars until another is typed.
                    ...(v === 'currency' && !format.currency ? { currency: 'USD' } : {}),
                  })
                }
              />
              {format.number_style === 'currency' && (
                <TextInput
                  label="Currency"
                  description="Its three-letter code: USD, EUR, JPY…"
                  value={text('currency') || 'USD'}
                  maxLength={3}
                  onChange={(e) => set('currency', e.currentTarget.value.toUpperCase() || undefined)}
                />
              )}
              <NumberInput
                label="Decimal places"
                min={0}
                max={10}
                allowDecimal={false}
                value={num('decimals')}
                onChange={(v) => set('decimals', typeof v === 'number' ? v : undefined)}
              />
              <NumberInput label="Multiply by" value={num('scale')} onChange={(v) => set('scale', typeof v === 'number' ? v : undefined)} />
              <TextInput label="Prefix" value={text('prefix')} onChange={(e) => set('prefix', e.currentTarget.value)} />
              <TextInput label="Suffix" value={text('suffix')} onChange={(e) => set('suffix', e.currentTarget.value)} />
            </>
          )}
          {column && isTemporal(column) && (
            <>
              <Select
                label="Date style"
                data={DATE_STYLES}
                clearable
                value={text('date_style') || null}
                onChange={(v) => set('date_style', v ?? undefined)}
              />
              <Select
                label="Show the time"
                data={TIMES}
                allowDeselect={false}
                value={format.time_enabled === null ? 'off' : text('time_enabled') || 'default'}
                onChange={(v) => set('time_enabled', v === 'off' ? null : v === 'default' ? undefined : v)}
              />
            </>
          )}
        </>
      )}
    </Stack>
  );
}
