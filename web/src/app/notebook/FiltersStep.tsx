import { ActionIcon, Alert, Button, Group, MultiSelect, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { kindOf } from './columns';
import { columnOptions, type StepProps } from './context';
import { buildFilter, describeFilter, EXCLUDE_UNITS, filterInput, INTERVAL_UNITS, OPERATORS, type FilterInput } from './filters';
import { clauses } from './mbql';

/** Filters: each a column, an operator fitting its type and its values; all of them must hold (the stage's list is ANDed). */
export function FiltersStep(props: StepProps) {
  const { stage, update, columns, label } = props;
  const filters = clauses(stage, 'filters');
  // The filter being edited: its index, or the length of the list for a new one.
  const [editing, setEditing] = useState<number | null>(null);
  return (
    <Stack gap="xs">
      {filters.length > 0 && (
        <ul aria-label="Filters" style={{ margin: 0, paddingLeft: 0, listStyle: 'none' }}>
          {filters.map((f, i) => {
            const text = describeFilter(f, columns, label);
            return (
              <li key={i}>
                <Group gap="xs">
                  <Text size="sm">{text}</Text>
                  {filterInput(f, columns) && (
                    <Button variant="subtle" size="compact-xs" aria-label={`Edit filter ${text}`} onClick={() => setEditing(i)}>
                      Edit
                    </Button>
                  )}
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove filter ${text}`}
                    onClick={() => update({ filters: filters.filter((_, k) => k !== i) })}
                  >
                    ×
                  </ActionIcon>
                </Group>
              </li>
            );
          })}
        </ul>
      )}
      {editing !== null ? (
        <FilterForm
          {...props}
          key={editing}
          initial={editing < filters.length ? (filterInput(filters[editing], columns) ?? undefined) : undefined}
          onDone={(f) => {
            if (f) {
              const next = [...filters];
              next[editing] = f;
              update({ filters: next });
            }
            setEditing(null);
          }}
        />
      ) : (
        <Group>
          <Button variant="light" size="xs" onClick={() => setEditing(filters.length)}>
            Add filter
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function FilterForm({
  columns,
  label,
  initial,
  onDone,
}: StepProps & { initial?: FilterInput; onDone(f: ReturnType<typeof buildFilter> | null): void }) {
  const [key, setKey] = useState<string | null>(initial?.column.key ?? null);
  const [operator, setOperator] = useState<string | null>(initial?.operator ?? null);
  const [values, setValues] = useState<string[]>(() => initialValues(initial));
  const [unit, setUnit] = useState<string>(initial?.unit ?? 'day');
  const [error, setError] = useState<string | null>(null);
  const column = columns.find((c) => c.key === key);
  const kind = column ? kindOf(column.baseType) : 'other';
  const operators = OPERATORS[kind];
  const op = operators.find((o) => o.id === operator);
  // A text column whose values the server keeps: "is" and "is not" pick among them instead of typing.
  const listed = kind === 'text' && (operator === '=' || operator === '!=') && Boolean(column?.values?.length);
  const setValue = (i: number, v: string) => setValues((old) => old.map((x, k) => (k === i ? v : x)));

  const pickColumn = (v: string | null) => {
    setKey(v);
    const next = columns.find((c) => c.key === v);
    setOperator(next ? OPERATORS[kindOf(next.baseType)][0].id : null);
    setValues(['', '']);
    setUnit('day');
    setError(null);
  };
  const pickOperator = (v: string | null) => {
    setOperator(v);
    setValues(['', '']);
    if (v === 'exclude') setUnit('day-of-week');
    else if (unit in EXCLUDE_UNITS) setUnit('day');
    setError(null);
  };
  const submit = () => {
    if (!column || !operator) return setError('Pick a column and an operator');
    try {
      const many = op?.values === 'many' && operator !== 'exclude' && !listed ? values[0].split(',') : values;
      onDone(buildFilter({ column, operator, values: many, unit }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const isDate = kind === 'date';
  const dateInput = operator === 'on' || operator === 'before' || operator === 'after' || operator === 'between';
  return (
    <Stack gap="xs">
      <Group align="flex-end" wrap="wrap">
        <Select label="Column to filter" searchable data={columnOptions(columns, label)} value={key} onChange={pickColumn} />
        {column && (
          <Select
            label="Operator"
            data={operators.map((o) => ({ value: o.id, label: o.label }))}
            value={operator}
            onChange={pickOperator}
            allowDeselect={false}
          />
        )}
        {column && op && isDate && (operator === 'previous' || operator === 'next') && (
          <NumberInput label="How many" min={1} value={values[0]} onChange={(v) => setValue(0, String(v))} w={110} />
        )}
        {column && op && isDate && (operator === 'previous' || operator === 'next' || operator === 'current') && (
          <Select
            label="Unit"
            data={INTERVAL_UNITS.map((u) => ({ value: u, label: `${u}s` }))}
            value={unit}
            onChange={(v) => v && setUnit(v)}
            allowDeselect={false}
            w={130}
          />
        )}
        {column && op && isDate && dateInput && (
          <>
            <TextInput
              label={operator === 'between' ? 'From' : 'Date'}
              type="date"
              value={values[0]}
              onChange={(e) => setValue(0, e.currentTarget.value)}
            />
            {operator === 'between' && (
              <TextInput label="To" type="date" value={values[1]} onChange={(e) => setValue(1, e.currentTarget.value)} />
            )}
          </>
        )}
        {column && operator === 'exclude' && (
          <>
            <Select
              label="Exclude"
              data={Object.entries(EXCLUDE_UNITS).map(([value, p]) => ({ value, label: p.label }))}
              value={unit}
              onChange={(v) => v && (setUnit(v), setValues([]))}
              allowDeselect={false}
            />
            <MultiSelect
              label="Values to exclude"
              data={EXCLUDE_UNITS[unit]?.values ?? []}
              value={values.filter(Boolean)}
              onChange={setValues}
              miw={220}
            />
          </>
        )}
        {column && listed && (
          <MultiSelect
            label="Values"
            searchable
            data={column.values!.map(([value, label]) => ({ value, label }))}
            value={values.filter(Boolean)}
            onChange={setValues}
            miw={220}
          />
        )}
        {column && op && !isDate && !listed && op.values !== 0 && (
          <>
            <TextInput
              label={op.values === 2 ? 'From' : op.values === 'many' ? 'Values (separated by commas)' : 'Value'}
              value={values[0]}
              onChange={(e) => setValue(0, e.currentTarget.value)}
            />
            {op.values === 2 && <TextInput label="To" value={values[1]} onChange={(e) => setValue(1, e.currentTarget.value)} />}
          </>
        )}
      </Group>
      {error && (
        <Alert color="red" title="This filter is incomplete">
          {error}
        </Alert>
      )}
      <Group>
        <Button size="xs" onClick={submit} disabled={!column}>
          {initial ? 'Update filter' : 'Add filter'}
        </Button>
        <Button size="xs" variant="default" onClick={() => onDone(null)}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

/** The form's values for a filter being edited: a list typed as "a, b" is one field, a picked list its items. */
function initialValues(initial?: FilterInput): string[] {
  if (!initial) return ['', ''];
  const picked = initial.column.values?.length && kindOf(initial.column.baseType) === 'text' && ['=', '!='].includes(initial.operator);
  if (picked) return initial.values[0].split(', ').filter(Boolean);
  return [...initial.values, '', ''].slice(0, Math.max(2, initial.values.length));
}
