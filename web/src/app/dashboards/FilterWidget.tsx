import { MultiSelect, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useParameterValues, type DashboardParameter } from '../api/dashboard-view';
import { DateFilterInput } from '../components/DateFilterInput';
import { constraints, widgetKind, type FilterValues } from './params';

/** A values answer's entries (`[value]` or `[value, label]`) as options of a select. */
function options(values: unknown[]): Array<{ value: string; label: string }> {
  const seen = new Set<string>();
  const out: Array<{ value: string; label: string }> = [];
  for (const v of values) {
    const [value, label] = Array.isArray(v) ? v : [v];
    if (value === null || value === undefined) continue;
    const key = String(value);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ value: key, label: label === undefined || label === null ? key : String(label) });
  }
  return out;
}

/**
 * The widget of one filter, by its type. Lists take their values from `/params/:key/values` narrowed by the other
 * filters (chain filtering), and search `/params/:key/search/:query` when the list was cut short.
 */
export function FilterWidget(props: {
  dashboardId: number;
  parameter: DashboardParameter;
  parameters: DashboardParameter[];
  values: FilterValues;
  value: unknown;
  onChange: (v: unknown) => void;
  /** Values of a filter not saved yet cannot be asked of the server. */
  canLoad: boolean;
}) {
  const p = props.parameter;
  const kind = widgetKind(p.type);
  const required = p.required === true;
  const label = p.name;
  if (kind === 'list') return <ListWidget {...props} />;
  if (kind === 'date')
    return (
      <DateFilterInput
        label={label}
        type={p.type}
        required={required}
        value={typeof props.value === 'string' ? props.value : null}
        onChange={props.onChange}
      />
    );
  const text =
    props.value === null || props.value === undefined ? '' : (Array.isArray(props.value) ? props.value : [props.value]).join(', ');
  return (
    <TextInput
      label={label}
      required={required}
      w={200}
      placeholder={kind === 'number' ? 'e.g. 10 or 10, 20' : 'Enter a value'}
      defaultValue={text}
      // Applied when the person leaves the field or presses Enter, not on every keystroke (each would re-run cards).
      onBlur={(e) => props.onChange(parse(kind, e.currentTarget.value))}
      onKeyDown={(e) => {
        if (e.key === 'Enter') props.onChange(parse(kind, e.currentTarget.value));
      }}
    />
  );
}

function parse(kind: string, raw: string): unknown {
  const parts = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) return null;
  if (kind === 'number') {
    const nums = parts.map(Number).filter((n) => Number.isFinite(n));
    return nums.length ? nums : null;
  }
  return parts;
}

function ListWidget(props: Parameters<typeof FilterWidget>[0]) {
  const p = props.parameter;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [opened, setOpened] = useState(false);
  const staticValues = p.values_source_type === 'static-list' ? p.values_source_config?.values : undefined;
  const others = constraints(p, props.parameters, props.values);
  const all = useParameterValues(props.dashboardId, p.id, null, others, opened && props.canLoad && !staticValues);
  const searching = Boolean(debounced) && all.data?.has_more_values === true;
  const found = useParameterValues(props.dashboardId, p.id, debounced || null, others, searching && props.canLoad);
  const selected =
    props.value === null || props.value === undefined ? [] : (Array.isArray(props.value) ? props.value : [props.value]).map(String);
  const listed = options(staticValues ?? (searching ? (found.data?.values ?? []) : (all.data?.values ?? [])));
  // The chosen values stay among the options even when the narrowed list no longer has them.
  const data = [...listed, ...selected.filter((s) => !listed.some((o) => o.value === s)).map((s) => ({ value: s, label: s }))];
  const loading = all.isFetching || found.isFetching;
  return (
    <MultiSelect
      label={p.name}
      required={p.required === true}
      w={240}
      data={data}
      value={selected}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      onDropdownOpen={() => setOpened(true)}
      placeholder={selected.length ? undefined : 'Select…'}
      nothingFoundMessage={loading ? 'Loading values…' : all.error ? all.error.message : 'No values'}
      onChange={(v) => props.onChange(v.length ? v : null)}
    />
  );
}
