import { ActionIcon, Button, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { findColumn } from './columns';
import type { StepProps } from './context';
import { clause, clauses, fresh, type Clause } from './mbql';
import { describeAggregation, describeBreakout } from './summarize';

/** What can be sorted by: the groupings and metrics once summarized, else every column. */
function sortable({ stage, columns, label }: StepProps): Array<{ value: string; label: string; ref: Clause }> {
  const aggregations = clauses(stage, 'aggregation');
  const breakouts = clauses(stage, 'breakout');
  if (!aggregations.length && !breakouts.length) return columns.map((c) => ({ value: c.key, label: label(c), ref: c.ref }));
  return [
    ...breakouts.map((b, i) => ({ value: `breakout:${i}`, label: describeBreakout(b, columns, label), ref: b })),
    ...aggregations.map((a) => ({
      value: `aggregation:${String(a[1]['lib/uuid'])}`,
      label: describeAggregation(a, columns, label),
      ref: ['aggregation', {}, a[1]['lib/uuid']] as Clause,
    })),
  ];
}

function describeOrder(o: Clause, props: StepProps): string {
  const ref = o[2] as Clause;
  const dir = o[0] === 'desc' ? 'descending' : 'ascending';
  if (ref[0] === 'aggregation') {
    const a = clauses(props.stage, 'aggregation').find((x) => x[1]['lib/uuid'] === ref[2]);
    return `${a ? describeAggregation(a, props.columns, props.label) : 'metric'}, ${dir}`;
  }
  const b = ref[1]['temporal-unit'] || ref[1].binning ? describeBreakout(ref, props.columns, props.label) : undefined;
  const col = findColumn(props.columns, ref);
  return `${b ?? (col ? props.label(col) : String(ref[2]))}, ${dir}`;
}

export function SortStep(props: StepProps) {
  const { stage, update } = props;
  const orderBy = clauses(stage, 'order-by');
  const [key, setKey] = useState<string | null>(null);
  const [dir, setDir] = useState<'asc' | 'desc'>('asc');
  const options = sortable(props);
  const picked = options.find((o) => o.value === key);
  const add = () => {
    if (!picked) return;
    update({ 'order-by': [...orderBy, clause(dir, {}, fresh(picked.ref))] });
    setKey(null);
  };
  return (
    <Stack gap="xs">
      {orderBy.length > 0 && (
        <ul aria-label="Sorting" style={{ margin: 0, paddingLeft: 0, listStyle: 'none' }}>
          {orderBy.map((o, i) => {
            const text = describeOrder(o, props);
            return (
              <li key={i}>
                <Group gap="xs">
                  <Text size="sm">{text}</Text>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove sort ${text}`}
                    onClick={() => update({ 'order-by': orderBy.filter((_, k) => k !== i) })}
                  >
                    ×
                  </ActionIcon>
                </Group>
              </li>
            );
          })}
        </ul>
      )}
      <Group align="flex-end" wrap="wrap">
        <Select
          label="Sort by"
          searchable
          placeholder="Pick a column"
          data={options.map(({ value, label }) => ({ value, label }))}
          value={key}
          onChange={setKey}
        />
        <Select
          label="Direction"
          data={[
            { value: 'asc', label: 'Ascending' },
            { value: 'desc', label: 'Descending' },
          ]}
          value={dir}
          onChange={(v) => v && setDir(v as 'asc' | 'desc')}
          allowDeselect={false}
          w={140}
        />
        <Button size="xs" variant="light" disabled={!picked} onClick={add}>
          Add sort
        </Button>
      </Group>
    </Stack>
  );
}

export function LimitStep({ stage, update }: StepProps) {
  const limit = typeof stage.limit === 'number' ? stage.limit : '';
  return (
    <NumberInput
      label="Row limit"
      description="Empty: all rows"
      min={1}
      allowDecimal={false}
      value={limit}
      onChange={(v) => update({ limit: typeof v === 'number' && v > 0 ? v : undefined })}
      w={180}
    />
  );
}
