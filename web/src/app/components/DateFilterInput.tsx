import { Button, Checkbox, Group, Input, NumberInput, Popover, SegmentedControl, Select, Stack } from '@mantine/core';
import { DateInput, type DateInputProps } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { useState } from 'react';
import {
  describeDate,
  MODE_LABELS,
  MONTH_NAMES,
  modeOf,
  modesOf,
  parseWindow,
  rangeOf,
  rangeValue,
  RELATIVE_PRESETS,
  RELATIVE_UNITS,
  windowValue,
  type DateMode,
  type RelativeUnit,
} from './date-filter';

const CUSTOM = 'custom';
const inline = { withinPortal: false } as const;
/** Names of the calendar's arrows, which show only an icon (the month and year controls show their text). */
const calendarLabels = {
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  previousYear: 'Previous year',
  nextYear: 'Next year',
  previousDecade: 'Previous decade',
  nextDecade: 'Next decade',
};

/**
 * A date filter's value picked rather than typed: a button saying the current value opens a panel with the kinds of
 * date the filter takes (a day, a range, a relative window, a month, a quarter); Apply sets the string the server reads.
 */
export function DateFilterInput(props: {
  label: string;
  /** The filter's or variable's type (`date/all-options`, `date/single`...): which kinds are offered. */
  type?: string;
  required?: boolean;
  value: string | null;
  onChange(value: string | null): void;
  w?: number;
}) {
  const modes = modesOf(props.type);
  const [opened, setOpened] = useState(false);
  const [mode, setMode] = useState<DateMode>(modeOf(props.value) ?? modes[0]);
  const [draft, setDraft] = useState<string | null>(props.value);
  const open = () => {
    setDraft(props.value);
    setMode(modeOf(props.value) ?? modes[0]);
    setOpened(true);
  };
  const apply = (value: string | null) => {
    props.onChange(value);
    setOpened(false);
  };
  const valid = draft !== null && modeOf(draft) === mode;
  return (
    // withRoles off: Mantine would name the panel after its target (aria-labelledby), hiding the aria-label below.
    <Popover opened={opened} onChange={setOpened} position="bottom-start" trapFocus shadow="md" withRoles={false}>
      <Popover.Target>
        <Input.Wrapper label={props.label} required={props.required} w={props.w ?? 220}>
          <Input
            component="button"
            type="button"
            pointer
            aria-haspopup="dialog"
            aria-expanded={opened}
            onClick={() => (opened ? setOpened(false) : open())}
          >
            {/* Not Input.Placeholder: its grey is below the contrast a label needs, and no value means any date. */}
            {describeDate(props.value) || 'Any date'}
          </Input>
        </Input.Wrapper>
      </Popover.Target>
      <Popover.Dropdown role="dialog" aria-label={`${props.label}: pick a date`}>
        <Stack gap="sm" w={300}>
          {modes.length > 1 && (
            <SegmentedControl
              aria-label="Kind of date"
              size="xs"
              data={modes.map((m) => ({ value: m, label: MODE_LABELS[m] }))}
              value={mode}
              onChange={(m) => {
                setMode(m as DateMode);
                setDraft(null);
              }}
            />
          )}
          {mode === 'specific' && (
            <DayInput
              label="Date"
              placeholder="YYYY-MM-DD"
              value={modeOf(draft) === 'specific' ? draft : null}
              onChange={(d) => setDraft(d)}
            />
          )}
          {mode === 'range' && <RangeFields value={draft} onChange={setDraft} />}
          {mode === 'relative' && <RelativeFields value={draft} onChange={setDraft} />}
          {(mode === 'month' || mode === 'quarter') && <PeriodFields mode={mode} value={draft} onChange={setDraft} />}
          <Group justify="space-between">
            <Button variant="subtle" size="xs" onClick={() => apply(null)} disabled={props.value === null}>
              Clear
            </Button>
            <Button size="xs" onClick={() => apply(draft)} disabled={!valid}>
              Apply
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** A day typed as YYYY-MM-DD or picked from its calendar, drawn inside the panel. */
function DayInput(props: DateInputProps) {
  return (
    <DateInput
      valueFormat="YYYY-MM-DD"
      popoverProps={inline}
      ariaLabels={calendarLabels}
      // Weekends in red fall below the contrast text needs; they are not what a filter is about.
      weekendDays={[]}
      {...props}
    />
  );
}

function RangeFields({ value, onChange }: { value: string | null; onChange(v: string | null): void }) {
  const { from, to } = rangeOf(value);
  return (
    <Group grow gap="xs">
      <DayInput
        label="From"
        placeholder="Any time"
        clearable
        clearButtonProps={{ 'aria-label': 'Clear the start date' }}
        value={from}
        onChange={(d) => onChange(rangeValue(d, to))}
      />
      <DayInput
        label="To"
        placeholder="Any time"
        clearable
        clearButtonProps={{ 'aria-label': 'Clear the end date' }}
        value={to}
        onChange={(d) => onChange(rangeValue(from, d))}
      />
    </Group>
  );
}

function RelativeFields({ value, onChange }: { value: string | null; onChange(v: string | null): void }) {
  const win = value ? parseWindow(value) : null;
  const preset = value && RELATIVE_PRESETS.some((p) => p.value === value) ? value : null;
  const [custom, setCustom] = useState(win !== null);
  const w = win ?? { direction: 'past' as const, n: 30, unit: 'day' as RelativeUnit, includeCurrent: false };
  return (
    <Stack gap="xs">
      <Select
        label="Period"
        data={[...RELATIVE_PRESETS, { value: CUSTOM, label: 'Custom…' }]}
        value={custom ? CUSTOM : preset}
        comboboxProps={inline}
        onChange={(v) => {
          setCustom(v === CUSTOM);
          onChange(v === CUSTOM ? windowValue(w) : v);
        }}
      />
      {custom && (
        <>
          <Group grow gap="xs" align="flex-end">
            <Select
              label="Direction"
              data={[
                { value: 'past', label: 'Past' },
                { value: 'next', label: 'Next' },
              ]}
              value={w.direction}
              allowDeselect={false}
              comboboxProps={inline}
              onChange={(d) => onChange(windowValue({ ...w, direction: d as 'past' | 'next' }))}
            />
            <NumberInput
              label="Number"
              min={1}
              max={9999}
              allowDecimal={false}
              value={w.n}
              onChange={(n) => typeof n === 'number' && n >= 1 && onChange(windowValue({ ...w, n }))}
            />
            <Select
              label="Unit"
              data={RELATIVE_UNITS.map((u) => ({ value: u, label: `${u}s` }))}
              value={w.unit}
              allowDeselect={false}
              comboboxProps={inline}
              onChange={(u) => onChange(windowValue({ ...w, unit: u as RelativeUnit }))}
            />
          </Group>
          <Checkbox
            label="Include the current one"
            checked={w.includeCurrent}
            onChange={(e) => onChange(windowValue({ ...w, includeCurrent: e.currentTarget.checked }))}
          />
        </>
      )}
    </Stack>
  );
}

function PeriodFields({ mode, value, onChange }: { mode: 'month' | 'quarter'; value: string | null; onChange(v: string | null): void }) {
  const parsed = mode === 'month' ? /^(\d{4})-(\d{2})$/.exec(value ?? '') : /^Q([1-4])-(\d{4})$/.exec(value ?? '');
  const [part, setPart] = useState<string | null>(parsed ? (mode === 'month' ? String(Number(parsed[2])) : parsed[1]) : null);
  const [year, setYear] = useState<number>(parsed ? Number(mode === 'month' ? parsed[1] : parsed[2]) : new Date().getFullYear());
  const build = (p: string | null, y: number) =>
    p === null || !(y >= 1000 && y <= 9999) ? null : mode === 'month' ? `${y}-${p.padStart(2, '0')}` : `Q${p}-${y}`;
  const data =
    mode === 'month'
      ? MONTH_NAMES.map((name, i) => ({ value: String(i + 1), label: name }))
      : ['1', '2', '3', '4'].map((q) => ({ value: q, label: `Q${q}` }));
  return (
    <Group grow gap="xs">
      <Select
        label={mode === 'month' ? 'Month' : 'Quarter'}
        data={data}
        value={part}
        comboboxProps={inline}
        onChange={(p) => {
          setPart(p);
          onChange(build(p, year));
        }}
      />
      <NumberInput
        label="Year"
        min={1000}
        max={9999}
        allowDecimal={false}
        value={year}
        onChange={(y) => {
          const n = typeof y === 'number' ? y : Number(y);
          setYear(n);
          onChange(build(part, n));
        }}
      />
    </Group>
  );
}
